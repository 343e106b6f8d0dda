package io.xd.shell;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.xd.shell.ShellCommand.Invocation;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.shell.core.command.ExitStatus;

/**
 * The {@code http ...} commands: send a request to any HTTP endpoint, typically an {@code http} source, and show the
 * answer.
 *
 * <p>The shell's credentials go only to the admin server it targets (same scheme, host and port); any other target
 * gets no {@code Authorization} header. Redirects are not followed, so credentials cannot be carried to another host
 * by one: a 3xx answer is shown with its {@code Location}. An answer outside 2xx, or no answer, fails the command.
 */
final class HttpCommands {

	private static final String GROUP = "Http Commands";

	/** Where Spring XD's {@code http post} sends by default: the {@code http} source's default port. */
	static final String DEFAULT_POST_TARGET = "http://localhost:9000";

	/** The content type of {@code http post} when none is given, as Spring XD's. */
	static final String DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

	private static final Pattern CHARSET = Pattern.compile(";\\s*charset\\s*=\\s*\"?([^\";\\s]+)",
			Pattern.CASE_INSENSITIVE);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ShellSession session;

	private HttpClient http;

	HttpCommands(ShellSession session) {
		this.session = session;
	}

	List<ShellCommand> commands() {
		return List.of(
				ShellCommand.named("http post")
					.group(GROUP)
					.description("POST data to an http endpoint, such as an http source")
					.optional("target", "the URL to post to", DEFAULT_POST_TARGET)
					.optional("data", "the text to post; give --data or --file")
					.optional("file", "a file whose bytes to post; give --data or --file")
					.optional("contentType", "the content type of the request", DEFAULT_CONTENT_TYPE)
					.action(this::post),
				ShellCommand.named("http get")
					.group(GROUP)
					.description("GET an http endpoint and show the answer")
					.positional("target", "the URL to get")
					.action(this::get));
	}

	private ExitStatus post(Invocation invocation) throws IOException {
		URI target = ShellSession.parseHttpUri(invocation.option("target"));
		String data = invocation.option("data");
		String file = invocation.option("file");
		String contentType = invocation.option("contentType");
		if ((data == null) == (file == null)) {
			throw new IllegalArgumentException("Give either --data <text> or --file <path> to post");
		}
		byte[] body;
		String shown;
		if (file != null) {
			Path path = Path.of(file);
			if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
				throw new IllegalArgumentException("Cannot read the file '" + file + "'");
			}
			body = Files.readAllBytes(path);
			shown = "the contents of " + file + " (" + body.length + " bytes)";
		}
		else {
			body = data.getBytes(charsetOf(contentType));
			shown = data;
		}
		HttpRequest request = request(target).header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		invocation.out().println("> POST (" + contentType + ") " + target + " " + shown);
		return exchange(invocation, request);
	}

	private ExitStatus get(Invocation invocation) {
		URI target = ShellSession.parseHttpUri(invocation.option("target"));
		invocation.out().println("> GET " + target);
		return exchange(invocation, request(target).GET().build());
	}

	private HttpRequest.Builder request(URI target) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(target).timeout(REQUEST_TIMEOUT);
		String authorization = this.session.admin().authorizationFor(target);
		if (authorization != null) {
			builder.header("Authorization", authorization);
		}
		return builder;
	}

	/**
	 * Sends the request and prints the status and the body of the answer; an answer outside 2xx fails the command
	 * after it is printed, since the body often says why.
	 */
	private ExitStatus exchange(Invocation invocation, HttpRequest request) {
		HttpResponse<String> response;
		try {
			response = client().send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new HttpTargetException("Unable to reach " + request.uri() + ": " + reason(ex), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new HttpTargetException("Interrupted while waiting for " + request.uri(), ex);
		}
		int status = response.statusCode();
		String reasonPhrase = reasonPhrase(status);
		String statusLine = reasonPhrase.isEmpty() ? Integer.toString(status) : status + " " + reasonPhrase;
		invocation.out().println("> " + statusLine);
		response.headers()
			.firstValue("Location")
			.filter(location -> status >= 300 && status < 400)
			.ifPresent(location -> invocation.out().println("Location: " + location));
		String body = response.body();
		if (body != null && !body.isEmpty()) {
			invocation.out().println(prettyIfJson(body, response.headers().firstValue("Content-Type").orElse("")));
		}
		if (status < 200 || status >= 300) {
			throw new HttpTargetException(request.method() + " " + request.uri() + " answered " + statusLine, null);
		}
		return ExitStatus.OK;
	}

	/**
	 * The client for these commands, made on first use: HTTP/1.1 (an {@code http} source speaks nothing else) and no
	 * redirects (see the class comment).
	 */
	private HttpClient client() {
		if (this.http == null) {
			this.http = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(5))
				.followRedirects(HttpClient.Redirect.NEVER)
				.build();
		}
		return this.http;
	}

	/** The charset {@code --data} is encoded with: the content type's, UTF-8 when it names none. */
	static Charset charsetOf(String contentType) {
		Matcher matcher = CHARSET.matcher(contentType);
		if (!matcher.find()) {
			return StandardCharsets.UTF_8;
		}
		try {
			return Charset.forName(matcher.group(1));
		}
		catch (IllegalCharsetNameException | UnsupportedCharsetException ex) {
			throw new IllegalArgumentException("Unknown charset '" + matcher.group(1) + "' in --contentType");
		}
	}

	/** What went wrong, in a few words: the HTTP client's exceptions often carry no message of their own. */
	private static String reason(IOException failure) {
		if (failure instanceof HttpTimeoutException) {
			return "timed out";
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConnectException) {
				return "connection refused";
			}
			if (cause instanceof UnknownHostException) {
				return "unknown host";
			}
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
				return cause.getMessage();
			}
		}
		return failure.getClass().getSimpleName();
	}

	/** A JSON body indented, any other as it is; without the final line break, which the caller prints. */
	private static String prettyIfJson(String body, String contentType) {
		String text = body;
		if (contentType.toLowerCase(Locale.ROOT).contains("json")) {
			try {
				text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(body));
			}
			catch (JacksonException ex) {
				// not JSON after all: shown as it is
			}
		}
		return text.replaceFirst("\\R+$", "");
	}

	/** The reason phrase of a status, which the JDK's HTTP client does not give. */
	static String reasonPhrase(int status) {
		return switch (status) {
			case 200 -> "OK";
			case 201 -> "Created";
			case 202 -> "Accepted";
			case 204 -> "No Content";
			case 301 -> "Moved Permanently";
			case 302 -> "Found";
			case 303 -> "See Other";
			case 304 -> "Not Modified";
			case 307 -> "Temporary Redirect";
			case 308 -> "Permanent Redirect";
			case 400 -> "Bad Request";
			case 401 -> "Unauthorized";
			case 403 -> "Forbidden";
			case 404 -> "Not Found";
			case 405 -> "Method Not Allowed";
			case 409 -> "Conflict";
			case 413 -> "Content Too Large";
			case 415 -> "Unsupported Media Type";
			case 429 -> "Too Many Requests";
			case 500 -> "Internal Server Error";
			case 502 -> "Bad Gateway";
			case 503 -> "Service Unavailable";
			case 504 -> "Gateway Timeout";
			default -> "";
		};
	}

}
