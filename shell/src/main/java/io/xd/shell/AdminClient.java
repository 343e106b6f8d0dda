package io.xd.shell;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small client of the admin server's REST API: JSON answers, form-encoded posts, and errors turned into messages a
 * user can read.
 *
 * <p>Every call blocks until the answer arrives or the timeout passes. An answer with a status of 400 or more raises
 * {@link AdminException} carrying the server's own message (the {@code message} of each element of the
 * {@code [{"logref", "message"}]} array the admin answers with); no connection raises
 * {@link AdminUnreachableException}. Instances are immutable and thread-safe.
 */
public final class AdminClient {

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http;

	private final URI baseUri;

	private final Credentials credentials;

	/**
	 * Creates a client of one admin server that sends no credentials.
	 * @param http the HTTP client to send requests with
	 * @param baseUri the admin server, such as {@code http://localhost:9393}; a trailing slash is ignored
	 */
	public AdminClient(HttpClient http, URI baseUri) {
		this(http, baseUri, null);
	}

	/**
	 * Creates a client of one admin server.
	 * @param http the HTTP client to send requests with
	 * @param baseUri the admin server, such as {@code http://localhost:9393}; a trailing slash is ignored
	 * @param credentials what to authenticate with (HTTP Basic), or {@code null}
	 */
	public AdminClient(HttpClient http, URI baseUri, Credentials credentials) {
		this.http = http;
		this.baseUri = baseUri;
		this.credentials = credentials;
	}

	/**
	 * Who this client authenticates as.
	 * @return the user name, or {@code null} when it sends no credentials
	 */
	public String username() {
		return (this.credentials != null) ? this.credentials.username() : null;
	}

	/**
	 * The {@code Authorization} header this client would send with a request to {@code uri}: its credentials when
	 * {@code uri} is on this admin server (same scheme, host and port, the default port of the scheme when none is
	 * given), nothing for any other server, so that the admin password never reaches another host. Host names are
	 * compared as written: {@code localhost} and {@code 127.0.0.1} are different servers.
	 * @param uri where a request is about to go
	 * @return the header value, or {@code null} when nothing is to be sent
	 */
	String authorizationFor(URI uri) {
		if (this.credentials == null || !sameOrigin(this.baseUri, uri)) {
			return null;
		}
		return this.credentials.authorization();
	}

	private static boolean sameOrigin(URI a, URI b) {
		return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getHost() != null
				&& a.getHost().equalsIgnoreCase(b.getHost()) && port(a) == port(b);
	}

	private static int port(URI uri) {
		if (uri.getPort() != -1) {
			return uri.getPort();
		}
		return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
	}

	/**
	 * Creates the HTTP client the shell uses: HTTP/1.1 (the admin server speaks nothing else over plain HTTP, and this
	 * avoids an upgrade attempt on every request) and a short connect timeout.
	 * @return a new HTTP client
	 */
	public static HttpClient newHttpClient() {
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.followRedirects(HttpClient.Redirect.NORMAL)
			.build();
	}

	/**
	 * The admin server this client talks to.
	 * @return its base URI
	 */
	public URI baseUri() {
		return this.baseUri;
	}

	/**
	 * Sends a GET request.
	 * @param path the path, starting with a slash, with its query string already encoded
	 * @return the JSON answer, or a missing node when the answer has no body
	 */
	public JsonNode get(String path) {
		return send("GET", path, HttpRequest.BodyPublishers.noBody(), null);
	}

	/**
	 * Sends a DELETE request.
	 * @param path the path, starting with a slash
	 * @return the JSON answer, or a missing node when the answer has no body
	 */
	public JsonNode delete(String path) {
		return send("DELETE", path, HttpRequest.BodyPublishers.noBody(), null);
	}

	/**
	 * Sends a POST request with an {@code application/x-www-form-urlencoded} body.
	 * @param path the path, starting with a slash
	 * @param form the form fields in the order to send them
	 * @return the JSON answer, or a missing node when the answer has no body
	 */
	public JsonNode postForm(String path, Map<String, String> form) {
		String body = form.entrySet()
			.stream()
			.map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
			.collect(Collectors.joining("&"));
		return send("POST", path, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8),
				"application/x-www-form-urlencoded");
	}

	/**
	 * Sends a POST request whose body is a file's bytes, as {@code application/octet-stream}.
	 * @param path the path (and query), starting with a slash
	 * @return the JSON answer, or a missing node when the answer has no body
	 */
	public JsonNode postFile(String path, Path file) throws IOException {
		return send("POST", path, HttpRequest.BodyPublishers.ofFile(file), "application/octet-stream");
	}

	/**
	 * Probes the server with {@code GET path}, without treating an error status as a failure.
	 * @param path the path to probe
	 * @return the HTTP status of the answer
	 * @throws AdminUnreachableException when no answer can be had
	 */
	public int status(String path) {
		HttpRequest request = request("GET", path, HttpRequest.BodyPublishers.noBody(), null);
		return exchange(request).statusCode();
	}

	/**
	 * Encodes one path segment, such as a stream name.
	 * @param segment the raw segment
	 * @return the segment, percent-encoded
	 */
	public static String pathSegment(String segment) {
		return encode(segment).replace("+", "%20");
	}

	/**
	 * Builds a query string from the parameters that have a value.
	 * @param parameters names and values; {@code null} values are left out
	 * @return {@code ?a=1&b=2}, or an empty string when no parameter has a value
	 */
	public static String query(Map<String, String> parameters) {
		List<String> pairs = new ArrayList<>();
		parameters.forEach((key, value) -> {
			if (value != null) {
				pairs.add(encode(key) + "=" + encode(value));
			}
		});
		return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
	}

	private JsonNode send(String method, String path, HttpRequest.BodyPublisher body, String contentType) {
		HttpResponse<String> response = exchange(request(method, path, body, contentType));
		if (response.statusCode() == 401) {
			throw new AdminException(401, "The admin server at " + this.baseUri + ((this.credentials == null)
					? " asks for credentials: start the shell with --username and --password, or run admin config "
							+ "server --uri " + this.baseUri + " --username <name>"
					: " refused the credentials of user '" + this.credentials.username() + "': check the user name and "
							+ "password"));
		}
		if (response.statusCode() == 403) {
			throw new AdminException(403, "Access denied: " + errorMessage(method, path, response));
		}
		if (response.statusCode() >= 400) {
			throw new AdminException(response.statusCode(), errorMessage(method, path, response));
		}
		String text = response.body();
		if (text == null || text.isBlank()) {
			return JSON.missingNode();
		}
		try {
			return JSON.readTree(text);
		}
		catch (JacksonException ex) {
			throw new AdminException(response.statusCode(), "The admin server answered " + method + " " + path
					+ " with something that is not JSON: " + abbreviate(text));
		}
	}

	private HttpRequest request(String method, String path, HttpRequest.BodyPublisher body, String contentType) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(resolve(path))
			.timeout(REQUEST_TIMEOUT)
			.header("Accept", "application/json")
			.method(method, body);
		if (contentType != null) {
			builder.header("Content-Type", contentType);
		}
		if (this.credentials != null) {
			builder.header("Authorization", this.credentials.authorization());
		}
		return builder.build();
	}

	private HttpResponse<String> exchange(HttpRequest request) {
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			// Refused, reset, unknown host and timeouts alike: the user can only check the URI and the server.
			throw new AdminUnreachableException(this.baseUri, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AdminUnreachableException(this.baseUri, ex);
		}
	}

	private URI resolve(String path) {
		String base = this.baseUri.toString();
		while (base.endsWith("/")) {
			base = base.substring(0, base.length() - 1);
		}
		return URI.create(base + path);
	}

	private static String errorMessage(String method, String path, HttpResponse<String> response) {
		String body = response.body();
		if (body != null && !body.isBlank()) {
			try {
				JsonNode node = JSON.readTree(body);
				List<String> messages = new ArrayList<>();
				if (node.isArray()) {
					for (JsonNode error : node) {
						String message = Json.text(error, "message");
						if (!message.isEmpty()) {
							messages.add(message);
						}
					}
				}
				else if (node.isObject()) {
					// Spring Boot's default error body and RFC 9457 problem details, should the admin answer with those.
					String message = Json.text(node, "message");
					if (message.isEmpty()) {
						message = Json.text(node, "detail");
					}
					if (!message.isEmpty()) {
						messages.add(message);
					}
				}
				if (!messages.isEmpty()) {
					return String.join(System.lineSeparator(), messages);
				}
			}
			catch (JacksonException ex) {
				// not JSON: fall through to the plain description below
			}
		}
		String description = "The admin server answered " + method + " " + path + " with HTTP status "
				+ response.statusCode();
		return (body == null || body.isBlank()) ? description : description + ": " + abbreviate(body);
	}

	private static String abbreviate(String text) {
		String oneLine = text.strip().replaceAll("\\s+", " ");
		return (oneLine.length() > 200) ? oneLine.substring(0, 200) + "..." : oneLine;
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

}
