package io.xd.benchmarks.runner;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A singlenode server started for a benchmark ({@code java -jar server/target/xd.jar}, in its extracted form when
 * current, {@link Bench#serverJar()}, on a free port with a fresh data directory and its output in a log file), and
 * its REST API and Actuator endpoints. {@link #close()} stops it: SIGTERM, then SIGKILL after 30 s.
 */
final class Singlenode implements AutoCloseable {

	/** The user every process of a benchmark's cluster knows, given as arguments (as servers.yml would). */
	static final List<String> CLUSTER_USER = List.of("--xd.security.users.bench.password={noop}bench",
			"--xd.security.users.bench.roles=VIEW,CREATE,DEPLOY,DESTROY,MANAGE");

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private final Process process;

	private final Path log;

	private final URI uri;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper mapper;

	private final Thread stopOnExit;

	/** HTTP Basic as the administrator the singlenode created in its data directory; null before it started. */
	private String authorization;

	private Singlenode(Process process, Path log, URI uri, JsonMapper mapper) {
		this.process = process;
		this.log = log;
		this.uri = uri;
		this.mapper = mapper;
		this.stopOnExit = new Thread(this::stop, "stop-singlenode");
		Runtime.getRuntime().addShutdownHook(this.stopOnExit);
	}

	/**
	 * Starts a singlenode and returns once {@code /actuator/health} answers {@code UP}.
	 * @param bench the run, for the project directory
	 * @param work where the log ({@code <name>.log}) and the data directory ({@code <name>-data}) go
	 * @param name the log's and data directory's stem
	 * @param javaOptions the JVM options
	 * @param args arguments after the defaults ({@code --transport kafka ...})
	 * @throws IOException with the end of the log when the server dies or does not start within 120 s
	 */
	static Singlenode start(Bench bench, Path work, String name, List<String> javaOptions, String... args)
			throws IOException, InterruptedException {
		return start(bench, work, name, null, javaOptions, args);
	}

	/**
	 * Starts a server of the distributed runtime ({@code mode} {@code admin} or {@code container}, or a singlenode
	 * when {@code null}) and returns once {@code /actuator/health} answers {@code UP}. Given {@link #CLUSTER_USER}
	 * among its arguments, it is called as that user; otherwise as the administrator it created.
	 */
	static Singlenode start(Bench bench, Path work, String name, String mode, List<String> javaOptions,
			String... args) throws IOException, InterruptedException {
		return start(bench, work, name, name + ".log", mode, Net.freePort(9393), javaOptions, args);
	}

	/**
	 * As {@link #start(Bench, Path, String, String, List, String...)}, on a given port and with the log in a file
	 * of its own ({@code logName} in {@code work}), so that a server restarted on the same port with the same
	 * data directory ({@code <name>-data}) keeps each run's log apart.
	 */
	static Singlenode start(Bench bench, Path work, String name, String logName, String mode, int port,
			List<String> javaOptions, String... args) throws IOException, InterruptedException {
		Path log = work.resolve(logName);
		List<String> command = new ArrayList<>();
		command.add(Bench.javaCommand());
		command.addAll(javaOptions);
		command.addAll(bench.serverJar());
		if (mode != null) {
			command.add(mode);
		}
		command.addAll(List.of("--spring.config.import=", "--server.port=" + port,
				"--xd.data.dir=" + work.resolve(name + "-data"), "--xd.container.rateInterval=1s"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).directory(bench.home().toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		Singlenode singlenode = new Singlenode(process, log, URI.create("http://127.0.0.1:" + port), bench.mapper);
		try {
			singlenode.awaitHealthy();
			singlenode.authorization = List.of(args).containsAll(CLUSTER_USER) ? basic("bench", "bench")
					: administrator(work.resolve(name + "-data"));
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			singlenode.close();
			throw ex;
		}
		return singlenode;
	}

	/**
	 * The {@code Authorization} header of the administrator a server started with no users creates in its data
	 * directory ({@code credentials.properties}, see docs/security.md).
	 */
	private static String administrator(Path dataDirectory) throws IOException {
		Properties credentials = new Properties();
		try (Reader reader = Files.newBufferedReader(dataDirectory.resolve("credentials.properties"))) {
			credentials.load(reader);
		}
		return basic(credentials.getProperty("username"), credentials.getProperty("password"));
	}

	private static String basic(String username, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	private void awaitHealthy() throws IOException, InterruptedException {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (true) {
			if (!this.process.isAlive() || System.nanoTime() > deadline) {
				throw new IOException(this.log.getFileName() + ": the server did not start" + (this.process.isAlive() ? " within 120 s" : "")
						+ "; the end of " + this.log + ":\n" + tail(30));
			}
			try {
				HttpResponse<String> response = send(HttpRequest.newBuilder(this.uri.resolve("/actuator/health"))
					.timeout(Duration.ofSeconds(5)).GET());
				if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(200);
		}
	}

	URI uri() {
		return this.uri;
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** The server's log file. */
	Path log() {
		return this.log;
	}

	/** The last {@code lines} lines of the log. */
	String tail(int lines) throws IOException {
		List<String> all = Files.readAllLines(this.log, StandardCharsets.UTF_8);
		return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
	}

	/** Creates a stream without deploying it ({@code POST /streams/definitions}). */
	void createStream(String name, String definition) throws IOException, InterruptedException {
		post("/streams/definitions", Map.of("name", name, "definition", definition, "deploy", "false"));
	}

	/** Deploys a stream with deployment properties, which may be empty ({@code POST /streams/deployments/{name}}). */
	void deployStream(String name, String properties) throws IOException, InterruptedException {
		post("/streams/deployments/" + encode(name), properties.isEmpty() ? Map.of() : Map.of("properties", properties));
	}

	/** A stream's status, such as {@code deployed} or {@code failed} ({@code GET /streams/definitions/{name}}). */
	String streamStatus(String name) throws IOException, InterruptedException {
		HttpResponse<String> response = send(HttpRequest.newBuilder(this.uri.resolve("/streams/definitions/"
				+ encode(name))).GET());
		check(response, "read stream " + name);
		return this.mapper.readTree(response.body()).path("status").asString();
	}

	/** Undeploys and deletes a stream ({@code DELETE /streams/definitions/{name}}). */
	void destroyStream(String name) throws IOException, InterruptedException {
		check(send(HttpRequest.newBuilder(this.uri.resolve("/streams/definitions/" + encode(name))).DELETE()),
				"destroy stream " + name);
	}

	/**
	 * The meters named in {@code names} (Prometheus names, e.g. {@code xd_module_messages_in_total}) from
	 * {@code /actuator/prometheus}.
	 */
	Prometheus prometheus(String... names) throws IOException, InterruptedException {
		return prometheus(Duration.ofSeconds(60), names);
	}

	/** As {@link #prometheus(String...)}, giving up after {@code timeout} (a paused server never answers). */
	Prometheus prometheus(Duration timeout, String... names) throws IOException, InterruptedException {
		String query = List.of(names).stream().map(name -> "includedNames=" + encode(name))
			.collect(Collectors.joining("&"));
		HttpResponse<String> response = send(
				HttpRequest.newBuilder(this.uri.resolve("/actuator/prometheus" + (query.isEmpty() ? "" : "?" + query)))
					.GET(), timeout);
		check(response, "read /actuator/prometheus");
		return Prometheus.parse(response.body());
	}

	/** The value of one Actuator metric with tags, from {@code /actuator/metrics/{name}?tag=k:v}; null if absent. */
	Double metric(String name, Map<String, String> tags) throws IOException, InterruptedException {
		String query = tags.entrySet().stream().map(tag -> "tag=" + encode(tag.getKey() + ":" + tag.getValue()))
			.collect(Collectors.joining("&"));
		HttpResponse<String> response = send(HttpRequest
			.newBuilder(this.uri.resolve("/actuator/metrics/" + encode(name) + (query.isEmpty() ? "" : "?" + query)))
			.GET());
		if (response.statusCode() == 404) {
			return null;
		}
		check(response, "read metric " + name);
		JsonNode value = this.mapper.readTree(response.body()).path("measurements").path(0).path("value");
		return value.isNumber() ? value.doubleValue() : null;
	}

	private void post(String path, Map<String, String> fields) throws IOException, InterruptedException {
		String form = new LinkedHashMap<>(fields).entrySet().stream()
			.map(field -> encode(field.getKey()) + "=" + encode(field.getValue()))
			.collect(Collectors.joining("&"));
		check(send(HttpRequest.newBuilder(this.uri.resolve(path))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form))), "POST " + path + " " + fields);
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return send(request, Duration.ofSeconds(60));
	}

	private HttpResponse<String> send(HttpRequest.Builder request, Duration timeout)
			throws IOException, InterruptedException {
		if (this.authorization != null) {
			request.setHeader("Authorization", this.authorization);
		}
		return this.http.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static void check(HttpResponse<String> response, String what) throws IOException {
		if (response.statusCode() / 100 != 2) {
			throw new IOException("Could not " + what + ": HTTP " + response.statusCode() + " " + response.body());
		}
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	private void stop() {
		if (!this.process.isAlive()) {
			return;
		}
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				System.err.println("singlenode did not stop within 30 s; killing it");
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		stop();
		try {
			Runtime.getRuntime().removeShutdownHook(this.stopOnExit);
		}
		catch (IllegalStateException ex) {
			// the JVM is already shutting down, and the hook runs or has run
		}
	}
}
