package io.xd.modules.builtin.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHeaders;
import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code http} source: every POST to {@code path} becomes a message. Text ({@code text/*}) and JSON bodies
 * become a {@code String} decoded with the request's charset (UTF-8 when it names none), any other body a
 * {@code byte[]}; the {@code contentType} header keeps the request's content type. The answer is 202 once the
 * message was handed downstream, 413 for a body over {@code maxContentLength}, 415 for a content type that cannot
 * be taken as it is (multipart, an unknown charset), 503 when the stream cannot take the message (the downstream
 * send failed, or every worker is busy because the stream blocks). Errors are answered with a plain-text sentence.
 * <p>
 * The JDK's own HTTP server carries the requests, so the container needs no web stack: {@value #WORKERS} worker
 * threads hand requests downstream, and a request that finds them all busy is answered 503 at once instead of
 * waiting in an unbounded queue.
 */
public final class HttpSource implements Source {

	/** Requests handed downstream at once; more concurrent requests are answered 503. */
	static final int WORKERS = 4;

	static final ModuleOption<Integer> PORT = NetworkSources.port(9000);

	static final ModuleOption<String> PATH = ModuleOption.ofString("path")
		.withDefault("/")
		.withRule(path -> path.startsWith("/"), "start with '/'")
		.withDescription("the request path that accepts POSTs; other paths are answered 404");

	static final ModuleOption<Integer> MAX_CONTENT_LENGTH = ModuleOption.ofInt("maxContentLength")
		.withDefault(1048576)
		.withMin(0)
		.withMax(64 * 1024 * 1024)
		.withDescription("the largest request body accepted, in bytes; larger ones are answered 413");

	static final ModuleOption<String> ALLOWED_ORIGINS = ModuleOption.ofString("allowedOrigins")
		.withDefault("")
		.withDescription("browser origins (such as https://app.example.com, comma-separated) whose pages may POST here; "
				+ "a browser's request from any other page is answered 403");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "http",
			"Turns HTTP POST requests into messages",
			List.of(PORT, PATH, MAX_CONTENT_LENGTH, NetworkSources.ADDRESS, ALLOWED_ORIGINS));

	private static final Logger logger = LoggerFactory.getLogger(HttpSource.class);

	/** Set while the server's dispatcher thread runs a request that found every worker busy. */
	private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();

	private final ModuleContext context;

	private final String path;

	private final int maxContentLength;

	private final Set<String> allowedOrigins;

	private volatile MessageChannel output;

	private HttpServer server;

	private ThreadPoolExecutor workers;

	HttpSource(ModuleContext context) {
		this.context = context;
		this.path = context.options().get(PATH);
		this.maxContentLength = context.options().get(MAX_CONTENT_LENGTH);
		this.allowedOrigins = Arrays.stream(context.options().get(ALLOWED_ORIGINS).split(","))
			.map(String::strip)
			.filter(origin -> !origin.isEmpty())
			.map(origin -> origin.toLowerCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
		InetSocketAddress address = NetworkSources.bindAddress(this.context);
		try {
			this.server = HttpServer.create(address, 0);
		}
		catch (IOException ex) {
			throw NetworkSources.cannotBind(this.context, "http", address, ex);
		}
		// No queue: a request that finds every worker busy runs on the server's dispatcher thread, which only
		// answers 503, so a blocked stream never makes requests pile up in memory.
		this.workers = new ThreadPoolExecutor(WORKERS, WORKERS, 0, TimeUnit.MILLISECONDS, new SynchronousQueue<>(),
				this.context.threadFactory("http"), (task, pool) -> busy(task));
		this.server.setExecutor(this.workers);
		this.server.createContext("/", this::handle);
		this.server.start();
		logger.info("Stream '{}': http source listening on {}:{}{}", this.context.streamName(),
				address.getHostString(), port(), this.path);
	}

	/** The port the server listens on (the chosen one when {@code port} was 0), or -1 before start. */
	public int port() {
		return (this.server != null) ? this.server.getAddress().getPort() : -1;
	}

	private void busy(Runnable exchangeTask) {
		BUSY.set(Boolean.TRUE);
		try {
			exchangeTask.run();
		}
		finally {
			BUSY.remove();
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (!exchange.getRequestURI().getPath().equals(this.path)) {
				respond(exchange, 404, "No such path; POST to " + this.path);
				return;
			}
			if (!"POST".equals(exchange.getRequestMethod())) {
				exchange.getResponseHeaders().set("Allow", "POST");
				respond(exchange, 405, "Only POST is accepted");
				return;
			}
			if (isCrossSite(exchange)) {
				respond(exchange, 403, "A page of another site may not post to this stream; allow its origin with "
						+ "the http source's allowedOrigins option");
				return;
			}
			if (BUSY.get() != null) {
				respond(exchange, 503, "The stream is busy; try again later");
				return;
			}
			accept(exchange);
		}
	}

	/**
	 * Whether a browser sends the request on behalf of a page that may not post here: one whose {@code Origin} is not
	 * allowed, or any site's page ({@code Sec-Fetch-Site} other than {@code none}) without an allowed origin. This
	 * source serves no pages, so no browser request is same-origin. Clients that are not browsers send neither.
	 */
	private boolean isCrossSite(HttpExchange exchange) {
		String origin = exchange.getRequestHeaders().getFirst("Origin");
		String site = exchange.getRequestHeaders().getFirst("Sec-Fetch-Site");
		boolean allowed = origin != null && this.allowedOrigins.contains(origin.strip().toLowerCase(Locale.ROOT));
		if (origin != null && !allowed) {
			return true;
		}
		return site != null && !site.equals("none") && !allowed;
	}

	private void accept(HttpExchange exchange) throws IOException {
		String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
		Decoding decoding;
		try {
			decoding = Decoding.of(contentType);
		}
		catch (IllegalArgumentException ex) {
			respond(exchange, 415, ex.getMessage());
			return;
		}
		String declaredLength = exchange.getRequestHeaders().getFirst("Content-Length");
		if (declaredLength != null && isLonger(declaredLength)) {
			respond(exchange, 413, tooLarge());
			return;
		}
		byte[] body;
		try (InputStream in = exchange.getRequestBody()) {
			body = in.readNBytes(this.maxContentLength + 1);
		}
		if (body.length > this.maxContentLength) {
			respond(exchange, 413, tooLarge());
			return;
		}
		Object payload = (decoding.charset() != null) ? new String(body, decoding.charset()) : body;
		InetSocketAddress peer = exchange.getRemoteAddress();
		try {
			boolean sent = this.output.send(NetworkSources.received(payload, peer)
				.setHeader(MessageHeaders.CONTENT_TYPE, decoding.contentType())
				.build());
			if (!sent) {
				respond(exchange, 503, "The stream did not accept the message; try again later");
				return;
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Stream '{}': a POST from {} could not be handed downstream; answered 503",
					this.context.streamName(), NetworkSources.describe(peer), ex);
			respond(exchange, 503, "The stream could not take the message: " + ex.getMessage());
			return;
		}
		respond(exchange, 202, null);
	}

	private boolean isLonger(String declaredLength) {
		try {
			return Long.parseLong(declaredLength.trim()) > this.maxContentLength;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private String tooLarge() {
		return "The body is larger than maxContentLength, " + this.maxContentLength + " bytes";
	}

	private static void respond(HttpExchange exchange, int status, String text) throws IOException {
		if (text == null) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
		exchange.sendResponseHeaders(status, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void stop() {
		if (this.server != null) {
			this.server.stop(0);
		}
		if (this.workers != null) {
			this.workers.shutdown();
			try {
				if (!this.workers.awaitTermination(5, TimeUnit.SECONDS)) {
					this.workers.shutdownNow();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** How a body of a content type becomes a payload: text in {@code charset}, or bytes when it is null. */
	private record Decoding(String contentType, Charset charset) {

		static Decoding of(String contentType) {
			if (contentType == null || contentType.isBlank()) {
				return new Decoding("application/octet-stream", null);
			}
			MimeType type;
			try {
				type = MimeTypeUtils.parseMimeType(contentType);
			}
			catch (InvalidMimeTypeException ex) {
				throw new IllegalArgumentException("Unsupported content type '" + contentType + "': " + ex.getMessage());
			}
			if (type.getType().equals("multipart")) {
				throw new IllegalArgumentException("Unsupported content type '" + contentType
						+ "': multipart bodies are not taken apart; POST each part as a request of its own");
			}
			boolean text = type.getType().equals("text") || type.getSubtype().equals("json")
					|| type.getSubtype().endsWith("+json");
			if (!text) {
				return new Decoding(contentType, null);
			}
			try {
				Charset charset = (type.getCharset() != null) ? type.getCharset() : StandardCharsets.UTF_8;
				return new Decoding(contentType, charset);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("Unsupported content type '" + contentType + "': unknown charset");
			}
		}
	}

	/** Declares and creates the {@code http} source. */
	public static final class Provider extends NetworkSources.Provider {

		public Provider() {
			super(METADATA, HttpSource::new);
		}
	}
}
