package io.xd.server;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.xd.server.security.LocalAdministrator;

/** A small client of an admin server's REST API, for the integration tests. */
class AdminApi {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private String base;

	private String username;

	private String password;

	AdminApi(String base) {
		this.base = base;
	}

	/** A client of the server at {@code base} authenticated as the local administrator of its data directory. */
	static AdminApi local(String base, Path dataDirectory) {
		return new AdminApi(base).asAdministratorOf(dataDirectory);
	}

	/** This client, authenticated as the {@link LocalAdministrator} of that data directory from now on. */
	AdminApi asAdministratorOf(Path dataDirectory) {
		LocalAdministrator admin = LocalAdministrator.obtain(dataDirectory);
		return withCredentials(admin.username(), admin.password());
	}

	/** This client, sending these HTTP Basic credentials from now on (null: none). */
	AdminApi withCredentials(String username, String password) {
		this.username = username;
		this.password = password;
		return this;
	}

	/** A client of the same server with other credentials (null: none). */
	AdminApi as(String username, String password) {
		return new AdminApi(this.base).withCredentials(username, password);
	}

	/** For a subclass that learns its address only after starting the server. */
	protected void setBaseUri(String base) {
		this.base = base;
	}

	String baseUri() {
		return this.base;
	}

	/** The XD shell's arguments that target this server with this client's credentials. */
	String[] shellArguments() {
		return (this.username == null) ? new String[] { "--uri", this.base }
				: new String[] { "--uri", this.base, "--username", this.username, "--password", this.password };
	}

	Response get(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).GET());
	}

	Response delete(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).DELETE());
	}

	Response postForm(String path, Map<String, String> form) {
		String body = form.entrySet()
			.stream()
			.map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
			.collect(Collectors.joining("&"));
		return post(path, "application/x-www-form-urlencoded", body);
	}

	Response post(String path, String contentType, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (contentType != null) {
			request.header("Content-Type", contentType);
		}
		return send(request);
	}

	Response send(HttpRequest.Builder request) {
		if (this.username != null) {
			request.setHeader("Authorization", "Basic " + Base64.getEncoder()
				.encodeToString((this.username + ":" + this.password).getBytes(StandardCharsets.UTF_8)));
		}
		try {
			HttpResponse<String> response = this.http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	Response createStream(String name, String definition, boolean deploy) {
		Map<String, String> form = new LinkedHashMap<>();
		form.put("name", name);
		form.put("definition", definition);
		form.put("deploy", Boolean.toString(deploy));
		return postForm("/streams/definitions", form);
	}

	String status(String stream) {
		return get("/streams/definitions/" + stream).json().get("status").asString();
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	record Response(int status, String body) {

		JsonNode json() {
			return JSON.readTree(this.body);
		}
	}
}
