package io.xd.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An admin server stand-in on 127.0.0.1 and a free port, also used as any HTTP endpoint: answers canned JSON and
 * records every request.
 */
final class FakeAdminServer implements AutoCloseable {

	/**
	 * A request the server received.
	 * @param method the HTTP method
	 * @param path the raw path and query string
	 * @param contentType the Content-Type header, or {@code null}
	 * @param accept the Accept header, or {@code null}
	 * @param body the body as text
	 * @param authorization the Authorization header, or {@code null}
	 */
	record Request(String method, String path, String contentType, String accept, String body,
			String authorization) {

		/** The body decoded as a form, fields in the order sent. */
		Map<String, String> form() {
			Map<String, String> form = new LinkedHashMap<>();
			if (body.isEmpty()) {
				return form;
			}
			for (String pair : body.split("&")) {
				int equals = pair.indexOf('=');
				form.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
						URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
			}
			return form;
		}

		@Override
		public String toString() {
			return method + " " + path + (body.isEmpty() ? "" : " " + body);
		}

	}

	private record Answer(int status, String body) {
	}

	private final HttpServer server;

	private final Map<String, Answer> answers = new ConcurrentHashMap<>();

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	FakeAdminServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	URI uri() {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort());
	}

	/**
	 * Sets the answer to a request.
	 * @param method the HTTP method
	 * @param path the path and query string, exactly as sent
	 * @param status the status to answer with
	 * @param body the JSON to answer with, empty for none
	 */
	FakeAdminServer answer(String method, String path, int status, String body) {
		this.answers.put(method + " " + path, new Answer(status, body));
		return this;
	}

	List<Request> requests() {
		return List.copyOf(this.requests);
	}

	Request onlyRequest() {
		if (this.requests.size() != 1) {
			throw new AssertionError("Expected one request but got " + this.requests);
		}
		return this.requests.get(0);
	}

	private void handle(HttpExchange exchange) throws IOException {
		String body;
		try (InputStream in = exchange.getRequestBody()) {
			body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		String path = exchange.getRequestURI().getRawPath();
		if (exchange.getRequestURI().getRawQuery() != null) {
			path = path + "?" + exchange.getRequestURI().getRawQuery();
		}
		String method = exchange.getRequestMethod();
		this.requests.add(new Request(method, path, exchange.getRequestHeaders().getFirst("Content-Type"),
				exchange.getRequestHeaders().getFirst("Accept"), body,
				exchange.getRequestHeaders().getFirst("Authorization")));
		Answer answer = this.answers.getOrDefault(method + " " + path,
				new Answer(404, "[{\"logref\":\"NotFound\",\"message\":\"No canned answer for " + method + " " + path
						+ "\"}]"));
		byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
