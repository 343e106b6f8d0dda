package io.xd.modules.builtin.jdbc;

import java.sql.Array;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;
import org.springframework.util.LinkedCaseInsensitiveMap;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code jdbc} source: runs {@code query} every {@code fixedDelay} seconds (the first time at start) and sends the
 * rows it reads, at most {@code maxRowsPerPoll} a poll, as maps from column label to value (a row per message, or the
 * list of a poll's rows with {@code split} false). The maps look up their keys ignoring case ({@code payload.name}
 * finds H2's {@code NAME}), and hold JSON-friendly values: numbers, booleans, strings, dates and times as ISO-8601
 * text, SQL arrays as lists, byte arrays as they are.
 * <p>
 * {@code update} runs once per row read, with its {@code :column} placeholders bound from the row, in the same
 * transaction as the read; the transaction commits after the poll's messages were sent, so a row is marked once, and
 * a poll whose sending or update fails is rolled back: its rows are read again next poll (at least once). Without
 * {@code update} every poll reads the same rows again, as in Spring XD.
 * <p>
 * The database is named as the {@code jdbc} sink names it ({@link JdbcDatabase}). The query is one {@code SELECT}
 * and the update one {@code UPDATE}, {@code DELETE} or {@code INSERT} ({@link JdbcStatements}); both run as the data
 * source's user, whose privileges are the operator's to restrict. A poll that fails (the database is down, a column
 * is missing) is logged and retried at the next poll.
 */
public final class JdbcSource implements Source {

	static final ModuleOption<String> QUERY = ModuleOption.ofString("query")
		.withRule(JdbcStatements::isQuery, "be one SELECT statement (no ';'-separated statements, no SELECT ... INTO, "
				+ "no dollar quotes or backslashes in literals)")
		.withDescription("the SELECT run at each poll; required");

	static final ModuleOption<String> UPDATE = ModuleOption.ofString("update")
		.withRule(JdbcStatements::isUpdate, "be one UPDATE, DELETE or INSERT statement whose parameters are :column "
				+ "names of the query")
		.withDescription("SQL run for each row read, in the same transaction, with :column bound from the row "
				+ "(update orders set seen=true where id = :id)");

	static final ModuleOption<Boolean> SPLIT = ModuleOption.ofBoolean("split")
		.withDefault(true)
		.withDescription("one message per row; false sends one message with the list of a poll's rows");

	static final ModuleOption<Integer> FIXED_DELAY = ModuleOption.ofInt("fixedDelay")
		.withDefault(5)
		.withMin(1)
		.withDescription("the seconds between the end of a poll and the start of the next");

	static final ModuleOption<Integer> MAX_ROWS_PER_POLL = ModuleOption.ofInt("maxRowsPerPoll")
		.withDefault(100)
		.withMin(1)
		.withMax(100000)
		.withDescription("the most rows one poll reads; the others wait for the next poll");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "jdbc",
			"Sends the rows a query reads from a database table", options());

	private static final String MISSING_QUERY = "option 'query' is required: the SELECT the source runs at each poll";

	private static final Logger logger = LoggerFactory.getLogger(JdbcSource.class);

	private final ModuleContext context;

	private final JdbcDatabase database;

	private final String query;

	private final JdbcStatements.Prepared update;

	private final boolean split;

	private final int fixedDelay;

	private final int maxRows;

	private ScheduledExecutorService poller;

	private Connection connection;

	private volatile boolean running;

	JdbcSource(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		this.database = JdbcDatabase.of(context);
		this.query = options.get(QUERY);
		if (this.query == null) {
			throw new ModuleOptionException("jdbc", List.of(MISSING_QUERY));
		}
		this.update = (options.get(UPDATE) != null) ? JdbcStatements.prepareUpdate(options.get(UPDATE)) : null;
		this.split = options.get(SPLIT);
		this.fixedDelay = options.get(FIXED_DELAY);
		this.maxRows = options.get(MAX_ROWS_PER_POLL);
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(List.of(QUERY, UPDATE, SPLIT, FIXED_DELAY, MAX_ROWS_PER_POLL));
		options.addAll(JdbcDatabase.OPTIONS);
		return List.copyOf(options);
	}

	@Override
	public void start(MessageChannel output) {
		this.running = true;
		this.poller = ModuleSupport.scheduler(this.context, "jdbc-poll");
		this.poller.scheduleWithFixedDelay(() -> pollLogging(output), 0, this.fixedDelay, TimeUnit.SECONDS);
	}

	private void pollLogging(MessageChannel output) {
		try {
			int rows = poll(output);
			logger.debug("Stream '{}': the jdbc source read {} rows", this.context.streamName(), rows);
		}
		catch (SQLException | RuntimeException ex) {
			if (this.running) {
				logger.error("Stream '{}': a poll of the jdbc source on {} failed, and is rolled back: {}",
						this.context.streamName(), this.database, ex.getMessage(), ex);
			}
			closeConnection();
		}
	}

	/** Reads, updates, sends and commits one poll; returns the rows read. */
	synchronized int poll(MessageChannel output) throws SQLException {
		if (this.connection == null) {
			this.connection = this.database.connect();
			this.connection.setAutoCommit(false);
		}
		try {
			List<Map<String, Object>> rows = read();
			if (!rows.isEmpty()) {
				if (this.update != null) {
					update(rows);
				}
				if (this.split) {
					for (Map<String, Object> row : rows) {
						output.send(ModuleMessages.of(row));
					}
				}
				else {
					output.send(ModuleMessages.of(rows));
				}
			}
			this.connection.commit();
			return rows.size();
		}
		catch (SQLException | RuntimeException ex) {
			try {
				this.connection.rollback();
			}
			catch (SQLException rollback) {
				ex.addSuppressed(rollback);
			}
			throw ex;
		}
	}

	private List<Map<String, Object>> read() throws SQLException {
		List<Map<String, Object>> rows = new ArrayList<>();
		try (PreparedStatement statement = this.connection.prepareStatement(this.query)) {
			statement.setMaxRows(this.maxRows);
			statement.setFetchSize(Math.min(this.maxRows, 1000));
			try (ResultSet results = statement.executeQuery()) {
				ResultSetMetaData metaData = results.getMetaData();
				int columns = metaData.getColumnCount();
				while (results.next() && rows.size() < this.maxRows) {
					Map<String, Object> row = new LinkedCaseInsensitiveMap<>(columns);
					for (int column = 1; column <= columns; column++) {
						row.put(metaData.getColumnLabel(column), value(results.getObject(column)));
					}
					rows.add(row);
				}
			}
		}
		return rows;
	}

	private void update(List<Map<String, Object>> rows) throws SQLException {
		try (PreparedStatement statement = this.connection.prepareStatement(this.update.sql())) {
			for (Map<String, Object> row : rows) {
				List<String> parameters = this.update.parameters();
				for (int i = 0; i < parameters.size(); i++) {
					String name = parameters.get(i);
					if (!row.containsKey(name)) {
						throw new SQLException("The update's :" + name + " is not a column of the query's rows "
								+ row.keySet());
					}
					statement.setObject(i + 1, row.get(name));
				}
				statement.addBatch();
			}
			statement.executeBatch();
		}
	}

	/** A JSON-friendly value of a column. */
	static Object value(Object value) throws SQLException {
		if (value instanceof Timestamp timestamp) {
			return timestamp.toLocalDateTime().toString();
		}
		if (value instanceof java.sql.Date date) {
			return date.toLocalDate().toString();
		}
		if (value instanceof Time time) {
			return time.toLocalTime().toString();
		}
		if (value instanceof java.time.temporal.TemporalAccessor temporal) {
			return temporal.toString();
		}
		if (value instanceof Clob clob) {
			return clob.getSubString(1, (int) Math.min(clob.length(), Integer.MAX_VALUE));
		}
		if (value instanceof Array array) {
			List<Object> elements = new ArrayList<>();
			for (Object element : (Object[]) array.getArray()) {
				elements.add(value(element));
			}
			return elements;
		}
		if (value == null || value instanceof Number || value instanceof Boolean || value instanceof String
				|| value instanceof byte[]) {
			return value;
		}
		if (value instanceof Object[] elements) {
			return Arrays.asList(elements);
		}
		return value.toString();
	}

	@Override
	public void stop() {
		this.running = false;
		ModuleSupport.shutdown(this.poller);
		synchronized (this) {
			closeConnection();
		}
	}

	private synchronized void closeConnection() {
		if (this.connection != null) {
			try {
				this.connection.close();
			}
			catch (SQLException ex) {
				// dropped either way
			}
			this.connection = null;
		}
	}

	/** Declares and creates the {@code jdbc} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, JdbcSource::new);
		}

		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			if (options.get(QUERY) == null) {
				throw new ModuleOptionException("jdbc", List.of(MISSING_QUERY));
			}
			JdbcDatabase.check("jdbc", options, access);
		}
	}
}
