package io.xd.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring XD's analytics through a real singlenode with the memory store: streams deployed from the shell take JSON
 * posted over HTTP into {@code field-value-counter}, {@code aggregate-counter} (now and at a time field),
 * {@code counter}, {@code gauge} and {@code rich-gauge}; the values read back through {@code /metrics/...} and the
 * shell's display commands, and again after the singlenode restarts on the same data directory (the snapshot).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AnalyticsIntegrationTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final DateTimeFormatter XD_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private static final String[] ARGS = { "--xd.analytics.snapshot-interval=1s" };

	@TempDir
	static Path data;

	private static SingleNode node;

	private static int devicesPort;

	/** The start of the hour two hours ago: the first bucket of the timed aggregate counter. */
	private static Instant firstHour;

	@BeforeAll
	static void start() {
		node = new SingleNode(data.resolve("node"), ARGS);
	}

	@AfterAll
	static void stop() {
		if (node != null) {
			node.close();
		}
	}

	@Test
	@Order(1)
	void countsPostedJsonInEveryKindAndShowsItThroughRestAndTheShell() throws Exception {
		devicesPort = AbstractModuleLibraryIntegrationTests.freePort();
		int valuesPort = AbstractModuleLibraryIntegrationTests.freePort();
		deploy("devices", "http --port=" + devicesPort + " | field-value-counter --fieldName=device");
		deploy("posts", "tap:stream:devices > aggregate-counter");
		deploy("timed", "tap:stream:devices > aggregate-counter --timeField=payload.at");
		deploy("postcount", "tap:stream:devices > counter");
		deploy("values", "http --port=" + valuesPort + " | rich-gauge --name=load --alpha=0.5");
		deploy("level", "tap:stream:values > gauge");

		firstHour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
		List<String> devices = List.of("phone", "tablet", "phone", "watch", "phone", "tablet");
		for (int i = 0; i < devices.size(); i++) {
			// two in each of the last three hours
			Instant at = firstHour.plus(i / 2, ChronoUnit.HOURS).plusSeconds(60);
			post(devicesPort, "application/json", "{\"device\":\"" + devices.get(i) + "\",\"at\":\"" + XD_TIME.format(at)
					+ "\",\"user\":{\"id\":" + i + "}}");
		}
		for (String value : List.of("10", "20", "30")) {
			post(valuesPort, "text/plain", value);
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> node.get("/metrics/counters/postcount").status() == 200
				&& json("/metrics/counters/postcount").path("value").asLong() == 6
				&& json("/metrics/rich-gauges/load").path("count").asLong() == 3);

		assertEveryValueIsAsSent();
		// written every second while values change, not only at shutdown: what a crash would leave
		Path snapshot = node.dataDirectory().resolve("analytics").resolve("snapshot.json");
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Files.exists(snapshot) && Files.readString(snapshot).contains("\"postcount\":6"));

		ShellRun shell = ShellRun.withInput(node, """
				field-value-counter display devices
				counter display postcount
				aggregate-counter display timed --resolution hour --lastHours 3
				gauge display level
				rich-gauge display load
				counter list
				""");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).contains("FieldValueCounter=devices")
			.containsPattern("phone\\s+3\\n")
			.containsPattern("tablet\\s+2\\n")
			.containsPattern("watch\\s+1\\n")
			.containsPattern("\\n6\\n")
			.contains("AggregateCounter=timed")
			.containsPattern(XD_TIME.format(firstHour) + "\\s+2\\n")
			.containsPattern("\\n30\\n")
			.contains("RichGauge=load")
			.containsPattern("average\\s+22.5\\n")
			.contains("Counter name\n------------\npostcount\n");
	}

	@Test
	@Order(2)
	void keepsEveryValueAcrossARestartAndCountsOnFromThem() throws Exception {
		node.close();
		node = new SingleNode(data.resolve("node"), ARGS);
		assertEveryValueIsAsSent();
		ShellRun shell = ShellRun.withInput(node, "field-value-counter display --name devices\n");
		assertThat(shell.output()).containsPattern("phone\\s+3\\n");

		await().atMost(Duration.ofSeconds(30)).until(() -> node.status("devices").equals("deployed"));
		post(devicesPort, "application/json", "{\"device\":\"phone\",\"at\":\"" + XD_TIME.format(Instant.now()) + "\"}");
		await().atMost(Duration.ofSeconds(20))
			.until(() -> json("/metrics/field-value-counters/devices").path("counts").path("phone").asDouble() == 4);
	}

	@Test
	@Order(3)
	void listsWithValuesAndDeletesAndAnswersUnknownNamesWithA404() {
		JsonNode detailed = json("/metrics/gauges?detailed=true");
		assertThat(detailed.path("content").get(0).path("name").asString()).isEqualTo("level");
		assertThat(detailed.path("content").get(0).path("value").asLong()).isEqualTo(30);
		assertThat(detailed.path("content").get(0).path("links").get(0).path("href").asString())
			.isEqualTo(node.baseUri() + "/metrics/gauges/level");

		assertThat(node.delete("/metrics/counters/postcount").status()).isEqualTo(200);
		AdminApi.Response missing = node.get("/metrics/counters/postcount");
		assertThat(missing.status()).isEqualTo(404);
		assertThat(missing.body()).contains("\"logref\":\"NoSuchMetricException\"")
			.contains("There is no counter named 'postcount'");
		assertThat(node.get("/metrics/histograms").status()).isEqualTo(404);
		for (String query : List.of("resolution=week", "from=yesterday", "resolution=minute&from=2020-01-01",
				"from=2026-01-02&to=2026-01-01")) {
			AdminApi.Response refused = node.get("/metrics/aggregate-counters/posts?" + query);
			assertThat(refused.status()).as(query).isEqualTo(400);
			assertThat(refused.body()).as(query).startsWith("[{\"logref\":");
		}
		assertThat(node.get("/metrics/aggregate-counters/posts?from=2026-11-26%2010:00:00").status()).isEqualTo(200);
		assertThat(node.get("/metrics/counters?page=x").status()).isEqualTo(400);
		// the firewall's answer to an encoded slash, as for every path of the API
		assertThat(node.get("/metrics/counters/a%2Fb").status()).isEqualTo(400);

		ShellRun shell = ShellRun.withInput(node, "rich-gauge delete load\n");
		assertThat(shell.output()).contains("Deleted richgauge 'load'");
		assertThat(node.get("/metrics/rich-gauges/load").status()).isEqualTo(404);
		assertThat(node.get("/audit-records?action=metric.delete").body()).contains("counter:postcount")
			.contains("rich-gauge:load");
	}

	private static void assertEveryValueIsAsSent() {
		assertThat(JSON.treeToValue(json("/metrics/field-value-counters/devices").path("counts"), Map.class))
			.isEqualTo(Map.of("phone", 3.0, "tablet", 2.0, "watch", 1.0));
		JsonNode minutes = json("/metrics/aggregate-counters/posts?resolution=minute");
		assertThat(minutes.path("counts").size()).isEqualTo(60);
		assertThat(sum(minutes.path("counts"))).isEqualTo(6);
		assertThat(minutes.path("total").asLong()).isEqualTo(6);
		JsonNode hours = json("/metrics/aggregate-counters/timed?resolution=hour&from=" + firstHour + "&to="
				+ firstHour.plus(2, ChronoUnit.HOURS));
		assertThat(values(hours.path("counts"))).containsExactly(2L, 2L, 2L);
		assertThat(hours.path("counts").properties().iterator().next().getKey()).isEqualTo(XD_TIME.format(firstHour));
		assertThat(json("/metrics/counters/postcount").path("value").asLong()).isEqualTo(6);
		assertThat(json("/metrics/gauges/level").path("value").asLong()).isEqualTo(30);
		JsonNode load = json("/metrics/rich-gauges/load");
		assertThat(load.path("value").asDouble()).isEqualTo(30);
		assertThat(load.path("alpha").asDouble()).isEqualTo(0.5);
		assertThat(load.path("average").asDouble()).isEqualTo(22.5);
		assertThat(load.path("min").asDouble()).isEqualTo(10);
		assertThat(load.path("max").asDouble()).isEqualTo(30);
		assertThat(load.path("count").asLong()).isEqualTo(3);
	}

	private static long sum(JsonNode counts) {
		return values(counts).stream().mapToLong(Long::longValue).sum();
	}

	private static List<Long> values(JsonNode counts) {
		List<Long> values = new ArrayList<>();
		counts.properties().forEach(entry -> values.add(entry.getValue().asLong()));
		return values;
	}

	private static void deploy(String name, String definition) {
		ShellRun shell = ShellRun.withInput(node, "stream create " + name + " --definition \"" + definition
				+ "\" --deploy\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status(name).equals("deployed"));
	}

	private static JsonNode json(String path) {
		AdminApi.Response response = node.get(path);
		assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(200);
		return JSON.readTree(response.body());
	}

	static void post(int port, String contentType, String body) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
				.header("Content-Type", contentType)
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("POST %s: %s", body, response.body()).isEqualTo(202);
	}
}
