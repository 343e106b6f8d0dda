package io.xd.server;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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

import com.sun.net.httpserver.HttpServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The module library's pipelines, end to end through a singlenode, each stream created and deployed with the XD shell
 * as a user would: sources in, files, a counter and a PostgreSQL table out; and the shell's description of every
 * module. A subclass supplies the singlenode, started with {@link #nodeArguments} and the arguments of its transport,
 * so that every pipeline runs on each bus.
 */
abstract class AbstractModuleLibraryIntegrationTests {

	private static EmbeddedPostgres postgres;

	/** The singlenode of the class, one per subclass, started before its first test. */
	abstract SingleNode node();

	/**
	 * A stream (or counter) name for {@code name} on this transport: test classes that share a Kafka broker or the
	 * JVM's meters keep apart by name.
	 */
	abstract String name(String name);

	/** The operator settings every pipeline here needs, then {@code transportArguments}. */
	static String[] nodeArguments(String... transportArguments) {
		List<String> args = new ArrayList<>(List.of(
				"--xd.modules.jdbc.allowed-urls=jdbc:postgresql://localhost:*/postgres",
				"--xd.modules.http-client.allowed-hosts=127.0.0.1"));
		args.addAll(List.of(transportArguments));
		return args.toArray(String[]::new);
	}

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	/** Where a file sink given the relative {@code --dir=<name>} writes: under the default file root. */
	Path underDefaultRoot(String name) {
		return node().dataDirectory().resolve("files").resolve(name);
	}

	@Test
	void postedTextIsTransformedFilteredAndWrittenToAFile() throws Exception {
		assertThat(postThrough("upper", "transform --expression=payload.toUpperCase() | filter "
				+ "--expression='payload.length() > 3'", "text/plain", List.of("abcd", "xy"), 1)).containsExactly("ABCD");
	}

	@Test
	void aTcpSourceWritesOneLinePerCrlfFrame() throws Exception {
		int port = freePort();
		Path dir = underDefaultRoot("tcp");
		deployWithShell(name("frames"), "tcp --port=" + port + " | file --dir=" + dir.getFileName() + " --name=out");

		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
				OutputStream stream = socket.getOutputStream()) {
			stream.write("first\r\nsecond\r\nthird\r\n".getBytes(StandardCharsets.UTF_8));
		}

		assertThat(awaitLines(dir.resolve("out.out"), 3)).containsExactly("first", "second", "third");
	}

	@Test
	void aSyslogDatagramBecomesOneParsedJsonObjectPerLine() throws Exception {
		int port;
		try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
			port = probe.getLocalPort();
		}
		Path dir = underDefaultRoot("syslog");
		deployWithShell(name("syslog"), "syslog-udp --port=" + port + " | file --dir=" + dir.getFileName()
				+ " --name=out");

		try (DatagramSocket client = new DatagramSocket()) {
			for (String line : List.of("<34>1 2026-11-23T10:00:00.000Z host1 app1 42 ID7 - first message",
					"<13>Nov 23 10:00:01 host2 app2: second message")) {
				byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
				client.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), port));
			}
		}

		List<String> lines = awaitLines(dir.resolve("out.out"), 2);
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
		int port = freePort();
		String stream = name("rows");
		deployWithShell(stream, "http --port=" + port + " | " + jdbcSink(stream));
		for (String body : List.of("one", "two", "three")) {
			post(port, "text/plain", body);
		}

		assertThat(awaitRows(stream, 3)).containsExactly("one", "two", "three");
		assertThat(ShellRun.withInput(node(), "stream destroy " + stream + "\n").exitStatus()).isZero();
	}

	@Test
	void theTutorialStreamsRunAndATapSeesWhatTheTransformSends() throws Exception {
		Path dir = underDefaultRoot("tutorial");
		String tick = name("tick");
		String posted = name("posted");
		deployWithShell(tick, "time --fixedDelay=100 --timeUnit=MILLISECONDS --format=HH:mm:ss"
				+ " | transform --expression=payload.concat('z').toUpperCase() | log");
		deployWithShell(name("tickcopy"), "tap:stream:" + tick + ".transform > file --dir=" + dir.getFileName()
				+ " --name=out");
		deployWithShell(posted, "http --port=" + freePort() + " | log");

		assertThat(awaitLines(dir.resolve("out.out"), 2))
			.allSatisfy(line -> assertThat(line).matches("\\d\\d:\\d\\d:\\d\\dZ"));
		ShellRun runtime = ShellRun.withInput(node(), "runtime modules\n");
		assertThat(runtime.output()).contains(tick + ".source.time.1", tick + ".processor.transform.1",
				tick + ".sink.log.1", posted + ".source.http.1", posted + ".sink.log.1");
	}

	@Test
	void aSplitterSendsOneMessagePerDelimitedPiece() throws Exception {
		assertThat(postThrough("pieces", "splitter --delimiters=',;'", "text/plain", List.of("a,b;;c"), 3))
			.containsExactly("a", "b", "c");
	}

	@Test
	void anAggregatorSendsEachGroupOfCountPayloadsAsOneList() throws Exception {
		assertThat(postThrough("groups", "aggregator --count=3 --timeout=0 | transform "
				+ "--expression='payload.size() + \":\" + payload.get(0) + payload.get(2)'", "text/plain",
				List.of("a", "b", "c", "d", "e", "f"), 2)).containsExactly("3:ac", "3:df");
	}

	@Test
	void headersAHeaderEnricherSetsReachTheNextModule() throws Exception {
		// chars + 1 is 4 only when the header is still a number
		assertThat(postThrough("enriched",
				"header-enricher --headers='{\"upper\":\"payload.toUpperCase()\",\"chars\":\"payload.length()\"}'"
						+ " | transform --expression='headers.upper + \":\" + (headers.chars + 1)'",
				"text/plain", List.of("abc"), 1)).containsExactly("ABC:4");
	}

	@Test
	void jsonPathSendsOnTheValueAtItsPathKeepingNumbersNumbers() throws Exception {
		assertThat(postThrough("amounts", "json-path --expression=$.order.amount | transform --expression='payload * 2'",
				"application/json", List.of("{\"order\":{\"id\":7,\"amount\":21}}"), 1)).containsExactly("42");
	}

	@Test
	void aCounterCountsEachMessageItReceives() throws Exception {
		int port = freePort();
		String counter = name("clicks");
		deployWithShell(counter, "http --port=" + port + " | counter --name=" + counter);

		for (int i = 0; i < 3; i++) {
			post(port, "text/plain", "click" + i);
		}

		await().atMost(Duration.ofSeconds(20)).until(() -> count(counter) >= 3);
		assertThat(count(counter)).isEqualTo(3);
	}

	@Test
	void aFieldValueCounterCountsAFieldOfPostedJsonAsTheShellShows() throws Exception {
		int port = freePort();
		String stream = name("devices");
		deployWithShell(stream, "http --port=" + port + " | field-value-counter --fieldName=device");

		for (String device : List.of("phone", "tablet", "phone")) {
			post(port, "application/json", "{\"device\":\"" + device + "\"}");
		}

		await().atMost(Duration.ofSeconds(20)).until(() -> node().get("/metrics/field-value-counters/" + stream)
			.body()
			.contains("\"counts\":{\"phone\":2.0,\"tablet\":1.0}"));
		ShellRun display = ShellRun.withInput(node(), "field-value-counter display " + stream + "\n");
		assertThat(display.output()).contains("FieldValueCounter=" + stream)
			.containsPattern("phone\\s+2\\n")
			.containsPattern("tablet\\s+1\\n");
	}

	@Test
	void anHttpClientSendsEachPayloadToAnAllowedHostAndPassesTheResponseOn() throws Exception {
		HttpServer target = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
		target.createContext("/upper", exchange -> {
			byte[] body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).toUpperCase()
				.getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		target.start();
		try {
			assertThat(postThrough("lookup", "http-client --url=http://127.0.0.1:" + target.getAddress().getPort()
					+ "/upper | transform --expression='headers.http_statusCode + \" \" + payload'", "text/plain",
					List.of("hello"), 1)).containsExactly("200 HELLO");
		}
		finally {
			target.stop(0);
		}
	}

	@Test
	void theShellListsEveryModuleOfTheLibraryAndDescribesEachOptionWithItsTypeAndDefault() {
		ShellRun list = ShellRun.withInput(node(), "module list\n");
		assertThat(list.exitStatus()).as(list.output()).isZero();
		assertThat(list.output()).contains("http", "tcp", "syslog-udp", "syslog-tcp", "file", "kafka", "time",
				"transform", "filter", "splitter", "header-enricher", "aggregator", "json-path", "http-client", "log",
				"jdbc", "counter", "load-generator", "throughput");

		JsonNode modules = node().get("/modules?size=1000").json().get("content");
		StringBuilder commands = new StringBuilder();
		modules.forEach(module -> commands.append("module info ")
			.append(module.get("type").asString())
			.append(':')
			.append(module.get("name").asString())
			.append('\n'));
		ShellRun info = ShellRun.withInput(node(), commands.toString());
		assertThat(info.exitStatus()).as(info.output()).isZero();
		List<String> lines = List.of(info.output().split("\\R"));
		for (JsonNode module : modules) {
			String type = module.get("type").asString();
			String name = module.get("name").asString();
			assertThat(info.output()).contains("Information about " + type + " module '" + name + "':");
			for (JsonNode option : node().get("/modules/" + type + "/" + name).json().get("options")) {
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

	/** Creates and deploys a stream with {@code stream create ... --deploy}, and waits until it is deployed. */
	void deployWithShell(String name, String definition) {
		ShellRun shell = ShellRun.withInput(node(), "stream create " + name + " --definition \""
				+ definition.replace("\"", "\\\"") + "\" --deploy\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).contains("Created and deployed new stream '" + name + "'");
		await().atMost(Duration.ofSeconds(30)).until(() -> node().status(name).equals("deployed"));
	}

	/**
	 * Deploys {@code http | <processors> | file} as the stream {@code name(stream)}, posts {@code bodies} to it one
	 * by one as {@code contentType}, and returns the lines of the file once it has {@code lines} of them.
	 */
	List<String> postThrough(String stream, String processors, String contentType, List<String> bodies, int lines)
			throws IOException, InterruptedException {
		int port = freePort();
		Path dir = underDefaultRoot(stream);
		deployWithShell(name(stream), "http --port=" + port + " | " + processors + " | file --dir=" + dir.getFileName()
				+ " --name=out");
		for (String body : bodies) {
			post(port, contentType, body);
		}
		return awaitLines(dir.resolve("out.out"), lines);
	}

	/** A jdbc sink into the PostgreSQL table {@code table}, created by the sink, with one column: the payload. */
	static String jdbcSink(String table) {
		// a literal URL the operator allows (xd.modules.jdbc.allowed-urls), and a user that is no secret
		return "jdbc --url='jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres' --username=postgres"
				+ " --tableName=" + table + " --columns=payload --initialize=true";
	}

	/** The payload column of {@code table} once it has at least {@code count} rows (within 20 seconds). */
	static List<String> awaitRows(String table, int count) {
		await().atMost(Duration.ofSeconds(20)).until(() -> payloads(table).size() >= count);
		return payloads(table);
	}

	private static List<String> payloads(String table) {
		try (Connection connection = postgres.getPostgresDatabase().getConnection();
				ResultSet rows = connection.createStatement().executeQuery("SELECT payload FROM " + table)) {
			List<String> payloads = new ArrayList<>();
			while (rows.next()) {
				payloads.add(rows.getString(1));
			}
			return payloads;
		}
		catch (SQLException ex) {
			// the table appears when the sink starts
			return List.of();
		}
	}

	/** The lines of {@code file} once it has at least {@code count} (within 20 seconds). */
	static List<String> awaitLines(Path file, int count) throws IOException {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8).size() >= count);
		return Files.readAllLines(file, StandardCharsets.UTF_8);
	}

	private double count(String counter) {
		AdminApi.Response meter = node().get("/actuator/metrics/xd.counter?tag=name:" + counter);
		return (meter.status() != 200) ? 0 : meter.json().get("measurements").get(0).get("value").asDouble();
	}

	static void post(int port, String contentType, String body) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
				.header("Content-Type", contentType)
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("POST %s: %s", body, response.body()).isEqualTo(202);
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}
}
