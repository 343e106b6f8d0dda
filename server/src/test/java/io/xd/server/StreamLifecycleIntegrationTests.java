package io.xd.server;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Update, scale, history, manifest and rollback of a running stream, over REST and through the shell. */
class StreamLifecycleIntegrationTests {

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass();

	@Test
	void anUpdateRestartsOnlyTheChangedModuleAndARollbackRestoresThePreviousOptions() {
		assertThat(node.createStream("life", "time --fixedDelay=100 --timeUnit=MILLISECONDS | transform "
				+ "--expression=payload | log", false).status()).isEqualTo(201);
		Response deployed = node.postForm("/streams/deployments/life", Map.of());
		assertThat(deployed.status()).isEqualTo(201);
		awaitDeployed("life");
		Map<String, String> started = since("life");
		assertThat(started).hasSize(3);

		Response updated = node.postForm("/streams/deployments/update/life",
				Map.of("properties", "app.transform.expression=payload.concat('!')"));
		assertThat(updated.status()).as(updated.body()).isEqualTo(200);
		assertThat(updated.json().get("outcome").asString()).isEqualTo("updated");
		await().atMost(Duration.ofSeconds(20)).until(() -> expression("life").equals("payload.concat('!')")
				&& node.status("life").equals("deployed"));
		Map<String, String> afterUpdate = since("life");
		assertThat(afterUpdate.get("life.source.time.1")).isEqualTo(started.get("life.source.time.1"));
		assertThat(afterUpdate.get("life.sink.log.1")).isEqualTo(started.get("life.sink.log.1"));
		assertThat(afterUpdate.get("life.processor.transform.1")).isNotEqualTo(started.get("life.processor.transform.1"));

		Response same = node.postForm("/streams/deployments/life",
				Map.of("properties", "app.transform.expression=payload.concat('!')"));
		assertThat(same.status()).isEqualTo(200);
		assertThat(same.json().get("message").asString()).contains("nothing changed");

		JsonNode history = node.get("/streams/deployments/history/life").json();
		assertThat(history).hasSize(2);
		assertThat(history.get(0).get("version").asInt()).isEqualTo(2);
		assertThat(history.get(0).get("status").asString()).isEqualTo("deployed");
		assertThat(history.get(0).get("properties").get("app.transform.expression").asString())
			.isEqualTo("payload.concat('!')");
		assertThat(history.get(1).get("status").asString()).isEqualTo("superseded");
		JsonNode manifest = node.get("/streams/deployments/manifest/life/1").json();
		assertThat(manifest.get("modules").get(1).get("options").get("expression").asString()).isEqualTo("payload");

		assertThat(node.postForm("/streams/deployments/rollback/life/1", Map.of()).status()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(20)).until(() -> expression("life").equals("payload")
				&& node.status("life").equals("deployed"));
		assertThat(since("life").get("life.source.time.1")).isEqualTo(started.get("life.source.time.1"));
		assertThat(node.get("/streams/deployments/history/life").json().get(0).get("description").asString())
			.isEqualTo("rollback to 1");

		Response badOption = node.postForm("/streams/deployments/update/life",
				Map.of("properties", "app.transform.expression=T(java.lang.Runtime).getRuntime()"));
		assertThat(badOption.status()).isEqualTo(400);
		assertThat(badOption.body()).contains("transform", "expression");
		assertThat(node.postForm("/streams/deployments/rollback/life/9", Map.of()).status()).isEqualTo(404);
	}

	@Test
	void scalingAddsAndRemovesInstancesWithoutTouchingTheOthers() {
		assertThat(node.createStream("wide", "time --fixedDelay=100 --timeUnit=MILLISECONDS | log", true).status())
			.isEqualTo(201);
		awaitDeployed("wide");
		Map<String, String> started = since("wide");

		// singlenode has one container, so a second instance cannot be placed: the stream is incomplete
		assertThat(node.postForm("/streams/deployments/scale/wide/log/instances/2", Map.of()).status()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(20)).until(() -> node.status("wide").equals("incomplete"));
		assertThat(node.postForm("/streams/deployments/scale/wide/log/instances/1", Map.of()).status()).isEqualTo(200);
		awaitDeployed("wide");
		assertThat(since("wide")).isEqualTo(started);
		assertThat(node.postForm("/streams/deployments/scale/wide/nosuch/instances/1", Map.of()).status())
			.isEqualTo(404);
		assertThat(node.postForm("/streams/deployments/scale/wide/log/instances/100000", Map.of()).status())
			.isEqualTo(400);
	}

	@Test
	void theShellUpdatesScalesListsHistoryShowsManifestsAndRollsBack() {
		assertThat(node.createStream("shelled", "time --fixedDelay=100 --timeUnit=MILLISECONDS | log", true).status())
			.isEqualTo(201);
		awaitDeployed("shelled");
		ShellRun shell = ShellRun.withInput(node, """
				stream update shelled --properties "app.log.level=WARN"
				stream scale app instances --name shelled --applicationName log --count 1
				stream history shelled
				stream manifest shelled --releaseVersion 2
				stream rollback shelled --releaseVersion 1
				stream deploy shelled
				""");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).contains("Updated stream 'shelled'", "nothing changed", "Version", "superseded",
				"level=WARN", "Stream 'shelled', version 2");
		await().atMost(Duration.ofSeconds(20)).until(() -> node.get("/streams/deployments/history/shelled").json()
			.get(0).get("description").asString().equals("rollback to 1"));
	}

	private static void awaitDeployed(String stream) {
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status(stream).equals("deployed"));
	}

	private static Map<String, String> since(String stream) {
		Map<String, String> since = new LinkedHashMap<>();
		for (JsonNode module : modules(stream)) {
			since.put(module.get("moduleId").asString(), module.get("since").asString());
		}
		return since;
	}

	private static String expression(String stream) {
		for (JsonNode module : modules(stream)) {
			if (module.get("name").asString().equals("transform")
					&& module.get("deploymentStatus").asString().equals("deployed")) {
				return module.get("moduleOptions").get("expression").asString();
			}
		}
		return "";
	}

	private static List<JsonNode> modules(String stream) {
		return node.get("/runtime/modules?size=1000").json().get("content").valueStream()
			.filter(module -> module.get("unitName").asString().equals(stream))
			.toList();
	}
}
