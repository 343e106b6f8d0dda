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
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class NetworkSourcesIntegrationTests {

	@TempDir
	Path data;

	@Test
	void deploysTheNetworkSourcesAndTheHttpSourceAcceptsAPost() throws Exception {
		int httpPort = freePort();
		int tcpPort = freePort();
		int syslogPort = freeUdpPort();
		try (SingleNode node = new SingleNode(this.data)) {
			node.createStream("ingest", "http --port=" + httpPort + " | log", true);
			node.createStream("lines", "tcp --port=" + tcpPort + " --decoder=LF | log", true);
			node.createStream("logs", "syslog-udp --port=" + syslogPort + " | log", true);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> node.status("ingest").equals("deployed") && node.status("lines").equals("deployed")
						&& node.status("logs").equals("deployed"));

			HttpResponse<String> posted = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/"))
					.header("Content-Type", "text/plain")
					.POST(HttpRequest.BodyPublishers.ofString("hello"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(posted.statusCode()).isEqualTo(202);

			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), tcpPort);
					OutputStream out = socket.getOutputStream()) {
				out.write("a line\n".getBytes(StandardCharsets.UTF_8));
			}
			try (DatagramSocket client = new DatagramSocket()) {
				byte[] line = "<34>Oct 11 22:14:15 host su: hi".getBytes(StandardCharsets.UTF_8);
				client.send(new DatagramPacket(line, line.length, InetAddress.getLoopbackAddress(), syslogPort));
			}
			assertThat(node.status("lines")).isEqualTo("deployed");
			assertThat(node.status("logs")).isEqualTo("deployed");
		}
	}

	@Test
	void aPortInUseFailsTheModuleWithAReasonNamingThePort() throws Exception {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				SingleNode node = new SingleNode(this.data)) {
			int port = taken.getLocalPort();
			node.createStream("clash", "http --port=" + port + " | log", true);

			await().atMost(Duration.ofSeconds(30)).until(() -> node.status("clash").equals("failed"));
			Response modules = node.get("/runtime/modules");
			assertThat(modules.json().get("content").findValuesAsString("error"))
				.anySatisfy(error -> assertThat(error).contains("port " + port));
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static int freeUdpPort() throws IOException {
		try (DatagramSocket socket = new DatagramSocket(0)) {
			return socket.getLocalPort();
		}
	}
}
