package io.xd.server;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Status tells the truth: a module whose thread dies, or whose start throws an Error, is failed with the reason. */
class ModuleFailureIntegrationTests {

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass();

	@Test
	void aModuleWhoseThreadDiesIsFailedWithTheReasonAndTheOthersKeepRunning() {
		assertThat(node.createStream("steady", "time --fixedDelay=100 --timeUnit=MILLISECONDS | counter --name=steady",
				true).status()).isEqualTo(201);
		assertThat(node.createStream("doomed", "dying --after=300 | log", true).status()).isEqualTo(201);

		await().atMost(Duration.ofSeconds(15)).until(() -> node.status("doomed").equals("failed"));
		JsonNode source = module("doomed.source.dying.1");
		assertThat(source.get("deploymentStatus").asString()).isEqualTo("failed");
		assertThat(source.get("error").asString()).contains("OutOfMemoryError", "Java heap space");
		assertThat(module("doomed.sink.log.1").get("deploymentStatus").asString()).isEqualTo("deployed");
		assertThat(node.module("doomed.source.dying.1")).as("stopped and unbound in the container").isNull();

		assertThat(node.status("steady")).isEqualTo("deployed");
		double before = steadyCount();
		await().atMost(Duration.ofSeconds(10)).until(() -> steadyCount() > before);
	}

	@Test
	void aModuleWhoseStartThrowsAnErrorIsFailedAndTheContainerGoesOn() {
		assertThat(node.createStream("stillborn", "dying --when=start | log", true).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(15)).until(() -> node.status("stillborn").equals("failed"));
		assertThat(module("stillborn.source.dying.1").get("error").asString()).contains("OutOfMemoryError");

		assertThat(node.createStream("after", "time | log", true).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(15)).until(() -> node.status("after").equals("deployed"));
	}

	private static JsonNode module(String moduleId) {
		JsonNode content = node.get("/runtime/modules?moduleId=" + moduleId).json().get("content");
		assertThat(content).as(moduleId).hasSize(1);
		return content.get(0);
	}

	private static double steadyCount() {
		String prometheus = node.get("/actuator/prometheus").body();
		return prometheus.lines()
			.filter(line -> line.startsWith("xd_counter_total{name=\"steady\"}"))
			.mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.findFirst()
			.orElse(0);
	}
}
