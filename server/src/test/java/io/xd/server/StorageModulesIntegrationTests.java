package io.xd.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The storage modules in streams deployed on a real singlenode: file, counter and jdbc (on a real PostgreSQL). */
class StorageModulesIntegrationTests {

	private static final String FAST_TIME = "time --fixedDelay=100 --timeUnit=MILLISECONDS";

	@TempDir
	Path data;

	@TempDir
	Path output;

	@Test
	void timeToFileWritesLinesAndTimeToCounterCountsOnPrometheus() {
		try (SingleNode node = new SingleNode(this.data, "--xd.modules.file.roots=" + this.output)) {
			assertThat(node.createStream("tofile", FAST_TIME + " | file --dir='" + this.output + "' --name=out", true)
				.status()).isEqualTo(201);
			assertThat(node.createStream("ticks", FAST_TIME + " | counter --name=ticks", true).status()).isEqualTo(201);

			Path file = this.output.resolve("out.out");
			await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(file) && Files.readAllLines(file).size() >= 3);
			assertThat(lines(file)).allSatisfy(line -> LocalDateTime.parse(line,
					DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")));

			await().atMost(Duration.ofSeconds(30))
				.until(() -> node.get("/actuator/prometheus").body().contains("xd_counter_total{name=\"ticks\"}"));

			assertThat(node.delete("/streams/deployments/tofile").status()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.status("tofile").equals("undeployed"));
		}
	}

	@Test
	void timeToJdbcInsertsRowsIntoPostgres() throws IOException, SQLException {
		try (EmbeddedPostgres postgres = EmbeddedPostgres.start();
				SingleNode node = new SingleNode(this.data,
						"--xd.datasources.orders.url=jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres",
						"--xd.datasources.orders.username=postgres", "--xd.datasources.orders.password=pg-s3cret")) {
			assertThat(node.createStream("tojdbc", FAST_TIME
					+ " | jdbc --dataSource=orders --tableName=t --columns=payload --initialize=true", true)
				.status()).isEqualTo(201);
			AdminApi.Response refused = node.createStream("withpassword", FAST_TIME + " | jdbc --url='jdbc:postgresql://localhost:"
					+ postgres.getPort() + "/postgres' --username=postgres --password=postgres --tableName=t", false);
			assertThat(refused.status()).isEqualTo(400);
			assertThat(refused.body()).contains("option 'password' is refused");

			await().atMost(Duration.ofSeconds(30)).until(() -> rows(postgres) >= 3);
			assertThat(node.delete("/streams/deployments/tojdbc").status()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.status("tojdbc").equals("undeployed"));
		}
	}

	@Test
	void aSinkThatCannotStartFailsItsModuleWithTheReason() throws IOException {
		Path notADirectory = Files.writeString(this.output.resolve("plain"), "x");
		try (SingleNode node = new SingleNode(this.data, "--xd.modules.file.roots=" + this.output,
				"--xd.datasources.down.url=jdbc:postgresql://127.0.0.1:1/none", "--xd.datasources.down.password=pw")) {
			node.createStream("badfile", "time | file --dir='" + notADirectory.resolve("sub") + "' --name=out", true);
			node.createStream("baddb", "time | jdbc --dataSource=down --tableName=t", true);

			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(error(node, "badfile.sink.file.1")).contains("cannot create the directory"));
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(error(node, "baddb.sink.jdbc.1")).contains("The jdbc sink cannot use"));
		}
	}

	private static String error(SingleNode node, String moduleId) {
		var modules = node.get("/runtime/modules?moduleId=" + moduleId).json().get("content");
		return (modules.isEmpty() || modules.get(0).get("error") == null) ? "" : modules.get(0).get("error").asString();
	}

	private static List<String> lines(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int rows(EmbeddedPostgres postgres) {
		try (Connection connection = postgres.getPostgresDatabase().getConnection();
				ResultSet result = connection.createStatement()
					.executeQuery("SELECT count(*) FROM t WHERE payload LIKE '20%'")) {
			result.next();
			return result.getInt(1);
		}
		catch (SQLException ex) {
			// the table appears when the sink starts
			return 0;
		}
	}
}
