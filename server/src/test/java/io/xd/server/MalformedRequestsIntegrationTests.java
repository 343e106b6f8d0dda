package io.xd.server;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.curator.framework.CuratorFramework;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.xd.admin.dsl.StreamParser;
import io.xd.admin.web.ApiErrors;
import io.xd.admin.stream.StreamLimits;
import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sends malformed requests to a running singlenode: hundreds of malformed definitions, deployment property strings
 * and request bodies; requests with bad encodings, charsets, names, methods and media types; requests that Tomcat
 * refuses before the application sees them, over raw sockets; and ten thousand generated ones. Every answer must be
 * a 4xx whose body is a JSON array of errors with a readable message, never a 5xx; a 5xx is kept for a fault of the
 * server, and its body carries the id of the logged stack trace.
 */
class MalformedRequestsIntegrationTests {

	/** Bodies that are not a JSON object of text, number or boolean fields. */
	private static final List<String> UNREADABLE_JSON = List.of("{", "[]", "\"text\"", "42", "{\"name\":", "null",
			"\u00ff\u00fe", "{'single': 'quotes'}", "{\"properties\": {\"a\": 1}}", "{\"properties\": [1]}",
			"{\"a\":1} trailing");

	private static final List<String> BAD_DEFINITION_JSON = List.of(
			"{\"name\": {\"a\":1}, \"definition\": \"time | log\"}", "{\"definition\": [\"time\"]}",
			"{\"name\":\"j1\",\"definition\":\"time | | log\"}", "{\"name\":\"j2\"}",
			"{\"name\":\"j2\",\"definition\":\"time | log\",\"deploy\":\"perhaps\"}", "{}");

	private static final List<String> BAD_DEPLOYMENT_JSON = List.of("{\"properties\":\"module.*.count=z\"}",
			"{\"properties\":\"module.nope.count=1\"}", "{\"properties\": 5}");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	static Path data;

	private static SingleNode node;

	@BeforeAll
	static void start() {
		node = new SingleNode(data);
		assertThat(node.createStream("target", "time | log", false).status()).isEqualTo(201);
	}

	@AfterAll
	static void stop() {
		node.close();
	}

	@Test
	void answersEveryMalformedRequestWithA4xxAndAReadableMessage() {
		List<Supplier<Response>> requests = new ArrayList<>();
		long seed = 20261122L;
		Random random = new Random(seed);

		for (String definition : malformedDefinitions(random)) {
			requests.add(() -> node.postForm("/streams/definitions", form("name", "s" + random.nextInt(1_000_000),
					"definition", definition, "deploy", "false")));
		}
		for (String properties : malformedProperties(random)) {
			requests.add(() -> node.postForm("/streams/deployments/target", form("properties", properties)));
		}
		for (String body : UNREADABLE_JSON) {
			requests.add(() -> node.post("/streams/definitions", "application/json", body));
			requests.add(() -> node.post("/streams/deployments/target", "application/json", body));
		}
		for (String body : BAD_DEFINITION_JSON) {
			requests.add(() -> node.post("/streams/definitions", "application/json", body));
		}
		for (String body : BAD_DEPLOYMENT_JSON) {
			requests.add(() -> node.post("/streams/deployments/target", "application/json", body));
		}
		String[] badNames = { "", " ", "1abc", "a b", "a|b", "a.b", "a/b", "x;y", "\u0000", "ab\u200b", "-x" };
		for (String name : badNames) {
			requests.add(() -> node.postForm("/streams/definitions", form("name", name, "definition", "time | log")));
		}
		requests.add(() -> node.postForm("/streams/definitions", form("name", "target", "definition", "time | log")));
		requests.add(() -> node.postForm("/streams/definitions", form("name", "nodef")));
		requests.add(() -> node.postForm("/streams/definitions", form("definition", "time | log")));
		requests.add(() -> node.postForm("/streams/definitions", form("name", "x", "definition", "time | log",
				"deploy", "maybe")));
		requests.add(() -> node.postForm("/streams/definitions", form("name", "log", "definition", "time | log")));
		requests.add(() -> node.postForm("/streams/definitions", form("name", "a", "definition", "b = time | log")));
		requests.add(() -> node.post("/streams/definitions", "text/plain", "time | log"));
		requests.add(() -> node.post("/streams/definitions", "application/xml", "<stream/>"));
		requests.add(() -> node.post("/streams/definitions", "application/json", "x".repeat(2 << 20)));
		for (String path : List.of("/streams/definitions/nope", "/streams/definitions/%20", "/streams/deployments/nope",
				"/modules/source/nope", "/modules/widget/time", "/nothing/here", "/streams/definitions/a%2Fb",
				"/streams/definitions?page=x", "/streams/definitions?size=-5x", "/runtime/modules?page=abc")) {
			requests.add(() -> node.get(path));
			if (!path.startsWith("/streams/definitions?")) {
				// DELETE /streams/definitions is "destroy all", whatever the query says
				requests.add(() -> node.delete(path));
			}
			requests.add(() -> node.postForm(path, form("properties", "module.*.count=1")));
		}
		requests.add(() -> node.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/streams/definitions"))
			.PUT(HttpRequest.BodyPublishers.ofString("{}"))
			.header("Content-Type", "application/json")));
		requests.add(() -> node.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/runtime/containers"))
			.method("PATCH", HttpRequest.BodyPublishers.noBody())));

		assertThat(requests).hasSizeGreaterThanOrEqualTo(200);
		List<String> failures = new ArrayList<>();
		for (Supplier<Response> request : requests) {
			Response response = request.get();
			String problem = check(response);
			if (problem != null) {
				failures.add(problem + ": " + response.status() + " " + abbreviate(response.body()));
			}
		}
		assertThat(failures).as("requests (seed %d) not answered with a readable 4xx", seed).isEmpty();
	}

	@Test
	void answersBadEncodingsCharsetsNamesMethodsAndMediaTypesWithTheRightStatus() {
		String form = "application/x-www-form-urlencoded";
		Map<String, Integer> expected = new LinkedHashMap<>();
		List<Supplier<Response>> requests = new ArrayList<>();
		BiConsumer<Integer, Supplier<Response>> expect = (status, request) -> {
			requests.add(request);
			expected.put("request " + requests.size(), status);
		};
		expect.accept(400, () -> node.post("/streams/definitions", form, "name=%ZZ&definition=time%7Clog"));
		expect.accept(400, () -> node.post("/streams/definitions", form, "name=a%&definition=time%7Clog"));
		expect.accept(400, () -> node.post("/streams/definitions", form, "name=%ED%A0%80&definition=time%7Clog"));
		expect.accept(400, () -> node.post("/streams/definitions", form, "name=%C3%28&definition=time%7Clog"));
		expect.accept(400, () -> node.post("/streams/definitions", "multipart/form-data", "name=x"));
		expect.accept(400, () -> node.post("/streams/definitions", "multipart/form-data; boundary=xyz",
				"--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n%ZZ"));
		expect.accept(415, () -> node.post("/streams/definitions", form + "; charset=nope", "name=a&definition=b"));
		expect.accept(415, () -> node.post("/streams/definitions", "application/json; charset=bogus", "{}"));
		expect.accept(400, () -> node.post("/streams/definitions", "a/b/c", "x"));
		expect.accept(400, () -> node.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/streams/definitions"))
			.header("Accept", "application/json;q=x")));
		expect.accept(415, () -> node.post("/streams/definitions", "text/plain", "time | log"));
		expect.accept(415, () -> node.post("/streams/deployments/target", "application/xml", "<properties/>"));
		expect.accept(400, () -> node.post("/streams/definitions", "application/json",
				"{\"name\":\"\\ud800\",\"definition\":\"time | log\",\"deploy\":false}"));
		// path variables no stream can have, most of which ZooKeeper cannot store either
		for (String name : List.of("..", "%2E%2E", "a%2Fb", "a%2F..%2F", "a%0Ab", "a%7Fb", "%E2%80%8B",
				"n".repeat(StreamLimits.DEFAULTS.maxNameLength() + 1))) {
			expect.accept(400, () -> node.get("/streams/definitions/" + name));
			expect.accept(400, () -> node.delete("/streams/deployments/" + name));
			expect.accept(400, () -> node.postForm("/streams/deployments/" + name, form("properties", "")));
		}
		expect.accept(400, () -> node.postForm("/streams/definitions",
				form("name", "n".repeat(StreamLimits.DEFAULTS.maxNameLength() + 1), "definition", "time | log")));
		expect.accept(400, () -> node.postForm("/streams/definitions", form("name", "long", "definition",
				"lbl" + "l".repeat(StreamParser.MAX_NAME_LENGTH) + ": time | log", "deploy", "false")));
		expect.accept(400, () -> node.postForm("/streams/definitions", form("name", "huge", "definition",
				"time --format=" + "x".repeat(StreamLimits.DEFAULTS.maxDefinitionLength()) + " | log", "deploy",
				"false")));
		expect.accept(413, () -> node.post("/streams/definitions", form, "definition=" + "x".repeat(3 << 20)));
		expect.accept(405, () -> node.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/streams/definitions"))
			.method("TRACE", HttpRequest.BodyPublishers.noBody())));
		expect.accept(405, () -> node.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/modules"))
			.method("FOO", HttpRequest.BodyPublishers.noBody())));
		expect.accept(404, () -> node.get("/error"));

		List<String> failures = new ArrayList<>();
		for (int i = 0; i < requests.size(); i++) {
			Response response = requests.get(i).get();
			int status = expected.get("request " + (i + 1));
			String problem = (response.status() != status) ? "not a " + status
					: check(response.status(), response.body());
			if (problem != null) {
				failures.add("request " + (i + 1) + ": " + problem + ": " + response.status() + " "
						+ abbreviate(response.body()));
			}
		}
		assertThat(failures).isEmpty();
	}

	/**
	 * What Tomcat refuses before any filter or servlet, and what HttpClient would not send: answered in the same JSON
	 * shape, over a raw socket.
	 */
	@Test
	void answersWhatTomcatRefusesBeforeTheApplicationWithA4xxAndJson() {
		RawHttp http = new RawHttp(URI.create(node.baseUri()).getPort());
		// authenticated, so that what the API itself would answer is not hidden behind a 401
		String host = "\r\nHost: 127.0.0.1\r\nAuthorization: " + node.authorization();
		Map<String, Integer> expected = new LinkedHashMap<>();
		expected.put("GET /streams/definitions?page=%ZZ HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions?page=%ED%A0%80 HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions/a\u0001b HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions/a%00b HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions/%ZZ HTTP/1.1" + host, 400);
		expected.put("GET /streams/def|initions?a={} HTTP/1.1" + host, 400);
		expected.put("GET /../../etc/passwd HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions/" + "a".repeat(9_000) + " HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions HTTP/1.1" + host + "\r\nX-Big: " + "a".repeat(9_000), 400);
		expected.put("GET /streams/definitions HTTP/1.1" + host + "\r\nNo colon", 400);
		expected.put("GET /streams/definitions HTTP/1.1" + host + "\r\nX-Nul: a\u0000b", 400);
		expected.put("GET /streams/definitions HTTP/1.1" + host + host, 400);
		expected.put("G{T /streams/definitions HTTP/1.1" + host, 400);
		expected.put("GET /streams/definitions HTTP/9.9" + host, 400);
		expected.put("GET /streams/definitions HTTP/1.1" + host + "\r\nTransfer-Encoding: gzip", 400);
		expected.put("POST /streams/definitions HTTP/1.1" + host + "\r\nContent-Length: abc", 400);
		expected.put("TRACE /streams/definitions HTTP/1.1" + host, 405);
		List<String> failures = new ArrayList<>();
		expected.forEach((head, status) -> {
			RawHttp.Response response = http.send(RawHttp.request(head, new byte[0]));
			String problem = (response.status() != status) ? "not a " + status
					: check(response.status(), response.body());
			if (problem != null) {
				failures.add(abbreviate(head) + ": " + problem + ": " + response.status() + " "
						+ abbreviate(response.body()));
			}
		});
		RawHttp.Response badChunk = http.send(RawHttp.request("POST /streams/definitions HTTP/1.1" + host
				+ "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", "zz\r\n".getBytes()));
		assertThat(badChunk.status()).isEqualTo(400);
		assertThat(check(badChunk.status(), badChunk.body())).isNull();
		assertThat(failures).isEmpty();
	}

	/**
	 * Ten thousand generated malformed requests (see {@link MalformedRequestGenerator}), over raw sockets: not one
	 * is answered with a 5xx, every refusal carries the JSON error body, and the server still works afterwards.
	 */
	@Test
	void answersTenThousandGeneratedMalformedRequestsWithA4xxNeverA5xx() {
		int requests = 10_000;
		// the generator's requests may deploy, undeploy or destroy this one, and leave the other tests' alone
		assertThat(node.createStream("generated", "time | log", false).status()).isEqualTo(201);
		long seed = Long.getLong("xd.test.seed", System.nanoTime());
		Random random = new Random(seed);
		RawHttp http = new RawHttp(URI.create(node.baseUri()).getPort());
		Map<String, Integer> classes = new TreeMap<>();
		List<String> failures = new ArrayList<>();
		long started = System.nanoTime();
		for (int i = 0; i < requests; i++) {
			MalformedRequestGenerator.Generated request = MalformedRequestGenerator.generate(random, "generated",
					node.authorization());
			RawHttp.Response response = http.send(request.bytes());
			String statusClass = switch (response.status()) {
				case -1 -> "no answer";
				case 0 -> "HTTP/0.9 answer (no status line)";
				default -> (response.status() / 100) + "xx";
			};
			classes.merge(statusClass, 1, Integer::sum);
			String problem = (response.status() < 0) ? "no answer"
					: (response.status() == 0) ? checkJson(response.body())
					: (response.status() >= 500) ? "a 5xx"
					: (response.status() < 400 || request.method().equals("HEAD")) ? null
					: check(400, response.body());
			if (problem != null && failures.size() < 20) {
				failures.add(problem + ": " + response.status() + " " + abbreviate(response.body()) + " <- "
						+ request.describe().replaceAll("(.{200}).{200,}(.{300})", "$1...$2"));
			}
		}
		long millis = (System.nanoTime() - started) / 1_000_000;
		System.out.printf("%d generated requests (seed %d; replay with -Dxd.test.seed=%d) in %d ms: %s%n", requests,
				seed, seed, millis, classes);
		assertThat(failures).as("seed %d, status classes %s", seed, classes).isEmpty();
		assertThat(classes).doesNotContainKey("5xx");
		assertThat(classes.getOrDefault("4xx", 0)).as("most requests are refused").isGreaterThan(requests / 2);
		assertThat(node.get("/streams/definitions").status()).isEqualTo(200);
		assertThat(node.createStream("afterwards", "time | log", false).status()).isEqualTo(201);
		assertThat(node.status("afterwards")).isEqualTo("undeployed");
	}

	/**
	 * A fault of the server (here, its ZooKeeper client closed under it) is a 5xx whose body carries an id, and that
	 * id finds the logged stack trace.
	 */
	@Test
	void answersAServerFaultWithA5xxWhoseIdFindsTheLoggedStackTrace(@TempDir Path otherData) {
		ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory
			.getLogger(ApiErrors.class);
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		logger.addAppender(logged);
		try (SingleNode broken = new SingleNode(otherData)) {
			broken.context().getBean(CuratorFramework.class).close();
			Response response = broken.get("/streams/definitions/ticktock");
			assertThat(response.status()).isEqualTo(503);
			JsonNode error = response.json().get(0);
			String id = error.get("id").asString();
			assertThat(id).matches("[0-9a-f]{16}");
			assertThat(error.get("message").asString()).contains(id).doesNotContain("\tat ");
			assertThat(logged.list).anySatisfy(event -> {
				assertThat(event.getFormattedMessage()).contains(id);
				assertThat(event.getThrowableProxy()).isNotNull();
			});
		}
		finally {
			logger.detachAppender(logged);
		}
	}

	private static String check(Response response) {
		if (response.status() < 400 || response.status() >= 500) {
			return "not a 4xx";
		}
		return check(response.status(), response.body());
	}

	/**
	 * An HTTP/0.9 answer (to a request line without a version) has no status line: whatever it answers, its body is
	 * JSON, an error in the API's shape or what a GET returns.
	 */
	private static String checkJson(String text) {
		try {
			JsonNode body = JSON.readTree(text);
			return (body != null && body.isArray()) ? check(400, text) : null;
		}
		catch (RuntimeException ex) {
			return "an HTTP/0.9 answer that is not JSON";
		}
	}

	/** Null when the body is the REST API's error body with a readable message, else what is wrong with it. */
	private static String check(int status, String text) {
		JsonNode body;
		try {
			body = JSON.readTree(text);
		}
		catch (RuntimeException ex) {
			return "body is not JSON";
		}
		if (body == null || !body.isArray() || body.isEmpty()) {
			return "body is not an array of errors";
		}
		String message = body.get(0).path("message").asString("");
		if (message.isBlank() || message.contains("\tat ") || message.contains("Exception:")) {
			return "message is missing or is a stack trace";
		}
		return null;
	}

	private static List<String> malformedDefinitions(Random random) {
		List<String> fixed = List.of("", "   ", "|", "time |", "| log", "time | | log", "time log", "time > log",
				"time --=1 | log", "time --a | log", "time --a= | log", "time -- a=1 | log", "time--a=1 | log",
				"time --a='x | log", "time --a=\"x | log", "time \\ log", "time | log; time | log", "lbl : time | log",
				"a: time | a: log", "time | time", "time --a=1 --a=2 | log", "tap:stream:nope > log",
				"time > tap:stream:x", "tap:job:x > log", "queue:> log", "queue:a >", "> log", "time | log >",
				"time | nope", "nope | log", "log | time", "time | throughput --reportEveryMs=-1",
				"time --fixedDelay=abc | log", "time --fixedDelay=0 | log", "time --format='yyyy {{' | log",
				"load-generator --messageSize=big | throughput", "load-generator --producers=0 | throughput",
				"time | log --level=LOUD", "time | log --colour=red", "tap:stream:target.nolabel > log",
				"tap:stream:target.log > log", "tap:queue:x > log", "time | bridge --x=1 | log", "#time | log",
				"time | log extra", "time |> log", "tim\u00e9 | log", "time | log --level", "time ||| log",
				"time | log --level=INFO --level=WARN");
		List<String> all = new ArrayList<>(fixed);
		String alphabet = "|>:=-.'\" \\;\t\nabcxyz019";
		String[] seeds = { "time | log", "load-generator --messageSize=100 | throughput", "queue:a > topic:b",
				"tap:stream:target > log", "a: time --fixedDelay=2 | b: log --level=WARN" };
		while (all.size() < 140) {
			StringBuilder text = new StringBuilder(seeds[random.nextInt(seeds.length)]);
			for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
				int at = random.nextInt(text.length() + 1);
				switch (random.nextInt(3)) {
					case 0 -> text.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
					case 1 -> {
						if (at < text.length()) {
							text.deleteCharAt(at);
						}
					}
					default -> {
						if (at < text.length()) {
							text.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
						}
					}
				}
			}
			String candidate = text.toString();
			// keep only the mutants the server must refuse: those that no longer plan as a valid stream
			if (!candidate.equals("time | log") && !isValid(candidate)) {
				all.add(candidate);
			}
		}
		return all;
	}

	private static boolean isValid(String definition) {
		Response response = node.postForm("/streams/definitions", form("name", "probe", "definition", definition,
				"deploy", "false"));
		if (response.status() == 201) {
			node.delete("/streams/definitions/probe");
			return true;
		}
		return false;
	}

	private static List<String> malformedProperties(Random random) {
		List<String> all = new ArrayList<>(List.of("count=1", "module.count=1", "module.*.count", "module.*.count=x",
				"module.*.count=-1", "module.nope.count=1", "module.log.colour=red", "module.time.criteria=((",
				"module.*.count=1,module.*.count=2", "module..count=1", "=", "module.*.=1", "module.*.producer.x=1",
				"module.log.consumer.concurrency=2", "module.*.count=1, junk", "module.log.count=1.5",
				"module.log.count=99999999999", "module.time.criteria=T(java.lang.Runtime).getRuntime()",
				"module.time.criteria='a' +", "\u0000"));
		// each generated pair is invalid by construction: an unknown module label, an unknown key, a count that is not
		// a non-negative integer, or a criteria expression that does not parse
		String[] labels = { "*", "time", "log" };
		String[][] badKeyValues = { { "colour", "red" }, { "", "1" }, { "count", "x" }, { "count", "-3" },
				{ "count", "" }, { "count", "1e3" }, { "criteria", "((" }, { "criteria", "'a' +" },
				{ "criteria", "groups.contains(" } };
		while (all.size() < 40) {
			String label = labels[random.nextInt(labels.length)];
			String[] keyValue = badKeyValues[random.nextInt(badKeyValues.length)];
			all.add("module." + label + "." + keyValue[0] + "=" + keyValue[1]);
			all.add("module.nope" + random.nextInt(100) + ".count=1");
		}
		return all;
	}

	private static Map<String, String> form(String... pairs) {
		Map<String, String> form = new LinkedHashMap<>();
		for (int i = 0; i + 1 < pairs.length; i += 2) {
			form.put(pairs[i], pairs[i + 1]);
		}
		return form;
	}

	private static String abbreviate(String text) {
		return (text.length() > 300) ? text.substring(0, 300) + "..." : text;
	}
}
