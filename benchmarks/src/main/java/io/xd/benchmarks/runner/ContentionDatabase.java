package io.xd.benchmarks.runner;

import java.io.IOException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** The contention suite's own connection to PostgreSQL: tables, and what reached them. */
final class ContentionDatabase {

	private final EmbeddedPostgres postgres;

	ContentionDatabase(EmbeddedPostgres postgres) {
		this.postgres = postgres;
	}

	private static String url(int port) {
		return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
	}

	/** The data source the streams name ({@code jdbc --dataSource}), declared to the server at its start. */
	static final String DATA_SOURCE = "contention";

	/** The server arguments that declare {@link #DATA_SOURCE} for the database on {@code port} (on 127.0.0.1). */
	static List<String> dataSource(int port) {
		String prefix = "--xd.datasources." + DATA_SOURCE + ".";
		return List.of(prefix + "url=" + url(port), prefix + "username=postgres", prefix + "password=postgres");
	}

	/** The durability settings in force, for the notes. */
	String settings() throws IOException {
		try (Connection connection = connect(); Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT 'fsync ' || current_setting('fsync') || ', "
						+ "synchronous_commit ' || current_setting('synchronous_commit') || ', ' || version()")) {
			result.next();
			return result.getString(1);
		}
		catch (SQLException ex) {
			throw new IOException("Could not read PostgreSQL's settings: " + ex.getMessage(), ex);
		}
	}

	void createTable(String table) throws IOException {
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + table + " (payload VARCHAR(40), inserted TIMESTAMPTZ NOT NULL "
					+ "DEFAULT clock_timestamp())");
		}
		catch (SQLException ex) {
			throw new IOException("Could not create table " + table + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Waits until the table holds {@code expected} rows, or its count has not grown for 10 s, then reads what
	 * reached it.
	 */
	DatabasePath awaitRows(String table, long expected) throws IOException, InterruptedException {
		try (Connection connection = connect()) {
			long rows = -1;
			long lastGrowth = System.nanoTime();
			while (true) {
				long count = count(connection, table);
				if (count != rows) {
					lastGrowth = System.nanoTime();
					rows = count;
				}
				if (rows >= expected || System.nanoTime() - lastGrowth > Duration.ofSeconds(10).toNanos()) {
					break;
				}
				Thread.sleep(100);
			}
			return read(connection, table, rows);
		}
		catch (SQLException ex) {
			throw new IOException("Could not read table " + table + ": " + ex.getMessage(), ex);
		}
	}

	private static long count(Connection connection, String table) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT count(*) FROM " + table)) {
			result.next();
			return result.getLong(1);
		}
	}

	/**
	 * The rate and latency percentiles of the rows: each row's send time (the sender's {@link System#nanoTime()},
	 * Linux's monotonic clock, the same in every process of this machine) mapped to wall-clock time with an offset
	 * read here, against its insert time.
	 */
	private static DatabasePath read(Connection connection, String table, long rows) throws SQLException {
		Map<String, Figure> latency = new LinkedHashMap<>();
		if (rows <= 0) {
			ContentionSuite.PERCENTILES.forEach(p -> latency.put(p, Figure.na("no row reached the database")));
			latency.put(ContentionSuite.STEADY_P99, Figure.na("no row reached the database"));
			return new DatabasePath(Math.max(rows, 0), 0, -1, -1, Figure.na("no row reached the database"),
					latency);
		}
		long offsetMicros = wallClockOffsetNanos() / 1000;
		// steady: the rows sent after the first second, as for the stream (see ContentionSuite.steadyP99)
		String sql = "SELECT percentile_disc(ARRAY[0.5, 0.99, 0.999]) WITHIN GROUP (ORDER BY inserted - sent), "
				+ "min(sent), max(inserted), count(DISTINCT seq), min(seq), max(seq), percentile_disc(0.99) "
				+ "WITHIN GROUP (ORDER BY inserted - sent) FILTER (WHERE sent >= first + 1000000) FROM (SELECT *, "
				+ "min(sent) OVER () AS first FROM (SELECT split_part(payload, ' ', 1)::bigint AS seq, "
				+ "split_part(payload, ' ', 2)::bigint / 1000 + ? AS sent, (extract(epoch FROM inserted) * 1000000)"
				+ "::bigint AS inserted FROM " + table + ") AS r) AS w";
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setLong(1, offsetMicros);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				Array quantiles = result.getArray(1);
				Object[] values = (Object[]) quantiles.getArray();
				for (int i = 0; i < ContentionSuite.PERCENTILES.size(); i++) {
					latency.put(ContentionSuite.PERCENTILES.get(i), Figure.of(((Number) values[i]).doubleValue()));
				}
				long steady = result.getLong(7);
				latency.put(ContentionSuite.STEADY_P99,
						result.wasNull() ? Figure.na("no row sent after the first second") : Figure.of(steady));
				long span = result.getLong(3) - result.getLong(2);
				Figure rate = (span > 0) ? Figure.of(rows * 1e6 / span)
						: Figure.na("no time between the first send and the last insert");
				return new DatabasePath(rows, result.getLong(4), result.getLong(5), result.getLong(6), rate,
						latency);
			}
		}
	}

	/**
	 * Wall-clock nanoseconds minus {@link System#nanoTime()}, from the closest of several readings (the one whose
	 * two monotonic readings around the wall clock lie nearest together).
	 */
	private static long wallClockOffsetNanos() {
		long best = 0;
		long narrowest = Long.MAX_VALUE;
		for (int i = 0; i < 20; i++) {
			long before = System.nanoTime();
			Instant now = Instant.now();
			long after = System.nanoTime();
			if (after - before < narrowest) {
				narrowest = after - before;
				best = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (before + (after - before) / 2);
			}
		}
		return best;
	}

	private Connection connect() throws SQLException {
		return this.postgres.getPostgresDatabase().getConnection();
	}
}
