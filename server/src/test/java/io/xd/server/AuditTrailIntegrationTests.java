package io.xd.server;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.xd.modules.internal.TestJars;
import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit trail on a real singlenode: users of single roles change streams and modules, the MANAGE user reads who
 * did what, newest first, with secrets masked, refused attempts included, the same after a restart; the bound
 * removes the oldest records.
 */
class AuditTrailIntegrationTests {

	/** Each user's roles; manager holds MANAGE only. */
	private static final Map<String, String> USERS = Map.of("viewer", "VIEW", "creator", "VIEW,CREATE", "deployer",
			"VIEW,DEPLOY", "operator", "VIEW,CREATE,DEPLOY", "destroyer", "VIEW,DESTROY", "manager", "MANAGE");

	@TempDir
	Path data;

	@Test
	void recordsWhoDidWhatInOrderWithSecretsMaskedAndKeepsItAcrossARestart() throws Exception {
		Path jar = TestJars.suffixProcessor().writeTo(this.data.resolve("audited.jar"));
		String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar)));
		List<String> expected = new ArrayList<>();
		JsonNode before;
		try (SingleNode node = new SingleNode(this.data.resolve("node"), userArguments())) {
			assertThat(as(node, "creator").createStream("s1", "time --fixedDelay=1 | log", false).status())
				.isEqualTo(201);
			expected.add("creator stream.create s1 success");
			assertThat(as(node, "creator").createStream("db", "time | jdbc --tableName=ticks", false).status())
				.isEqualTo(201);
			expected.add("creator stream.create db success");
			assertThat(as(node, "creator").createStream("leaky", "time | jdbc --password=hunter2 --tableName=ticks",
					false).status()).as("a definition carries no password").isEqualTo(400);
			expected.add("creator stream.create leaky failure 400");
			assertThat(as(node, "creator").createStream("s1", "time | log", false).status()).isEqualTo(409);
			expected.add("creator stream.create s1 failure 409");
			assertThat(as(node, "viewer").createStream("v1", "time | log", false).status()).as("refused by security")
				.isEqualTo(403);

			AdminApi deployer = as(node, "deployer");
			assertThat(deployer.postForm("/streams/deployments/s1", Map.of("properties", "module.log.count=1"))
				.status()).isEqualTo(201);
			expected.add("deployer stream.deploy s1 success");
			assertThat(deployer.postForm("/streams/deployments/scale/s1/log/instances/2", Map.of()).status())
				.isEqualTo(200);
			expected.add("deployer stream.scale s1 success");
			assertThat(deployer.postForm("/streams/deployments/update/s1", Map.of("properties", "module.log.count=1"))
				.status()).isEqualTo(200);
			expected.add("deployer stream.update s1 success");
			assertThat(as(node, "operator").postForm("/streams/deployments/db",
					Map.of("properties", "app.jdbc.password=s3cret,module.jdbc.count=100000")).status())
				.as("over xd.admin.limits.maxInstances").isEqualTo(400);
			expected.add("operator stream.deploy db failure 400");
			assertThat(as(node, "operator").post("/streams/deployments/rollback/s1/1", null, "").status())
				.isEqualTo(200);
			expected.add("operator stream.rollback s1 success");
			assertThat(deployer.delete("/streams/deployments/s1").status()).isEqualTo(200);
			expected.add("deployer stream.undeploy s1 success");
			assertThat(as(node, "destroyer").delete("/streams/definitions/s1").status()).isEqualTo(200);
			expected.add("destroyer stream.destroy s1 success");

			AdminApi manager = as(node, "manager");
			assertThat(manager.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/modules/processor/audited"))
				.header("Content-Type", "application/octet-stream")
				.POST(HttpRequest.BodyPublishers.ofByteArray(Files.readAllBytes(jar)))).status()).isEqualTo(201);
			expected.add("manager module.upload processor:audited success");
			assertThat(manager.postForm("/modules/processor/other", Map.of("uri", "https://me:pw@example.com/x.jar"))
				.status()).isEqualTo(400);
			expected.add("manager module.register processor:other failure 400");
			assertThat(manager.delete("/modules/processor/audited").status()).isEqualTo(200);
			expected.add("manager module.delete processor:audited success");
			assertThat(deployer.delete("/streams/deployments").status()).isEqualTo(200);
			expected.add("deployer stream.undeploy-all * success");
			assertThat(as(node, "destroyer").delete("/streams/definitions").status()).isEqualTo(200);
			expected.add("destroyer stream.destroy-all * success");

			assertThat(as(node, "viewer").get("/audit-records").status()).isEqualTo(403);
			assertThat(as(node, "operator").get("/audit-records").status()).isEqualTo(403);
			Response all = manager.get("/audit-records?size=100");
			assertThat(all.status()).isEqualTo(200);
			assertThat(all.body()).doesNotContain("hunter2", "s3cret", ":pw@");
			before = all.json();
			List<String> newestFirst = new ArrayList<>(expected);
			Collections.reverse(newestFirst);
			assertThat(summaries(before)).containsExactlyElementsOf(newestFirst);
			assertThat(before.get("page").get("totalElements").asInt()).isEqualTo(expected.size());

			List<JsonNode> records = new ArrayList<>(before.get("content").valueStream().toList());
			Collections.reverse(records);
			assertThat(records).extracting(record -> Instant.parse(record.get("time").asString())).isSorted();
			assertThat(records.get(1).get("details").get("definition").asString())
				.isEqualTo("time | jdbc --tableName=ticks");
			assertThat(records.get(1).get("details").get("deploy").asString()).isEqualTo("false");
			assertThat(records.get(2).get("details").get("definition").asString())
				.isEqualTo("time | jdbc --password=****** --tableName=ticks");
			assertThat(records.get(2).get("reason").asString()).contains("password");
			assertThat(records.get(3).get("reason").asString()).isEqualTo("There is already a stream named 's1'");
			assertThat(records.get(4).get("details").get("result").asString()).isEqualTo("deployed");
			assertThat(records.get(5).get("details").get("label").asString()).isEqualTo("log");
			assertThat(records.get(5).get("details").get("count").asString()).isEqualTo("2");
			JsonNode refusedDeploy = records.get(7);
			assertThat(refusedDeploy.get("details").get("properties").asString())
				.isEqualTo("app.jdbc.password=******,module.jdbc.count=100000");
			assertThat(refusedDeploy.get("reason").asString()).contains("maxInstances");
			assertThat(records.get(8).get("details").get("version").asString()).isEqualTo("1");
			assertThat(records.get(11).get("details").get("sha256").asString()).isEqualTo(sha256);
			assertThat(records.get(12).get("details").get("uri").asString())
				.isEqualTo("https://me:******@example.com/x.jar");
			assertThat(records.get(15).get("details").get("streams").asString()).isEqualTo("db");
			assertThat(records.get(0).has("status")).as("a success has no status").isFalse();

			assertThat(summaries(manager.get("/audit-records?user=deployer").json())).containsExactly(
					"deployer stream.undeploy-all * success", "deployer stream.undeploy s1 success",
					"deployer stream.update s1 success", "deployer stream.scale s1 success",
					"deployer stream.deploy s1 success");
			assertThat(summaries(manager.get("/audit-records?action=module.").json())).hasSize(3);
			assertThat(summaries(manager.get("/audit-records?action=stream.destroy&target=s1").json()))
				.containsExactly("destroyer stream.destroy s1 success");
			JsonNode page = manager.get("/audit-records?size=2&page=1").json();
			assertThat(summaries(page)).containsExactlyElementsOf(newestFirst.subList(2, 4));
			assertThat(page.get("page").get("totalPages").asInt()).isEqualTo(8);
		}
		try (SingleNode restarted = new SingleNode(this.data.resolve("node"), userArguments())) {
			assertThat(as(restarted, "manager").get("/audit-records?size=100").json()).isEqualTo(before);
		}
	}

	@Test
	void keepsTheNewestRecordsUpToTheBoundAndNamesNoUserWhenSecurityIsOff() {
		try (SingleNode node = new SingleNode(this.data.resolve("open"), "--xd.security.enabled=false",
				"--xd.admin.audit.max-records=5")) {
			for (int i = 0; i < 8; i++) {
				assertThat(node.createStream("a" + i, "time | log", false).status()).isEqualTo(201);
			}
			JsonNode records = node.get("/audit-records").json();
			assertThat(summaries(records)).containsExactly("anonymous stream.create a7 success",
					"anonymous stream.create a6 success", "anonymous stream.create a5 success",
					"anonymous stream.create a4 success", "anonymous stream.create a3 success");
		}
	}

	/** Each record of a page as {@code user action target outcome [status]}. */
	private static List<String> summaries(JsonNode page) {
		return page.get("content")
			.valueStream()
			.map(record -> String.join(" ", record.get("user").asString(), record.get("action").asString(),
					record.get("target").asString(), record.get("outcome").asString())
					+ (record.has("status") ? " " + record.get("status").asInt() : ""))
			.toList();
	}

	private static String[] userArguments() {
		List<String> args = new ArrayList<>();
		USERS.forEach((name, roles) -> {
			args.add("--xd.security.users." + name + ".password={noop}" + name + "-secret");
			args.add("--xd.security.users." + name + ".roles=" + roles);
		});
		return args.toArray(String[]::new);
	}

	private static AdminApi as(AdminApi node, String user) {
		return node.as(user, user + "-secret");
	}
}
