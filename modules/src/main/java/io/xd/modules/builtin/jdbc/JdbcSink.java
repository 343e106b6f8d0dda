package io.xd.modules.builtin.jdbc;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code jdbc} sink: inserts a row per message into a table, mapping JSON payloads to columns by name and any
 * other payload to a column {@code payload} (see {@link PayloadColumns}). It connects at start, where a database that
 * refuses the connection, or a missing table or column, fails the module with the reason. With {@code batchSize} 1
 * (the default) each message is inserted before {@code handleMessage} returns, and a failed insert is thrown to the
 * bus. With a larger batch, rows are inserted when {@code batchSize} have gathered or the oldest has waited
 * {@code idleTimeout}, and at stop; a failed batch is thrown to the message that completed it, or logged when the
 * idle timer sent it, and its rows are not retried.
 */
public final class JdbcSink implements Sink {

	static final ModuleOption<String> TABLE_NAME = ModuleOption.ofString("tableName")
		.withRule(JdbcTable::isTableName, "be an SQL identifier (letters, digits, _), optionally schema.table")
		.withDescription("the table to insert into; defaults to the stream name");

	static final ModuleOption<String> COLUMNS = ModuleOption.ofString("columns")
		.withDefault("payload")
		.withRule(JdbcTable::isColumnList, "be a comma-separated list of distinct SQL identifiers")
		.withDescription("the columns to fill, from the JSON fields of the same names or the whole payload");

	static final ModuleOption<Boolean> INITIALIZE = ModuleOption.ofBoolean("initialize")
		.withDefault(false)
		.withDescription("create the table, with a VARCHAR(2000) column each, if it does not exist");

	static final ModuleOption<Boolean> INITIALIZE_DATABASE = ModuleOption.ofBoolean("initializeDatabase")
		.withDefault(false)
		.withDescription("Spring XD's name for initialize");

	static final ModuleOption<Integer> BATCH_SIZE = ModuleOption.ofInt("batchSize")
		.withDefault(1)
		.withMin(1)
		.withDescription("the rows inserted in one batch");

	static final ModuleOption<Long> IDLE_TIMEOUT = ModuleOption.ofLong("idleTimeout")
		.withDefault(1000L)
		.withMin(1)
		.withDescription("the milliseconds a row waits at most for its batch to fill");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "jdbc",
			"Inserts each payload as a row of a database table", options());

	private static final Logger logger = LoggerFactory.getLogger(JdbcSink.class);

	private final ModuleContext context;

	private final JdbcTable table;

	private final String displayUrl;

	private final PayloadColumns columns;

	private final boolean initialize;

	private final int batchSize;

	private final long idleTimeoutNanos;

	private final List<List<String>> pending = new ArrayList<>();

	private long oldestPendingNanos;

	private ScheduledExecutorService idleTimer;

	public JdbcSink(ModuleContext context) {
		this.context = context;
		JdbcDatabase database = JdbcDatabase.of(context);
		String tableName = context.options().get(TABLE_NAME);
		if (tableName == null) {
			tableName = context.streamName();
			if (!JdbcTable.isTableName(tableName)) {
				throw new IllegalArgumentException("The stream name '" + tableName
						+ "' is not an SQL identifier: give --tableName");
			}
		}
		List<String> columnNames = JdbcTable.columnList(context.options().get(COLUMNS));
		this.displayUrl = database.display();
		this.table = new JdbcTable(database, tableName, columnNames);
		this.columns = new PayloadColumns(columnNames);
		this.initialize = context.options().get(INITIALIZE) || context.options().get(INITIALIZE_DATABASE);
		this.batchSize = context.options().get(BATCH_SIZE);
		this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(context.options().get(IDLE_TIMEOUT));
	}

	@Override
	public synchronized void start() {
		try {
			this.table.open(this.initialize);
		}
		catch (SQLException ex) {
			this.table.close();
			throw new IllegalStateException("The jdbc sink cannot use " + this.displayUrl + ": " + ex.getMessage(), ex);
		}
		if (this.batchSize > 1) {
			this.idleTimer = ModuleSupport.scheduler(this.context, "jdbc-flush");
			long period = Math.max(1, TimeUnit.NANOSECONDS.toMillis(this.idleTimeoutNanos) / 4);
			this.idleTimer.scheduleWithFixedDelay(this::flushIfIdle, period, period, TimeUnit.MILLISECONDS);
		}
	}

	@Override
	public void handleMessage(Message<?> message) {
		List<String> row = this.columns.values(message.getPayload());
		synchronized (this) {
			if (this.pending.isEmpty()) {
				this.oldestPendingNanos = System.nanoTime();
			}
			this.pending.add(row);
			if (this.pending.size() >= this.batchSize) {
				try {
					flush();
				}
				catch (SQLException ex) {
					throw new MessagingException(message, "The jdbc sink could not insert into " + this.displayUrl
							+ ": " + ex.getMessage(), ex);
				}
			}
		}
	}

	private synchronized void flushIfIdle() {
		if (!this.pending.isEmpty() && System.nanoTime() - this.oldestPendingNanos >= this.idleTimeoutNanos) {
			flushLogging();
		}
	}

	private void flushLogging() {
		int rows = this.pending.size();
		try {
			flush();
		}
		catch (SQLException ex) {
			logger.error("Stream '{}': the jdbc sink lost {} rows it could not insert", this.context.streamName(), rows,
					ex);
		}
	}

	private void flush() throws SQLException {
		List<List<String>> rows = List.copyOf(this.pending);
		this.pending.clear();
		this.table.insert(rows);
	}

	@Override
	public void stop() {
		ModuleSupport.shutdown(this.idleTimer);
		synchronized (this) {
			if (!this.pending.isEmpty()) {
				flushLogging();
			}
			this.table.close();
		}
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(JdbcDatabase.OPTIONS);
		options.addAll(List.of(TABLE_NAME, COLUMNS, INITIALIZE, INITIALIZE_DATABASE, BATCH_SIZE, IDLE_TIMEOUT));
		return List.copyOf(options);
	}

	/** Declares and creates the {@code jdbc} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, JdbcSink::new, (options, access) -> JdbcDatabase.check("jdbc", options, access));
		}
	}
}
