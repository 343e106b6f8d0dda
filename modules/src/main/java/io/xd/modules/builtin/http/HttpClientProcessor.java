package io.xd.modules.builtin.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpClient.Redirect;
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
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code http-client} processor: sends each payload as the body of an HTTP request to {@code url} (no body for
 * GET and DELETE) and sends the response body on, as text decoded with {@code charset}, with the header
 * {@code http_statusCode}. The request runs on the calling thread and waits at most {@code replyTimeout}; a
 * status outside 2xx, a timeout, a connection failure or a body over {@code maxResponseSize} fails the message,
 * which goes back to the bus.
 * <p>
 * It reaches only the hosts the operator allows ({@link HostAccess#checkDestination}), checked when the stream is
 * created and again before every request and every redirect it follows (at most {@value #MAX_REDIRECTS}), on the
 * addresses the host resolves to then.
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

	/** The largest {@code maxResponseSize} a definition may ask for. */
	static final int MAX_RESPONSE_SIZE_CAP = 16 * 1024 * 1024;

	static final ModuleOption<Integer> MAX_RESPONSE_SIZE = ModuleOption.ofInt("maxResponseSize")
		.withDefault(1024 * 1024)
		.withMin(0)
		.withRule(size -> size <= MAX_RESPONSE_SIZE_CAP, "be at most " + MAX_RESPONSE_SIZE_CAP + " (16 MiB)")
		.withDescription("the largest response body accepted, in bytes; a larger one fails the message");

	/** Redirects followed for one message, each checked as the first request is. */
	static final int MAX_REDIRECTS = 5;

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "http-client",
			"Sends each payload to a URL and passes the response body on",
			List.of(URL, HTTP_METHOD, CHARSET, CONTENT_TYPE, REPLY_TIMEOUT, MAX_RESPONSE_SIZE));

	private final URI uri;

	private final String method;

	private final Charset charset;

	private final String contentType;

	private final Duration timeout;

	private final int maxResponseSize;

	private final HostAccess access;

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
		this.maxResponseSize = context.options().get(MAX_RESPONSE_SIZE);
		this.access = context.hostAccess();
	}

	@Override
	public void start(MessageChannel output) {
		// redirects are followed here, each one checked against the allowed hosts, never by the client itself
		this.client = HttpClient.newBuilder().connectTimeout(this.timeout).followRedirects(Redirect.NEVER).build();
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		HttpClient current = this.client;
		if (current == null) {
			throw new MessagingException(message, "The http-client processor is not started");
		}
		URI target = this.uri;
		String requestMethod = this.method;
		for (int redirects = 0;; redirects++) {
			checkDestination(message, target);
			HttpResponse<InputStream> response = send(current, message, target, requestMethod);
			int status = response.statusCode();
			String location = response.headers().firstValue("Location").orElse(null);
			if (status / 100 == 3 && location != null && status != 304) {
				close(response);
				if (redirects == MAX_REDIRECTS) {
					throw new MessagingException(message, this.method + " " + this.uri + " redirected more than "
							+ MAX_REDIRECTS + " times");
				}
				target = target.resolve(location);
				// 303, and 301/302 after a POST as browsers do, continue with a GET without a body
				if (status == 303 || ((status == 301 || status == 302) && requestMethod.equals("POST"))) {
					requestMethod = "GET";
				}
				continue;
			}
			byte[] body = readBody(message, target, response);
			if (status / 100 != 2) {
				throw new MessagingException(message, requestMethod + " " + target + " answered with status " + status);
			}
			this.output.send(MessageBuilder.withPayload(new String(body, this.charset))
				.setHeader(STATUS_HEADER, status)
				.build());
			return;
		}
	}

	private void checkDestination(Message<?> message, URI target) {
		String scheme = (target.getScheme() == null) ? "" : target.getScheme().toLowerCase(Locale.ROOT);
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw new MessagingException(message, "The http-client processor does not follow " + target);
		}
		try {
			this.access.checkDestination(URL.name(), target);
		}
		catch (ModuleOptionException ex) {
			throw new MessagingException(message, "The http-client processor may not reach " + target + ": "
					+ String.join("; ", ex.problems()));
		}
	}

	private HttpResponse<InputStream> send(HttpClient current, Message<?> message, URI target, String requestMethod) {
		HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(this.timeout);
		if (requestMethod.equals("GET") || requestMethod.equals("DELETE")) {
			request.method(requestMethod, HttpRequest.BodyPublishers.noBody());
		}
		else {
			Object payload = message.getPayload();
			byte[] body = (payload instanceof byte[] bytes) ? bytes : String.valueOf(payload).getBytes(this.charset);
			String type = (this.contentType != null) ? this.contentType
					: (payload instanceof byte[]) ? "application/octet-stream"
							: "text/plain;charset=" + this.charset.name().toLowerCase(Locale.ROOT);
			request.header("Content-Type", type).method(requestMethod, HttpRequest.BodyPublishers.ofByteArray(body));
		}
		try {
			return current.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
		}
		catch (IOException ex) {
			throw new MessagingException(message, requestMethod + " " + target + " failed: " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new MessagingException(message, "Interrupted during " + requestMethod + " " + target, ex);
		}
	}

	/** The response body, read up to {@code maxResponseSize}; a longer one fails the message. */
	private byte[] readBody(Message<?> message, URI target, HttpResponse<InputStream> response) {
		try (InputStream in = response.body()) {
			byte[] body = in.readNBytes(this.maxResponseSize + 1);
			if (body.length > this.maxResponseSize) {
				throw new MessagingException(message, "The response of " + target + " is larger than maxResponseSize, "
						+ this.maxResponseSize + " bytes");
			}
			return body;
		}
		catch (IOException ex) {
			throw new MessagingException(message, "Reading the response of " + target + " failed: " + ex, ex);
		}
	}

	private static void close(HttpResponse<InputStream> response) {
		try {
			response.body().close();
		}
		catch (IOException ex) {
			// the connection is dropped; nothing of it was needed
		}
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

		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			String url = options.get(URL);
			if (url != null) {
				access.checkDestination(URL.name(), URI.create(url));
			}
		}
	}
}
