package io.xd.modules.builtin.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.MessagingException;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The http-client processor against the JDK's HTTP server on the loopback interface. */
class HttpClientProcessorIntegrationTests {

	private HttpServer server;

	private final List<String> received = new CopyOnWriteArrayList<>();

	@BeforeEach
	void startServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/echo", exchange -> {
			byte[] body = exchange.getRequestBody().readAllBytes();
			this.received.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Content-Type")
					+ " " + new String(body, StandardCharsets.UTF_8));
			byte[] reply = ("got " + new String(body, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(201, reply.length);
			exchange.getResponseBody().write(reply);
			exchange.close();
		});
		this.server.createContext("/fail", exchange -> {
			exchange.sendResponseHeaders(503, -1);
			exchange.close();
		});
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.server.stop(0);
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + path;
	}

	/** The operator allows 127.0.0.1 only, and reserves port 1 as XD's own. */
	private static final HostAccess ALLOWING_LOOPBACK = ModuleFixtures.rootedAt(Path.of("/tmp/xd-files"))
		.withAllowedHosts(List.of("127.0.0.1", "169.254.169.254", "metadata.google.internal.test"))
		.withReservedPorts(() -> List.of(1));

	private static HttpClientProcessor create(Map<String, String> options) {
		return ModuleFixtures.create(new HttpClientProcessor.Provider(), options, ALLOWING_LOOPBACK);
	}

	private void redirect(String path, int status, String location) {
		this.server.createContext(path, exchange -> {
			exchange.getResponseHeaders().set("Location", location);
			exchange.sendResponseHeaders(status, -1);
			exchange.close();
		});
	}

	@Test
	void reachesOnlyTheAllowedHostsAndNeverLinkLocalMetadataOrXdsOwnPorts() {
		for (String url : List.of("http://localhost:" + this.server.getAddress().getPort() + "/echo",
				"http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/",
				"http://127.0.0.1:1/admin", "http://127.0.0.1.nip.io/", "http://0x7f000001/", "http://2130706433/")) {
			assertThatExceptionOfType(ModuleOptionException.class).as(url)
				.isThrownBy(() -> create(Map.of("url", url)))
				.withMessageContaining("option 'url'")
				.withMessageContaining("is refused");
		}
		assertThat(this.received).isEmpty();
	}

	@Test
	void followsRedirectsOnlyToAllowedHosts() {
		redirect("/to-echo", 302, "/echo");
		redirect("/to-elsewhere", 307, "http://localhost:" + this.server.getAddress().getPort() + "/echo");
		redirect("/to-metadata", 301, "http://169.254.169.254/latest/meta-data/");
		redirect("/to-file", 302, "file:///etc/passwd");
		redirect("/loop", 302, "/loop");
		HttpClientProcessor processor = create(Map.of("url", url("/to-echo")));
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		processor.start(output);
		processor.handleMessage(ModuleMessages.of("x"));
		assertThat(this.received).containsExactly("GET null ");
		assertThat(output.payloads()).containsExactly("got ");

		for (String path : List.of("/to-elsewhere", "/to-metadata", "/to-file", "/loop")) {
			HttpClientProcessor redirected = create(Map.of("url", url(path)));
			redirected.start(new ModuleFixtures.Collecting());
			assertThatExceptionOfType(MessagingException.class).as(path)
				.isThrownBy(() -> redirected.handleMessage(ModuleMessages.of("y")));
		}
		assertThat(this.received).hasSize(1);
	}

	@Test
	void aResponseOverMaxResponseSizeFailsTheMessage() {
		this.server.createContext("/big", exchange -> {
			byte[] reply = new byte[2048];
			exchange.sendResponseHeaders(200, reply.length);
			exchange.getResponseBody().write(reply);
			exchange.close();
		});
		HttpClientProcessor processor = create(Map.of("url", url("/big"), "maxResponseSize", "1024"));
		processor.start(new ModuleFixtures.Collecting());

		assertThatExceptionOfType(MessagingException.class)
			.isThrownBy(() -> processor.handleMessage(ModuleMessages.of("x")))
			.withMessageContaining("larger than maxResponseSize, 1024 bytes");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> create(Map.of("url", url("/big"), "maxResponseSize", "1000000000")))
			.withMessageContaining("at most 16777216");
	}

	@Test
	void postsEachPayloadAndSendsTheResponseBodyOn() {
		HttpClientProcessor processor = create(Map.of("url", url("/echo")));
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		processor.start(output);
		processor.handleMessage(ModuleMessages.of("h\u00e9llo"));
		processor.handleMessage(ModuleMessages.of("raw".getBytes(StandardCharsets.UTF_8)));
		processor.stop();

		assertThat(this.received).containsExactly("POST text/plain;charset=utf-8 h\u00e9llo",
				"POST application/octet-stream raw");
		assertThat(output.payloads()).containsExactly("got h\u00e9llo", "got raw");
		assertThat(output.messages.get(0).getHeaders()).containsEntry(HttpClientProcessor.STATUS_HEADER, 201);
	}

	@Test
	void putSendsTheGivenContentTypeAndGetSendsNoBody() {
		HttpClientProcessor put = create(Map.of("url", url("/echo"), "httpMethod", "put", "contentType", "application/json"));
		put.start(new ModuleFixtures.Collecting());
		put.handleMessage(ModuleMessages.of("{}"));
		HttpClientProcessor get = create(Map.of("url", url("/echo"), "httpMethod", "GET"));
		get.start(new ModuleFixtures.Collecting());
		get.handleMessage(ModuleMessages.of("ignored"));

		assertThat(this.received).containsExactly("PUT application/json {}", "GET null ");
	}

	@Test
	void aStatusOutside2xxFailsTheMessage() {
		HttpClientProcessor processor = create(Map.of("url", url("/fail")));
		processor.start(new ModuleFixtures.Collecting());

		assertThatExceptionOfType(MessagingException.class)
			.isThrownBy(() -> processor.handleMessage(ModuleMessages.of("x")))
			.withMessageContaining("answered with status 503");
	}

	@Test
	void refusesUrlsThatAreNotHttp() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> create(Map.of("url", "file:///etc/passwd")))
			.withMessageContaining("option 'url' must be an absolute http: or https: URL");
	}
}
