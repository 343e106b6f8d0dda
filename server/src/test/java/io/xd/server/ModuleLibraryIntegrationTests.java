package io.xd.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The module library's pipelines, end to end through a singlenode, each stream created and deployed with the XD shell
 * as a user would: sources in, files and a PostgreSQL table out; and the shell's description of every module.
 */
class ModuleLibraryIntegrationTests {

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass("--xd.modules.jdbc.allowed-urls=jdbc:postgresql://localhost:*/postgres");

	/** Where a file sink given the relative {@code --dir=<name>} writes: under the default file root. */
	private static Path underDefaultRoot(String name) {
		return node.dataDirectory().resolve("files").resolve(name);
	}

	@Test
	void postedTextIsTransformedFilteredAndWrittenToAFile() throws Exception {
		int port = freePort();
		Path dir = underDefaultRoot("http");
		deployWithShell("upper", "http --port=" + port + " | transform --expression=payload.toUpperCase() | filter "
				+ "--expression='payload.length() > 3' | file --dir=" + dir.getFileName() + " --name=out");

		for (String body : List.of("abcd", "xy")) {
			post(port, "text/plain", body);
		}

		Path file = dir.resolve("out.out");
		await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && !Files.readString(file).isEmpty());
		assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly("ABCD");
	}

	@Test
	void aTcpSourceWritesOneLinePerCrlfFrame() throws Exception {
		int port = freePort();
		Path dir = underDefaultRoot("tcp");
		deployWithShell("frames", "tcp --port=" + port + " | file --dir=" + dir.getFileName() + " --name=out");

		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
				OutputStream stream = socket.getOutputStream()) {
			stream.write("first\r\nsecond\r\nthird\r\n".getBytes(StandardCharsets.UTF_8));
		}

		Path file = dir.resolve("out.out");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8).size() >= 3);
		assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly("first", "second", "third");
	}

	@Test
	void aSyslogDatagramBecomesOneParsedJsonObjectPerLine() throws Exception {
		int port;
		try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
			port = probe.getLocalPort();
		}
		Path dir = underDefaultRoot("syslog");
		deployWithShell("syslog", "syslog-udp --port=" + port + " | file --dir=" + dir.getFileName() + " --name=out");

		try (DatagramSocket client = new DatagramSocket()) {
			for (String line : List.of("<34>1 2026-11-23T10:00:00.000Z host1 app1 42 ID7 - first message",
					"<13>Nov 23 10:00:01 host2 app2: second message")) {
				byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
				client.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), port));
			}
		}

		Path file = dir.resolve("out.out");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8).size() >= 2);
		List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
		assertThat(lines).hasSize(2);
		JsonMapper json = JsonMapper.builder().build();
		JsonNode first = json.readTree(lines.get(0));
		assertThat(first.get("host").asString()).isEqualTo("host1");
		assertThat(first.get("app").asString()).isEqualTo("app1");
		assertThat(first.get("message").asString()).isEqualTo("first message");
		assertThat(first.get("severity").asInt()).isEqualTo(2);
		JsonNode second = json.readTree(lines.get(1));
		assertThat(second.get("host").asString()).isEqualTo("host2");
		assertThat(second.get("message").asString()).isEqualTo("second message");
	}

	@Test
	void eachPostBecomesOneRowInAPostgresTable() throws Exception {
		try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
			int port = freePort();
			// a literal URL the operator allows (xd.modules.jdbc.allowed-urls), and a user that is no secret
			String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
			deployWithShell("rows", "http --port=" + port + " | jdbc --url='" + url
					+ "' --username=postgres --tableName=t --columns=payload --initialize=true");
			for (String body : List.of("one", "two", "three")) {
				post(port, "text/plain", body);
			}

			await().atMost(Duration.ofSeconds(20)).until(() -> payloads(postgres).size() >= 3);
			assertThat(payloads(postgres)).containsExactly("one", "two", "three");
			assertThat(ShellRun.withInput(node, "stream destroy rows\n").exitStatus()).isZero();
		}
	}

	@Test
	void theTutorialStreamsRunAndATapSeesWhatTheTransformSends() throws Exception {
		Path dir = underDefaultRoot("tutorial");
		deployWithShell("tick", "time --fixedDelay=100 --timeUnit=MILLISECONDS --format=HH:mm:ss"
				+ " | transform --expression=payload.concat('z').toUpperCase() | log");
		deployWithShell("tickcopy", "tap:stream:tick.transform > file --dir=" + dir.getFileName() + " --name=out");
		deployWithShell("posted", "http --port=" + freePort() + " | log");

		Path file = dir.resolve("out.out");
		await().atMost(Duration.ofSeconds(20))
			.until(() -> Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8).size() >= 2);
		assertThat(Files.readAllLines(file, StandardCharsets.UTF_8))
			.allSatisfy(line -> assertThat(line).matches("\\d\\d:\\d\\d:\\d\\dZ"));
		ShellRun runtime = ShellRun.withInput(node, "runtime modules\n");
		assertThat(runtime.output()).contains("tick.source.time.1", "tick.processor.transform.1", "tick.sink.log.1",
				"posted.source.http.1", "posted.sink.log.1");
	}

	@Test
	void theShellListsEveryModuleOfTheLibraryAndDescribesEachOptionWithItsTypeAndDefault() {
		ShellRun list = ShellRun.withInput(node, "module list\n");
		assertThat(list.exitStatus()).as(list.output()).isZero();
		assertThat(list.output()).contains("http", "tcp", "syslog-udp", "syslog-tcp", "file", "kafka", "time",
				"transform", "filter", "splitter", "header-enricher", "aggregator", "json-path", "http-client", "log",
				"jdbc", "counter", "load-generator", "throughput");

		JsonNode modules = node.get("/modules?size=1000").json().get("content");
		StringBuilder commands = new StringBuilder();
		modules.forEach(module -> commands.append("module info ")
			.append(module.get("type").asString())
			.append(':')
			.append(module.get("name").asString())
			.append('\n'));
		ShellRun info = ShellRun.withInput(node, commands.toString());
		assertThat(info.exitStatus()).as(info.output()).isZero();
		List<String> lines = List.of(info.output().split("\\R"));
		for (JsonNode module : modules) {
			String type = module.get("type").asString();
			String name = module.get("name").asString();
			assertThat(info.output()).contains("Information about " + type + " module '" + name + "':");
			for (JsonNode option : node.get("/modules/" + type + "/" + name).json().get("options")) {
				String optionName = option.get("name").asString();
				String optionType = option.get("type").asString();
				JsonNode defaultValue = option.get("defaultValue");
				assertThat(option.get("description").asString()).as("%s:%s --%s", type, name, optionName)
					.isNotBlank();
				// a row: the option, its description, its default (when it has one) and its type, in that order
				assertThat(lines).as("%s:%s --%s", type, name, optionName)
					.anySatisfy(line -> assertThat(line).startsWith(optionName + "  ")
						.endsWith("  " + optionType)
						.contains((defaultValue == null || defaultValue.isNull()) ? ""
								: "  " + defaultValue.asString() + "  "));
			}
		}
	}

	private static void deployWithShell(String name, String definition) {
		ShellRun shell = ShellRun.withInput(node,
				"stream create " + name + " --definition \"" + definition + "\" --deploy\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).contains("Created and deployed new stream '" + name + "'");
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status(name).equals("deployed"));
	}

	private static void post(int port, String contentType, String body) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
				.header("Content-Type", contentType)
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("POST %s: %s", body, response.body()).isEqualTo(202);
	}

	private static List<String> payloads(EmbeddedPostgres postgres) throws SQLException {
		try (Connection connection = postgres.getPostgresDatabase().getConnection();
				ResultSet rows = connection.createStatement().executeQuery("SELECT payload FROM t")) {
			List<String> payloads = new ArrayList<>();
			while (rows.next()) {
				payloads.add(rows.getString(1));
			}
			return payloads;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}
}
