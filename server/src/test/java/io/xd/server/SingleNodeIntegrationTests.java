package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.server.AdminApi.Response;
import io.xd.modules.builtin.ThroughputSink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SingleNodeIntegrationTests {

	@TempDir
	Path data;

	@Test
	void createsDeploysUndeploysAndDestroysAStream() {
		try (SingleNode node = new SingleNode(this.data)) {
			Response created = node.createStream("ticktock", "time | log", false);
			assertThat(created.status()).isEqualTo(201);
			assertThat(created.json().get("status").asString()).isEqualTo("undeployed");

			assertThat(node.postForm("/streams/deployments/ticktock", Map.of()).status()).isEqualTo(201);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.status("ticktock").equals("deployed"));
			Response modules = node.get("/runtime/modules");
			assertThat(modules.json().get("content").findValuesAsString("moduleId"))
				.containsExactlyInAnyOrder("ticktock.source.time.1", "ticktock.sink.log.1");
			assertThat(modules.json().get("content").findValuesAsString("deploymentStatus")).containsOnly("deployed");

			assertThat(node.delete("/streams/deployments/ticktock").status()).isEqualTo(200);
			assertThat(node.status("ticktock")).isEqualTo("undeployed");
			await().atMost(Duration.ofSeconds(20))
				.until(() -> node.get("/runtime/modules").json().get("content").isEmpty());

			assertThat(node.delete("/streams/definitions/ticktock").status()).isEqualTo(200);
			assertThat(node.get("/streams/definitions/ticktock").status()).isEqualTo(404);
		}
	}

	@Test
	void runsTheDirectBindingStreamAndATapOfItCountingEveryMessage() {
		try (SingleNode node = new SingleNode(this.data)) {
			node.createStream("direct", "load-generator --messageCount=200000 --messageSize=100 | throughput", false);
			node.createStream("tapped", "tap:stream:direct > throughput", true);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.status("tapped").equals("deployed"));

			node.postForm("/streams/deployments/direct", Map.of("properties", "module.*.count=0"));

			await().atMost(Duration.ofSeconds(60)).until(() -> {
				ThroughputSink main = (ThroughputSink) node.module("direct.sink.throughput.1");
				ThroughputSink tap = (ThroughputSink) node.module("tapped.sink.throughput.1");
				return main != null && tap != null && main.totals().messages() == 200_000
						&& tap.totals().messages() == 200_000;
			});
			ThroughputSink main = (ThroughputSink) node.module("direct.sink.throughput.1");
			assertThat(main.totals().bytes()).isEqualTo(200_000L * 100);
		}
	}

	@Test
	void tapsAModuleThatWritesToANamedTopic() {
		try (SingleNode node = new SingleNode(this.data)) {
			node.createStream("publisher", "load-generator --messageCount=1000 --messageSize=10 > topic:ticks", false);
			node.createStream("subscriber", "topic:ticks > throughput --reportEveryMs=0", true);
			node.createStream("tapper", "tap:stream:publisher > throughput --reportEveryMs=0", true);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> node.status("subscriber").equals("deployed") && node.status("tapper").equals("deployed"));
			node.postForm("/streams/deployments/publisher", Map.of());

			await().atMost(Duration.ofSeconds(30)).until(() -> {
				ThroughputSink subscriber = (ThroughputSink) node.module("subscriber.sink.throughput.1");
				ThroughputSink tapper = (ThroughputSink) node.module("tapper.sink.throughput.1");
				return subscriber != null && tapper != null && subscriber.totals().messages() == 1000
						&& tapper.totals().messages() == 1000;
			});
		}
	}

	@Test
	void deployingAgainWithOtherPropertiesReplacesWhatRuns() {
		try (SingleNode node = new SingleNode(this.data)) {
			node.createStream("moved", "time | log", true);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.status("moved").equals("deployed"));
			// undeploy and deploy again at once, before the admin has removed the first deployment's modules
			node.delete("/streams/deployments/moved");
			Response redeployed = node.postForm("/streams/deployments/moved",
					Map.of("properties", "module.log.criteria=groups.contains('nowhere')"));
			assertThat(redeployed.status()).isEqualTo(201);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.module("moved.sink.log.1") == null);
			// a module with no instance at all makes the stream "failed", as in Spring XD
			assertThat(node.status("moved")).isEqualTo("failed");
			assertThat(node.module("moved.source.time.1")).isNotNull();
		}
	}

	@Test
	void afterARestartFindsTheSameStreamsAndRedeploysTheDeployedOnes() {
		try (SingleNode node = new SingleNode(this.data)) {
			node.createStream("kept", "time --fixedDelay=1 | log", true);
			node.createStream("idle", "time | log --level=WARN", false);
			await().atMost(Duration.ofSeconds(20)).until(() -> node.status("kept").equals("deployed"));
		}
		try (SingleNode node = new SingleNode(this.data)) {
			Response list = node.get("/streams/definitions");
			assertThat(list.json().get("content").findValuesAsString("name")).containsExactly("idle", "kept");
			assertThat(node.status("idle")).isEqualTo("undeployed");
			await().atMost(Duration.ofSeconds(30)).until(() -> node.status("kept").equals("deployed"));
			assertThat(node.module("kept.source.time.1")).isNotNull();
			assertThat(node.module("kept.sink.log.1")).isNotNull();
		}
	}

	@Test
	void exposesModuleMetersToPrometheusAndMessageRatesToTheRuntimeApi() {
		try (SingleNode node = new SingleNode(this.data, "--xd.container.rateInterval=500ms")) {
			node.createStream("metered", "load-generator --messageCount=1000 --messageSize=10 | log --level=DEBUG", true);
			node.createStream("ticking", "time --fixedDelay=1 | log --level=DEBUG", true);
			await().atMost(Duration.ofSeconds(20)).until(() -> {
				String metrics = node.get("/actuator/prometheus").body();
				return metrics.contains("xd_module_messages_in_total{instance=\"1\",module=\"log\",stream=\"metered\","
						+ "type=\"sink\"} 1000.0");
			});
			String metrics = node.get("/actuator/prometheus").body();
			assertThat(metrics).contains(
					"xd_module_messages_out_total{instance=\"1\",module=\"load-generator\",stream=\"metered\","
							+ "type=\"source\"} 1000.0",
					"xd_module_bytes_in_bytes_total{instance=\"1\",module=\"log\",stream=\"metered\",type=\"sink\"} "
							+ "10000.0",
					"xd_module_errors_total{instance=\"1\",module=\"log\",stream=\"metered\",type=\"sink\"} 0.0",
					"xd_module_handling_seconds_count{instance=\"1\",module=\"log\",stream=\"metered\"");
			assertThat(node.get("/actuator/health").json().get("status").asString()).isEqualTo("UP");

			await().atMost(Duration.ofSeconds(20)).until(() -> {
				var modules = node.get("/runtime/modules?moduleId=ticking.sink.log.1").json().get("content");
				return modules.size() == 1 && modules.get(0).path("messageRate").asDouble(0) > 0.3;
			});
			// the container writes each module's rate in turn: the source's may come just after the sink's
			await().atMost(Duration.ofSeconds(20))
				.until(() -> node.get("/runtime/containers")
					.json()
					.get("content")
					.get(0)
					.path("messageRates")
					.has("ticking.source.time.1"));
		}
	}

	@Test
	void servesAnOpenApiDescription() {
		try (SingleNode node = new SingleNode(this.data)) {
			Response api = node.get("/v3/api-docs");
			assertThat(api.status()).isEqualTo(200);
			assertThat(api.json().get("paths").has("/streams/definitions")).isTrue();
			assertThat(api.json().get("paths").has("/streams/deployments/{name}")).isTrue();
		}
	}
}
