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
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The module library's pipelines of the issue, end to end through a singlenode: sources in, files out. */
class ModuleLibraryIntegrationTests {

	@TempDir
	static Path data;

	@TempDir
	static Path out;

	private static SingleNode node;

	@BeforeAll
	static void start() {
		node = new SingleNode(data);
	}

	@AfterAll
	static void stop() {
		node.close();
	}

	@Test
	void postedTextIsTransformedFilteredAndWrittenToAFile() throws Exception {
		int port = freePort();
		Path dir = out.resolve("http");
		node.createStream("upper", "http --port=" + port + " | transform --expression=payload.toUpperCase() | filter "
				+ "--expression='payload.length() > 3' | file --dir=" + dir + " --name=out", true);
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status("upper").equals("deployed"));

		HttpClient client = HttpClient.newHttpClient();
		for (String body : List.of("abcd", "xy")) {
			HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
					+ "/")).header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as("POST %s", body).isEqualTo(202);
		}

		Path file = dir.resolve("out.out");
		await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && !Files.readString(file).isEmpty());
		assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly("ABCD");
	}

	@Test
	void aTcpSourceWritesOneLinePerCrlfFrame() throws Exception {
		int port = freePort();
		Path dir = out.resolve("tcp");
		node.createStream("frames", "tcp --port=" + port + " | file --dir=" + dir + " --name=out", true);
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status("frames").equals("deployed"));

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
		Path dir = out.resolve("syslog");
		node.createStream("syslog", "syslog-udp --port=" + port + " | file --dir=" + dir + " --name=out", true);
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status("syslog").equals("deployed"));

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

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}
}
