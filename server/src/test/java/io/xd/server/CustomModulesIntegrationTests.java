package io.xd.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.xd.modules.internal.TestJars;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Custom modules through a singlenode's REST API: uploaded jars run in streams, survive a restart, are listed beside
 * the built-in modules, and bad uploads are refused with a reason and leave nothing behind.
 */
class CustomModulesIntegrationTests {

	@TempDir
	Path data;

	@TempDir
	Path work;

	@Test
	void anUploadedProcessorRunsInAStreamAndStillDeploysAfterARestart() throws Exception {
		Path jar = TestJars.suffixProcessor().writeTo(this.work.resolve("suffix.jar"));
		Path out = this.work.resolve("out");
		try (SingleNode node = new SingleNode(this.data, "--xd.modules.file.roots=" + out)) {
			AdminApi.Response upload = upload(node, "processor", "shout", jar);
			assertThat(upload.status()).as(upload.body()).isEqualTo(201);
			assertThat(upload.json().get("custom").asBoolean()).isTrue();
			assertThat(upload.json().get("sha256").asString()).hasSize(64);

			JsonNode list = node.get("/modules?type=processor&size=100").json().get("content");
			assertThat(list.findValuesAsString("name")).contains("shout", "transform");
			for (JsonNode module : list) {
				assertThat(module.get("custom").asBoolean()).as(module.toString())
					.isEqualTo(module.get("name").asString().equals("shout"));
			}
			JsonNode info = node.get("/modules/processor/shout").json();
			assertThat(info.get("options").get(0).get("name").asString()).isEqualTo("suffix");

			AdminApi.Response badOption = node.createStream("bad", "time | shout --nope=1 | log", false);
			assertThat(badOption.status()).isEqualTo(400);
			assertThat(badOption.body()).contains("unknown option 'nope'").contains("valid options are inputType, outputType, suffix");

			assertThat(node.createStream("ticks", "time | shout --suffix=!! | file --dir=" + out + " --name=ticks",
					true).status()).isEqualTo(201);
			awaitLines(out.resolve("ticks.out"), 1);
			assertThat(Files.readAllLines(out.resolve("ticks.out"))).allMatch(line -> line.endsWith("!!"));

			AdminApi.Response inUse = node.delete("/modules/processor/shout");
			assertThat(inUse.status()).isEqualTo(409);
			assertThat(inUse.body()).contains("ModuleInUseException").contains("deployed streams ticks");
		}

		Files.deleteIfExists(out.resolve("ticks.out"));
		try (SingleNode node = new SingleNode(this.data, "--xd.modules.file.roots=" + out)) {
			await().atMost(Duration.ofSeconds(30)).until(() -> node.status("ticks").equals("deployed"));
			awaitLines(out.resolve("ticks.out"), 1);
			assertThat(Files.readAllLines(out.resolve("ticks.out"))).allMatch(line -> line.endsWith("!!"));
			assertThat(node.get("/modules/processor/shout").json().get("custom").asBoolean()).isTrue();

			assertThat(node.delete("/modules/processor/shout?force=true").status()).isEqualTo(200);
			assertThat(node.get("/modules/processor/shout").status()).isEqualTo(404);
			assertThat(node.createStream("again", "time | shout | log", false).status()).isEqualTo(400);
		}
	}

	@Test
	void twoCustomModulesBundlingDifferentVersionsOfALibraryRunSideBySide() throws Exception {
		Path out = this.work.resolve("out");
		try (SingleNode node = new SingleNode(this.data, "--xd.modules.file.roots=" + out)) {
			assertThat(upload(node, "processor", "v1", TestJars.suffixProcessor("1.0").writeTo(this.work.resolve("1.jar")))
				.status()).isEqualTo(201);
			assertThat(upload(node, "processor", "v2", TestJars.suffixProcessor("2.0").writeTo(this.work.resolve("2.jar")))
				.status()).isEqualTo(201);

			node.createStream("both", "time | v1 | v2 | file --dir=" + out + " --name=both", true);

			awaitLines(out.resolve("both.out"), 1);
			assertThat(Files.readAllLines(out.resolve("both.out"))).allMatch(line -> line.endsWith("-1.0-2.0"));
		}
	}

	@Test
	void refusesBadUploadsWithAReasonAndWritesNothingOutsideTheRepository() throws Exception {
		Path good = TestJars.suffixProcessor().writeTo(this.work.resolve("good.jar"));
		try (SingleNode node = new SingleNode(this.data, "--xd.modules.max-upload-size=1MB",
				"--xd.modules.max-expanded-size=3MB", "--xd.modules.load-timeout=2s")) {
			// an encoded slash stops at Spring Security's firewall; the name check would refuse it too
			assertRefused(node, "/modules/processor/..%2Fescaped", good, 400, "potentially malicious String \"%2F\"");
			assertRefused(node, "/modules/processor/%2Ftmp%2Fescaped", good, 400, "potentially malicious String");
			assertRefused(node, "/modules/processor/..escaped", good, 400, "Invalid module name '..escaped'");
			assertRefused(node, "/modules/processor/" + "x".repeat(65), good, 400, "Invalid module name");
			assertRefused(node, "/modules/processor/a.jar", good, 400, "Invalid module name");
			assertRefused(node, "/modules/processor/a%00b", "application/octet-stream", good, 400);
			assertRefused(node, "/modules/processor/a%20b", good, 400, "Invalid module name 'a b'");
			assertRefused(node, "/modules/widget/x", good, 400, "Unknown module type 'widget'");
			assertRefused(node, "/modules/processor/transform", good, 409, "There is a built-in module");

			Path text = Files.writeString(this.work.resolve("text.jar"), "not a jar");
			assertRefused(node, "/modules/processor/x", text, 400, "not a jar");
			Path big = Files.write(this.work.resolve("big.jar"), new byte[1024 * 1024 + 1]);
			assertRefused(node, "/modules/processor/x", big, 413, "larger than 1048576 bytes");
			Path bomb = TestJars.suffixProcessor()
				.withResource("zeros.bin", new byte[4 * 1024 * 1024])
				.writeTo(this.work.resolve("bomb.jar"));
			assertRefused(node, "/modules/processor/x", bomb, 400, "possible zip bomb");
			Path climbing = TestJars.suffixProcessor()
				.withResource("../../escaped.sh", new byte[1])
				.writeTo(this.work.resolve("climbing.jar"));
			assertRefused(node, "/modules/processor/x", climbing, 400, "unsafe name ('../../escaped.sh')");
			assertRefused(node, "/modules/processor/x", TestJars.failingToLoad().writeTo(this.work.resolve("f.jar")),
					400, "no licence key");
			assertRefused(node, "/modules/processor/x",
					TestJars.failingInMetadata().writeTo(this.work.resolve("m.jar")), 400, "metadata unavailable");
			assertRefused(node, "/modules/processor/x",
					TestJars.hangingInMetadata().writeTo(this.work.resolve("h.jar")), 400, "within PT2S");
			assertRefused(node, "/modules/sink/x", good, 400, "is a processor, but it was uploaded as a sink");
			assertRefused(node, "/modules/processor/x", "text/plain", good, 415);

			assertThat(upload(node, "processor", "x", good).status()).isEqualTo(201);
			AdminApi.Response jar = node.get("/modules/processor/x/jar");
			assertThat(jar.status()).as("a jar without the cluster's token").isEqualTo(403);
			assertRefused(node, "/modules/processor/x", good, 409, "already a custom module processor:x");
			assertThat(node.send(request(node, "/modules/processor/x?force=true", good)).status()).isEqualTo(201);
		}
		try (Stream<Path> files = Files.walk(this.data.resolve("modules"))) {
			assertThat(files.filter(Files::isRegularFile)).containsExactly(
					this.data.resolve("modules").resolve("processor").resolve("x.jar"));
		}
		try (Stream<Path> files = Files.walk(this.data.getParent(), 3)) {
			assertThat(files.filter(file -> file.getFileName().toString().startsWith("escaped"))).isEmpty();
		}
	}

	@Test
	void aModuleUploadedToAnotherAdminIsFetchedRegisteredAndDeletedHereToo() throws Exception {
		int zkPort = XdProcess.freePort();
		Path out = this.work.resolve("out");
		// the embedded ZooKeeper's znodes carry ACLs: the other admin joins with the same ZooKeeper credentials
		String[] zkAuth = { "--zk.auth.username=xd", "--zk.auth.password=shared-secret" };
		try (SingleNode node = new SingleNode(this.data, "--zk.embedded.server-port=" + zkPort, zkAuth[0], zkAuth[1],
				"--xd.modules.file.roots=" + out);
				ConfigurableApplicationContext other = new SpringApplicationBuilder(XdApplication.class).profiles("admin")
					.run("--server.port=0", "--xd.data.dir=" + this.work.resolve("other-admin"),
							"--zk.client.connect=127.0.0.1:" + zkPort, "--spring.config.import=", zkAuth[0], zkAuth[1])) {
			AdminApi otherAdmin = AdminApi.local("http://127.0.0.1:" + other.getEnvironment().getProperty("local.server.port"),
					this.work.resolve("other-admin"));
			Path jar = TestJars.suffixProcessor("9").writeTo(this.work.resolve("suffix.jar"));
			assertThat(upload(otherAdmin, "processor", "elsewhere", jar).status()).isEqualTo(201);

			await().atMost(Duration.ofSeconds(20))
				.until(() -> node.get("/modules/processor/elsewhere").status() == 200);
			assertThat(this.data.resolve("modules/processor/elsewhere.jar")).isRegularFile();
			node.createStream("fetched", "time | elsewhere | file --dir=" + out + " --name=fetched", true);
			awaitLines(out.resolve("fetched.out"), 1);
			assertThat(Files.readAllLines(out.resolve("fetched.out"))).allMatch(line -> line.endsWith("-9"));

			assertThat(otherAdmin.delete("/modules/processor/elsewhere?force=true").status()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> node.get("/modules/processor/elsewhere").status() == 404);
			assertThat(this.data.resolve("modules/processor/elsewhere.jar")).doesNotExist();
		}
	}

	@Test
	void registersAModuleByMavenCoordinatesFromTheConfiguredRepository() throws Exception {
		Path remote = this.work.resolve("remote");
		Path artifact = Files.createDirectories(remote.resolve("com/example/suffix/1.0.0"));
		Path jar = TestJars.suffixProcessor("1.0.0").writeTo(artifact.resolve("suffix-1.0.0.jar"));
		// a repository serves checksums, and the resolver refuses an artifact without one
		Files.writeString(artifact.resolve("suffix-1.0.0.jar.sha1"),
				HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(Files.readAllBytes(jar))));
		try (SingleNode node = new SingleNode(this.data,
				"--xd.modules.maven.remote-repositories.test.url=" + remote.toUri(),
				"--xd.modules.maven.local-repository=" + this.work.resolve("local"))) {
			AdminApi.Response registered = node.postForm("/modules/processor/from-maven",
					Map.of("uri", "maven://com.example:suffix:1.0.0"));
			assertThat(registered.status()).as(registered.body()).isEqualTo(201);
			assertThat(registered.json().get("custom").asBoolean()).isTrue();
			assertThat(node.createStream("maven", "time | from-maven | log", false).status()).isEqualTo(201);

			AdminApi.Response missing = node.postForm("/modules/processor/other",
					Map.of("uri", "maven://com.example:absent:1.0.0"));
			assertThat(missing.status()).isEqualTo(400);
			assertThat(missing.json().get(0).get("message").asString())
				.startsWith("Could not resolve maven://com.example:absent:1.0.0");
			for (String uri : List.of("maven://com.example:../../etc:1.0", "maven://com.example:suffix",
					"https://example.com/suffix.jar", "maven://com.example:suffix:[1.0,2.0)")) {
				AdminApi.Response invalid = node.postForm("/modules/processor/other", Map.of("uri", uri));
				assertThat(invalid.status()).as(uri).isEqualTo(400);
			}
			assertThat(this.work.resolve("local").resolve("com/example/suffix/1.0.0/suffix-1.0.0.jar")).isRegularFile();
		}
	}

	private static AdminApi.Response upload(AdminApi node, String type, String name, Path jar) throws IOException {
		return node.send(request(node, "/modules/" + type + "/" + name, jar));
	}

	private static HttpRequest.Builder request(AdminApi node, String path, Path jar) throws IOException {
		return request(node, path, "application/octet-stream", jar);
	}

	private static HttpRequest.Builder request(AdminApi node, String path, String contentType, Path jar)
			throws IOException {
		return HttpRequest.newBuilder(URI.create(node.baseUri() + path))
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofByteArray(Files.readAllBytes(jar)));
	}

	private static void assertRefused(AdminApi node, String path, Path jar, int status, String reason)
			throws IOException {
		AdminApi.Response response = node.send(request(node, path, jar));
		assertThat(response.status()).as(path + " " + response.body()).isEqualTo(status);
		assertThat(response.json().get(0).get("message").asString()).contains(reason);
	}

	private static void assertRefused(AdminApi node, String path, String contentType, Path jar, int status)
			throws IOException {
		assertThat(node.send(request(node, path, contentType, jar)).status()).isEqualTo(status);
	}

	private static void awaitLines(Path file, int count) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8).size() >= count);
	}
}
