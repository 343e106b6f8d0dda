package io.xd.server;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Failover with the default settings ({@code zk.sessionTimeout}, {@code xd.admin.departureGracePeriod}): a container
 * killed with SIGKILL has its module running elsewhere in under 15 s, five times over; a container paused for 2 s
 * (SIGSTOP, SIGCONT: a long GC pause) is not taken for departed.
 */
class FailoverDefaultsIntegrationTests {

	private static final int RUNS = 5;

	@TempDir
	Path data;

	@RegisterExtension
	final XdProcesses processes = new XdProcesses(Path.of("target", "failover-logs", "defaults"));

	private List<String> common;

	@Test
	void aKilledContainersModuleRunsElsewhereWithinFifteenSecondsAndAPauseOfTwoSecondsMovesNothing()
			throws IOException, InterruptedException {
		int zkPort = XdProcess.freePort();
		this.processes.zooKeeper("zookeeper", zkPort, this.data.resolve("zk"));
		// nothing about sessions or grace periods: the defaults are what is measured
		this.common = List.of("--spring.config.import=", DistributedFailoverIntegrationTests.USER,
				DistributedFailoverIntegrationTests.USER_ROLES, "--zk.client.connect=127.0.0.1:" + zkPort,
				"--transport=kafka", "--xd.messagebus.kafka.brokers=" + SharedKafkaBroker.brokers(),
				"--logging.level.org.apache.kafka=WARN");
		int adminPort = XdProcess.freePort();
		XdProcess admin = this.processes.fork("admin", "admin", with("--server.port=" + adminPort,
				"--xd.data.dir=" + this.data.resolve("admin")));
		XdProcess keeper = container("keeper", "keep");
		List<XdProcess> spares = new ArrayList<>(List.of(container("c0", "spare"), container("c1", "spare")));
		admin.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		keeper.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		spares.forEach(spare -> spare.awaitLog("Started XdApplication", Duration.ofSeconds(120)));
		AdminApi api = new AdminApi("http://127.0.0.1:" + adminPort).withCredentials("tester", "tester");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 3);

		api.createStream("moved", "time --fixedDelay=1 | log", false);
		assertThat(api.postForm("/streams/deployments/moved", Map.of("properties",
				"module.time.criteria=groups.contains('keep'),module.log.criteria=groups.contains('spare')")).status())
			.isEqualTo(201);
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status("moved").equals("deployed"));

		// a 2 s pause of the log's container: its session outlives it, nothing moves
		String pausedHost = logHost(api);
		XdProcess paused = spares.stream().filter(spare -> spare.name().equals(pausedHost)).findFirst().orElseThrow();
		signal(paused, "STOP");
		Thread.sleep(2_000);
		signal(paused, "CONT");
		Thread.sleep(10_000);
		assertThat(logHost(api)).as("the module stays on the paused container").isEqualTo(pausedHost);
		assertThat(admin.log()).doesNotContain("Container " + pausedHost + " left");

		List<Long> failovers = new ArrayList<>();
		for (int run = 0; run < RUNS; run++) {
			String host = logHost(api);
			XdProcess victim = spares.stream().filter(spare -> spare.name().equals(host)).findFirst().orElseThrow();
			// the next run's target is up before this run's kill
			XdProcess next = container("c" + (run + 2), "spare");
			next.awaitLog("Started XdApplication", Duration.ofSeconds(120));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> api.get("/runtime/containers").json().get("content").size() == 4);
			long killedAt = System.nanoTime();
			victim.kill();
			spares.remove(victim);
			spares.add(next);
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
				.until(() -> !logHost(api).equals(host) && api.status("moved").equals("deployed"));
			failovers.add((System.nanoTime() - killedAt) / 1_000_000);
		}
		System.out.println("Failover with defaults: module running elsewhere " + failovers
				+ " ms after SIGKILL of its container");
		assertThat(failovers).allSatisfy(millis -> assertThat(millis).isLessThan(15_000));
	}

	private String logHost(AdminApi api) {
		var content = api.get("/runtime/modules?moduleId=moved.sink.log.1").json().get("content");
		if (content.isEmpty() || !content.get(0).get("deploymentStatus").asString().equals("deployed")) {
			return "";
		}
		return content.get(0).get("containerId").asString();
	}

	private XdProcess container(String id, String group) {
		return this.processes.fork(id, "container", with("--server.port=0", "--xd.container.id=" + id,
				"--xd.data.dir=" + this.data.resolve(id), "--groups", group));
	}

	private static void signal(XdProcess process, String signal) throws IOException, InterruptedException {
		assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor())
			.isZero();
	}

	private List<String> with(String... args) {
		List<String> all = new ArrayList<>(this.common == null ? List.of() : this.common);
		all.addAll(List.of(args));
		return all;
	}

}
