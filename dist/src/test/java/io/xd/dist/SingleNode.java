package io.xd.dist;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.xd.container.ContainerServer;
import io.xd.modules.Module;

/** A singlenode started in this JVM on a free port with its own data directory, and a small REST client for it. */
final class SingleNode implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ConfigurableApplicationContext context;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String base;

	SingleNode(Path dataDirectory, String... extraArgs) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--xd.data.dir=" + dataDirectory,
				"--xd.admin.reconcile-interval=2s", "--zk.session-timeout=15s"));
		args.addAll(List.of(extraArgs));
		if (args.stream().noneMatch(arg -> arg.startsWith("--spring.config.import="))) {
			// no servers.yml from the working directory: each test says what it configures
			args.add("--spring.config.import=");
		}
		this.context = new SpringApplicationBuilder(XdApplication.class).profiles("singlenode")
			.run(XdApplication.withShortcuts(args.toArray(String[]::new)));
		this.base = "http://127.0.0.1:" + this.context.getEnvironment().getProperty("local.server.port");
	}

	String baseUri() {
		return this.base;
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

	/** The running module with this id in the singlenode's container, or null. */
	Module module(String moduleId) {
		ContainerServer container = this.context.getBean(ContainerServer.class);
		var running = container.module(moduleId);
		return (running == null) ? null : running.module();
	}

	@Override
	public void close() {
		this.context.close();
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
