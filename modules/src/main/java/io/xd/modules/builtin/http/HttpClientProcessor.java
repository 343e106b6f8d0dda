package io.xd.modules.builtin.http;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessagingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code http-client} processor: sends each payload as the body of an HTTP request to {@code url} (no body for
 * GET and DELETE) and sends the response body on, as text decoded with {@code charset}, with the header
 * {@code http_statusCode}. The request runs on the calling thread and waits at most {@code replyTimeout}; a
 * status outside 2xx, a timeout or a connection failure fails the message, which goes back to the bus.
 */
public final class HttpClientProcessor implements Processor {

	/** The header carrying the response's status code. */
	public static final String STATUS_HEADER = "http_statusCode";

	static final ModuleOption<String> URL = ModuleOption.ofString("url")
		.withRule(HttpClientProcessor::isHttpUrl, "be an absolute http: or https: URL")
		.withDescription("the URL to send each payload to (required)");

	static final ModuleOption<String> HTTP_METHOD = ModuleOption.ofChoice("httpMethod", "POST", "PUT", "PATCH", "GET",
			"DELETE")
		.withDefault("POST")
		.withDescription("the request method; GET and DELETE send no body");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(ModuleSupport::isCharset, "be a character set this JVM supports")
		.withDescription("the encoding of text payloads and of the response body");

	static final ModuleOption<String> CONTENT_TYPE = ModuleOption.ofString("contentType")
		.withRule(text -> !text.isBlank() && text.chars().noneMatch(c -> c < 0x20), "be a media type")
		.withDescription("the request's Content-Type; text/plain for text payloads and "
				+ "application/octet-stream for byte[] by default");

	static final ModuleOption<Long> REPLY_TIMEOUT = ModuleOption.ofLong("replyTimeout")
		.withDefault(5000L)
		.withMin(1)
		.withDescription("the milliseconds to wait for a response");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "http-client",
			"Sends each payload to a URL and passes the response body on",
			List.of(URL, HTTP_METHOD, CHARSET, CONTENT_TYPE, REPLY_TIMEOUT));

	private final URI uri;

	private final String method;

	private final Charset charset;

	private final String contentType;

	private final Duration timeout;

	private volatile HttpClient client;

	private volatile MessageChannel output;

	public HttpClientProcessor(ModuleContext context) {
		String url = context.options().get(URL);
		if (url == null) {
			throw new IllegalArgumentException("The http-client processor needs --url");
		}
		this.uri = URI.create(url);
		this.method = context.options().get(HTTP_METHOD);
		this.charset = Charset.forName(context.options().get(CHARSET));
		this.contentType = context.options().get(CONTENT_TYPE);
		this.timeout = Duration.ofMillis(context.options().get(REPLY_TIMEOUT));
	}

	@Override
	public void start(MessageChannel output) {
		this.client = HttpClient.newBuilder().connectTimeout(this.timeout).build();
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.uri).timeout(this.timeout);
		if (this.method.equals("GET") || this.method.equals("DELETE")) {
			request.method(this.method, HttpRequest.BodyPublishers.noBody());
		}
		else {
			Object payload = message.getPayload();
			byte[] body = (payload instanceof byte[] bytes) ? bytes : String.valueOf(payload).getBytes(this.charset);
			String type = (this.contentType != null) ? this.contentType
					: (payload instanceof byte[]) ? "application/octet-stream"
							: "text/plain;charset=" + this.charset.name().toLowerCase(Locale.ROOT);
			request.header("Content-Type", type).method(this.method, HttpRequest.BodyPublishers.ofByteArray(body));
		}
		HttpClient current = this.client;
		if (current == null) {
			throw new MessagingException(message, "The http-client processor is not started");
		}
		HttpResponse<byte[]> response;
		try {
			response = current.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new MessagingException(message, this.method + " " + this.uri + " failed: " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new MessagingException(message, "Interrupted during " + this.method + " " + this.uri, ex);
		}
		if (response.statusCode() / 100 != 2) {
			throw new MessagingException(message,
					this.method + " " + this.uri + " answered with status " + response.statusCode());
		}
		this.output.send(MessageBuilder.withPayload(new String(response.body(), this.charset))
			.setHeader(STATUS_HEADER, response.statusCode())
			.build());
	}

	@Override
	public void stop() {
		// HttpClient.close() is Java 21; on 17 the client's threads end once it is unreachable
		this.client = null;
	}

	private static boolean isHttpUrl(String text) {
		try {
			URI uri = new URI(text);
			String scheme = (uri.getScheme() == null) ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
			return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
		}
		catch (URISyntaxException ex) {
			return false;
		}
	}

	/** Declares and creates the {@code http-client} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, HttpClientProcessor::new);
		}
	}
}
