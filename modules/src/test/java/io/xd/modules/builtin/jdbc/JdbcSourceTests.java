package io.xd.modules.builtin.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The jdbc source against an H2 database in a temporary directory (PostgreSQL: JdbcSourcePostgresIntegrationTests). */
class JdbcSourceTests {

	@TempDir
	Path dir;

	private JdbcSource source;

	private String url() {
		return "jdbc:h2:file:" + this.dir.resolve("db");
	}

	private Connection connect() throws SQLException {
		return DriverManager.getConnection(url(), "sa", "");
	}

	private HostAccess access() {
		return ModuleFixtures.rootedAt(this.dir)
			.withDataSources(Map.of("test", new HostAccess.DataSource(url(), "sa", "")))
			.withAllowedJdbcUrls(List.of("jdbc:h2:mem:*"));
	}

	@BeforeEach
	void createTable() throws SQLException {
		try (Connection connection = connect()) {
			connection.createStatement()
				.execute("CREATE TABLE orders (id INT PRIMARY KEY, name VARCHAR(20), at TIMESTAMP, "
						+ "seen BOOLEAN DEFAULT FALSE)");
		}
	}

	@AfterEach
	void stop() {
		if (this.source != null) {
			this.source.stop();
		}
	}

	private void insert(int from, int to) throws SQLException {
		try (Connection connection = connect()) {
			for (int id = from; id <= to; id++) {
				connection.createStatement()
					.execute("INSERT INTO orders (id, name, at) VALUES (" + id + ", 'n" + id
							+ "', TIMESTAMP '2026-11-23 10:00:00')");
			}
		}
	}

	private ModuleFixtures.Collecting start(MessageChannel channel, String... options) {
		Map<String, String> all = new HashMap<>(Map.of("dataSource", "test", "fixedDelay", "1"));
		for (int i = 0; i < options.length; i += 2) {
			all.put(options[i], options[i + 1]);
		}
		this.source = ModuleFixtures.create(new JdbcSource.Provider(), all, access());
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		this.source.start((channel != null) ? channel : output);
		return output;
	}

	@Test
	void sendsEachRowAsAMapWhoseKeysIgnoreCaseAtTheFirstPoll() throws SQLException {
		insert(1, 2);
		ModuleFixtures.Collecting output = start(null, "query", "select id, name, at from orders order by id");

		await().atMost(Duration.ofSeconds(5)).until(() -> output.payloads().size() >= 2);
		@SuppressWarnings("unchecked")
		Map<String, Object> first = (Map<String, Object>) output.payloads().get(0);
		assertThat(first.get("name")).isEqualTo("n1");
		assertThat(first.get("NAME")).isEqualTo("n1");
		assertThat(first.get("id")).isEqualTo(1);
		assertThat(first.get("at")).isEqualTo("2026-11-23T10:00");
	}

	@Test
	void theUpdateMarksEachRowReadSoEveryRowIsSentOnce() throws SQLException {
		insert(1, 3);
		ModuleFixtures.Collecting output = start(null, "query", "select id, name from orders where seen = false",
				"update", "update orders set seen = true where id = :id");
		await().atMost(Duration.ofSeconds(5)).until(() -> output.payloads().size() >= 3);
		insert(4, 5);
		await().atMost(Duration.ofSeconds(5)).until(() -> output.payloads().size() >= 5);
		// two more polls: nothing new
		sleep(2100);

		assertThat(ids(output.payloads())).containsExactly(1, 2, 3, 4, 5);
		assertThat(JdbcRows.query(connect(), "SELECT COUNT(*) FROM orders WHERE seen = FALSE"))
			.containsExactly(List.of("0"));
	}

	@Test
	void readsAtMostMaxRowsPerPollAndSendsAListWithoutSplit() throws SQLException {
		insert(1, 5);
		ModuleFixtures.Collecting output = start(null, "query", "select id from orders where seen = false order by id",
				"update", "update orders set seen = true where id = :ID", "maxRowsPerPoll", "2", "split", "false");
		await().atMost(Duration.ofSeconds(8)).until(() -> output.payloads().size() >= 3);

		assertThat(output.payloads().stream().map(rows -> ids((List<?>) rows)).toList())
			.containsExactly(List.of(1, 2), List.of(3, 4), List.of(5));
	}

	@Test
	void aPollWhoseSendingFailsIsRolledBackAndReadAgain() throws SQLException {
		insert(1, 2);
		AtomicInteger sends = new AtomicInteger();
		ModuleFixtures.Collecting delivered = new ModuleFixtures.Collecting();
		MessageChannel failingOnce = (message, timeout) -> {
			if (sends.incrementAndGet() == 2) {
				throw new MessageDeliveryException(message, "downstream failed");
			}
			return delivered.send(message, timeout);
		};
		start(failingOnce, "query", "select id from orders where seen = false order by id", "update",
				"update orders set seen = true where id = :id");
		await().atMost(Duration.ofSeconds(5)).until(() -> delivered.payloads().size() >= 3);

		// at least once: row 1 went out before the failure, and again with row 2 after the rollback
		assertThat(ids(delivered.payloads())).containsExactly(1, 1, 2);
		assertThat(JdbcRows.query(connect(), "SELECT COUNT(*) FROM orders WHERE seen = FALSE"))
			.containsExactly(List.of("0"));
	}

	@Test
	void refusesWhatIsNotOneQueryAndOneUpdate() {
		for (String query : List.of("select 1; drop table orders", "delete from orders", "select * into t from orders",
				"select '\\'; drop table orders; --'", "select $$;$$", "select 1 /* unclosed")) {
			assertThatExceptionOfType(ModuleOptionException.class)
				.as(query)
				.isThrownBy(() -> start(null, "query", query))
				.withMessageContaining("option 'query'");
		}
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> start(null, "query", "select 1", "update", "update t set a = ?"))
			.withMessageContaining("option 'update'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> start(null, "query", "select 1", "update", "drop table orders"))
			.withMessageContaining("option 'update'");
		assertThatExceptionOfType(ModuleOptionException.class).isThrownBy(() -> start(null))
			.withMessageContaining("option 'query' is required");
	}

	@Test
	void reachesTheDatabaseAsTheSinkDoes() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> start(null, "query", "select 1", "password", "secret"))
			.withMessageContaining("option 'password' is refused");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new JdbcSource.Provider(),
					Map.of("query", "select 1", "url", "jdbc:postgresql://elsewhere/db"), access()))
			.withMessageContaining("xd.modules.jdbc.allowed-urls");
	}

	@Test
	void statementsKeepQuotedColonsAndCastsAndTurnPlaceholdersIntoParameters() {
		JdbcStatements.Prepared prepared = JdbcStatements.prepareUpdate(
				"update t set note = ':not' , at = now()::text -- :comment\nwhere id = :id and k = :k_2;");

		assertThat(prepared.sql()).isEqualTo("update t set note = ':not' , at = now()::text -- :comment\n"
				+ "where id = ? and k = ?");
		assertThat(prepared.parameters()).containsExactly("id", "k_2");
		JdbcStatements.checkQuery("WITH x AS (select 1 a) SELECT a FROM x -- ; trailing comment");
	}

	private static List<Object> ids(List<?> rows) {
		return rows.stream().<Object>map(row -> ((Map<?, ?>) row).get("id")).toList();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
