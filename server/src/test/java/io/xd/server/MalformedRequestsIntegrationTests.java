package io.xd.server;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sends hundreds of malformed definitions, deployment property strings and request bodies to a running singlenode:
 * every answer must be a 4xx whose body is a JSON array of errors with a readable message, never a 5xx.
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

	private static String check(Response response) {
		if (response.status() < 400 || response.status() >= 500) {
			return "not a 4xx";
		}
		JsonNode body;
		try {
			body = response.json();
		}
		catch (RuntimeException ex) {
			return "body is not JSON";
		}
		if (!body.isArray() || body.isEmpty()) {
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
