package io.xd.server;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.xd.testsupport.SharedKafkaBroker;
import io.xd.modules.internal.TestJars;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A custom module in the distributed runtime: a ZooKeeper server, an admin and two containers forked from the built
 * jar, on Kafka. The jar is uploaded to the admin only; the container that runs the module fetches it over HTTP.
 */
class DistributedCustomModulesIntegrationTests {

	@TempDir
	Path data;

	@RegisterExtension
	// the shipped form, xd.jar with its libraries nested, which a custom module's class loader sees (the other
	// multi-process tests run the extracted one)
	final XdProcesses processes = XdProcesses.packedJar(Path.of("target", "custom-module-logs"));

	@Test
	void aContainerFetchesAnUploadedModuleFromTheAdminAndRunsIt() throws Exception {
		int zkPort = XdProcess.freePort();
		this.processes.zooKeeper("zookeeper", zkPort, this.data.resolve("zk"));
		List<String> common = List.of("--spring.config.import=", "--zk.client.connect=127.0.0.1:" + zkPort,
				"--transport=kafka", "--xd.messagebus.kafka.brokers=" + SharedKafkaBroker.brokers(),
				"--logging.level.org.apache.kafka=WARN", "--xd.modules.file.roots=" + this.data.resolve("out"));
		int adminPort = XdProcess.freePort();
		XdProcess admin = this.processes.fork("admin", "admin", XdProcess.with(common, "--server.port=" + adminPort,
				"--xd.data.dir=" + this.data.resolve("admin"), "--xd.admin.reconcileInterval=1s"));
		XdProcess c1 = this.processes.fork("c1", "container", XdProcess.with(common,
				"--server.port=0", "--xd.container.id=c1",
				"--xd.data.dir=" + this.data.resolve("c1"), "--groups", "source"));
		XdProcess c2 = this.processes.fork("c2", "container", XdProcess.with(common,
				"--server.port=0", "--xd.container.id=c2",
				"--xd.data.dir=" + this.data.resolve("c2"), "--groups", "worker"));
		for (XdProcess process : List.of(admin, c1, c2)) {
			process.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		}
		AdminApi api = AdminApi.local("http://127.0.0.1:" + adminPort, this.data.resolve("admin"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 2);

		Path jar = TestJars.suffixProcessor("7").writeTo(this.data.resolve("suffix.jar"));
		AdminApi.Response upload = api.send(HttpRequest.newBuilder(URI.create(api.baseUri() + "/modules/processor/seven"))
			.header("Content-Type", "application/octet-stream")
			.POST(HttpRequest.BodyPublishers.ofFile(jar)));
		assertThat(upload.status()).as(upload.body()).isEqualTo(201);
		String sha256 = upload.json().get("sha256").asString();

		Path out = this.data.resolve("out");
		api.createStream("remote", "time | seven | file --dir=" + out + " --name=remote", false);
		assertThat(api.postForm("/streams/deployments/remote", Map.of("properties",
				"module.time.criteria=groups.contains('source'),module.seven.criteria=groups.contains('worker'),"
						+ "module.file.criteria=groups.contains('worker')"))
			.status()).isEqualTo(201);

		await().atMost(Duration.ofSeconds(60))
			.until(() -> Files.exists(out.resolve("remote.out")) && !Files.readAllLines(out.resolve("remote.out")).isEmpty());
		assertThat(Files.readAllLines(out.resolve("remote.out"))).allMatch(line -> line.endsWith("-7"));
		assertThat(c2.log()).contains("Fetched module processor:seven");
		assertThat(this.data.resolve("c2").resolve("module-cache").resolve(sha256 + ".jar")).isRegularFile();
		assertThat(this.data.resolve("c1").resolve("module-cache")).doesNotExist();
	}

}
