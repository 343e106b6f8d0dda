package io.xd.modules.builtin.source;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessageHeaders;

import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.Modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class HttpSourceTests {

	private final HttpClient client = HttpClient.newHttpClient();

	private final List<HttpSource> started = new ArrayList<>();

	@AfterEach
	void stopSources() {
		this.started.forEach(HttpSource::stop);
	}

	private HttpSource start(MessageChannel output, Map<String, String> options) {
		HttpSource source = Modules.create(new HttpSource.Provider(), options);
		source.start(output);
		this.started.add(source);
		return source;
	}

	private HttpResponse<String> post(HttpSource source, String path, String contentType, byte[] body)
			throws Exception {
		return this.client.send(request(source, path, contentType, body), BodyHandlers.ofString());
	}

	private static HttpRequest request(HttpSource source, String path, String contentType, byte[] body) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + source.port() + path))
			.header("Content-Type", contentType)
			.POST(BodyPublishers.ofByteArray(body))
			.build();
	}

	@Test
	void listensOnLoopbackOnlyUnlessTheOperatorAllowsOtherAddresses() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> start(new Modules.Collecting(), Map.of("port", "0", "address", "0.0.0.0")))
			.withMessageContaining("xd.modules.network.bind-addresses");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> start(new Modules.Collecting(), Map.of("port", "80")))
			.withMessageContaining("option 'port'");
	}

	@Test
	void refusesBrowsersRequestsFromPagesOfOtherSitesUnlessTheirOriginIsAllowed() throws Exception {
		Modules.Collecting output = new Modules.Collecting();
		HttpSource source = start(output, Map.of("port", "0", "allowedOrigins", "https://app.example.com, "
				+ "HTTP://Other.Example:8080"));
		record Browser(String origin, String site, int status) {
		}
		List<Browser> browsers = List.of(new Browser("http://evil.example", null, 403),
				new Browser("http://evil.example", "cross-site", 403), new Browser(null, "cross-site", 403),
				new Browser(null, "same-site", 403), new Browser("null", "cross-site", 403),
				new Browser("https://app.example.com.evil.example", "cross-site", 403),
				new Browser("https://app.example.com", "cross-site", 202),
				new Browser("http://other.example:8080", "same-site", 202), new Browser(null, "none", 202),
				new Browser(null, null, 202));
		for (Browser browser : browsers) {
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + source.port() + "/"))
				.header("Content-Type", "text/plain")
				.POST(BodyPublishers.ofString(browser.toString()));
			if (browser.origin() != null) {
				request.header("Origin", browser.origin());
			}
			if (browser.site() != null) {
				request.header("Sec-Fetch-Site", browser.site());
			}
			HttpResponse<String> response = this.client.send(request.build(), BodyHandlers.ofString());
			assertThat(response.statusCode()).as(browser.toString()).isEqualTo(browser.status());
		}
		List<Browser> accepted = browsers.stream().filter(browser -> browser.status() == 202).toList();
		assertThat(output.awaitPayloads(accepted.size()))
			.containsExactlyElementsOf(accepted.stream().map(Browser::toString).map(Object.class::cast).toList());
	}

	@Test
	void acceptsTextAsStringWithContentTypeAndPeerHeaders() throws Exception {
		Modules.Collecting output = new Modules.Collecting();
		HttpSource source = start(output, Map.of("port", "0"));

		HttpResponse<String> response = post(source, "/", "text/plain; charset=ISO-8859-1",
				"caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));

		assertThat(response.statusCode()).isEqualTo(202);
		Message<?> message = output.awaitCount(1).get(0);
		assertThat(message.getPayload()).isEqualTo("caf\u00e9");
		assertThat(message.getHeaders().get(MessageHeaders.CONTENT_TYPE)).isEqualTo("text/plain; charset=ISO-8859-1");
		assertThat(message.getHeaders().get(NetworkSources.PEER_ADDRESS)).isEqualTo("127.0.0.1");
		assertThat(message.getHeaders().get(NetworkSources.PEER_PORT)).isInstanceOf(Integer.class);
		assertThat(message.getHeaders().getId()).isNotNull();
		assertThat(message.getHeaders().getTimestamp()).isPositive();
	}

	@Test
	void acceptsJsonAsTextAndOtherTypesAsBytes() throws Exception {
		Modules.Collecting output = new Modules.Collecting();
		HttpSource source = start(output, Map.of("port", "0", "path", "/in"));

		assertThat(post(source, "/in", "application/json", "{\"a\":1}".getBytes(StandardCharsets.UTF_8)).statusCode())
			.isEqualTo(202);
		assertThat(post(source, "/in", "application/octet-stream", new byte[] { 1, 2, 3 }).statusCode())
			.isEqualTo(202);

		List<Message<?>> messages = output.awaitCount(2);
		assertThat(messages.get(0).getPayload()).isEqualTo("{\"a\":1}");
		assertThat(messages.get(1).getPayload()).isEqualTo(new byte[] { 1, 2, 3 });
	}

	@Test
	void answers404ForOtherPathsAnd405ForOtherMethods() throws Exception {
		HttpSource source = start(new Modules.Collecting(), Map.of("port", "0", "path", "/in"));

		assertThat(post(source, "/elsewhere", "text/plain", new byte[] { 'x' }).statusCode()).isEqualTo(404);
		HttpResponse<String> get = this.client.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + source.port() + "/in")).build(),
				BodyHandlers.ofString());
		assertThat(get.statusCode()).isEqualTo(405);
	}

	@Test
	void answers413ForABodyOverMaxContentLength() throws Exception {
		Modules.Collecting output = new Modules.Collecting();
		HttpSource source = start(output, Map.of("port", "0", "maxContentLength", "10"));

		HttpResponse<String> response = post(source, "/", "text/plain", new byte[11]);

		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("maxContentLength", "10 bytes");
		assertThat(post(source, "/", "text/plain", new byte[10]).statusCode()).isEqualTo(202);
		assertThat(output.messages).hasSize(1);
	}

	@Test
	void answers415ForMultipartAndUnknownCharsets() throws Exception {
		Modules.Collecting output = new Modules.Collecting();
		HttpSource source = start(output, Map.of("port", "0"));

		HttpResponse<String> multipart = post(source, "/", "multipart/form-data; boundary=x", new byte[] { 'x' });
		HttpResponse<String> charset = post(source, "/", "text/plain; charset=no-such-charset", new byte[] { 'x' });

		assertThat(multipart.statusCode()).isEqualTo(415);
		assertThat(multipart.body()).contains("multipart");
		assertThat(charset.statusCode()).isEqualTo(415);
		assertThat(output.messages).isEmpty();
	}

	@Test
	void answers503WhenTheDownstreamSendFails() throws Exception {
		MessageChannel failing = (message, timeout) -> {
			throw new MessageDeliveryException(message, "sink is down");
		};
		HttpSource source = start(failing, Map.of("port", "0"));

		HttpResponse<String> response = post(source, "/", "text/plain", new byte[] { 'x' });

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.body()).contains("sink is down");
	}

	@Test
	void answers503WhenEveryWorkerIsBlockedDownstream() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger blocked = new AtomicInteger();
		MessageChannel blocking = (message, timeout) -> {
			blocked.incrementAndGet();
			try {
				return release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		};
		HttpSource source = start(blocking, Map.of("port", "0"));
		List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
		for (int i = 0; i < HttpSource.WORKERS; i++) {
			waiting.add(this.client.sendAsync(request(source, "/", "text/plain", new byte[] { 'x' }),
					BodyHandlers.ofString()));
		}
		await().atMost(10, TimeUnit.SECONDS).until(() -> blocked.get() == HttpSource.WORKERS);

		HttpResponse<String> refused = post(source, "/", "text/plain", new byte[] { 'y' });

		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.body()).contains("busy");
		release.countDown();
		for (CompletableFuture<HttpResponse<String>> response : waiting) {
			assertThat(response.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(202);
		}
	}

	@Test
	void startFailsNamingThePortWhenItIsInUse() throws IOException {
		try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			HttpSource source = Modules.create(new HttpSource.Provider(),
					Map.of("port", String.valueOf(taken.getLocalPort())));

			assertThatIllegalStateException().isThrownBy(() -> source.start(new Modules.Collecting()))
				.withMessageContaining("port " + taken.getLocalPort())
				.withMessageContaining("http source of stream 'teststream'");
		}
	}
}
