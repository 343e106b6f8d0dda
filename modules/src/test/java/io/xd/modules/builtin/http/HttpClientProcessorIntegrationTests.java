package io.xd.modules.builtin.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.MessagingException;

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

	@Test
	void postsEachPayloadAndSendsTheResponseBodyOn() {
		HttpClientProcessor processor = ModuleFixtures.create(new HttpClientProcessor.Provider(),
				Map.of("url", url("/echo")));
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
		HttpClientProcessor put = ModuleFixtures.create(new HttpClientProcessor.Provider(),
				Map.of("url", url("/echo"), "httpMethod", "put", "contentType", "application/json"));
		put.start(new ModuleFixtures.Collecting());
		put.handleMessage(ModuleMessages.of("{}"));
		HttpClientProcessor get = ModuleFixtures.create(new HttpClientProcessor.Provider(),
				Map.of("url", url("/echo"), "httpMethod", "GET"));
		get.start(new ModuleFixtures.Collecting());
		get.handleMessage(ModuleMessages.of("ignored"));

		assertThat(this.received).containsExactly("PUT application/json {}", "GET null ");
	}

	@Test
	void aStatusOutside2xxFailsTheMessage() {
		HttpClientProcessor processor = ModuleFixtures.create(new HttpClientProcessor.Provider(),
				Map.of("url", url("/fail")));
		processor.start(new ModuleFixtures.Collecting());

		assertThatExceptionOfType(MessagingException.class)
			.isThrownBy(() -> processor.handleMessage(ModuleMessages.of("x")))
			.withMessageContaining("answered with status 503");
	}

	@Test
	void refusesUrlsThatAreNotHttp() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new HttpClientProcessor.Provider(), Map.of("url", "file:///etc/passwd")))
			.withMessageContaining("option 'url' must be an absolute http: or https: URL");
	}
}
