package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The distributed runtime as separate processes on loopback: a ZooKeeper server, one admin and three containers
 * forked from the built jar, modules talking through a real Kafka broker.
 */
class DistributedFailoverIntegrationTests {

	/** One user that every process of a cluster knows, as servers.yml would configure it. */
	static final String USER = "--xd.security.users.tester.password={noop}tester";

	static final String USER_ROLES = "--xd.security.users.tester.roles=VIEW,CREATE,DEPLOY,DESTROY,MANAGE";


	private static final int MESSAGES = 300_000;

	@TempDir
	Path data;

	@RegisterExtension
	final XdProcesses processes = XdProcesses.perTest(Path.of("target", "failover-logs"));

	@Test
	void redeploysAKilledContainersModuleElsewhereWithoutLosingAMessage() {
		failOver(true);
	}

	@Test
	void aContainerStoppedWithSigtermHandsOverWithoutLosingAMessage() {
		failOver(false);
	}

	/** Runs the stream, stops a bridge's container mid-stream (SIGKILL or SIGTERM), and checks what came out. */
	private void failOver(boolean kill) {
		String brokers = SharedKafkaBroker.brokers();
		int zkPort = XdProcess.freePort();
		XdProcess zookeeper = this.processes.zooKeeper("zookeeper", zkPort, this.data.resolve("zk"));

		List<String> common = List.of("--spring.config.import=", USER, USER_ROLES, "--zk.client.connect=127.0.0.1:" + zkPort,
				"--zk.sessionTimeout=4s", "--transport=kafka", "--xd.messagebus.kafka.brokers=" + brokers,
				"--xd.container.rateInterval=1s", "--logging.level.org.apache.kafka=WARN",
				"--logging.level.io.xd.bus.kafka.StaleEpochCommitRetry=DEBUG");
		int adminPort = XdProcess.freePort();
		XdProcess admin = this.processes.fork("admin", "admin", XdProcess.with(common, "--server.port=" + adminPort,
				"--xd.data.dir=" + this.data.resolve("admin"), "--xd.admin.reconcileInterval=1s",
				"--xd.admin.departureGracePeriod=1s"));
		Map<String, XdProcess> containers = new HashMap<>();
		for (String id : List.of("c1", "c2", "c3")) {
			containers.put(id, this.processes.fork(id, "container", XdProcess.with(common,
					"--server.port=0", "--xd.container.id=" + id,
					"--xd.data.dir=" + this.data.resolve(id), "--groups", id.equals("c1") ? "source" : "worker")));
		}
		admin.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		containers.values().forEach(process -> process.awaitLog("Started XdApplication", Duration.ofSeconds(120)));
		AdminApi api = new AdminApi("http://127.0.0.1:" + adminPort).withCredentials("tester", "tester");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 3);

		// a stream (and so topics and consumer groups) of its own per test: the tests share one broker. Two bridges:
		// on c1 and c2 (the least loaded, ties broken by id), the generator on c1 by its criteria; paced, so that
		// records still arrive on the stopped bridge's partition when it stops (15 s in all)
		String stream = kill ? "killed" : "stopped";
		api.createStream(stream, "load-generator --messageCount=" + MESSAGES + " --rate=" + (MESSAGES / 15)
				+ " --messageSize=64 --generateTimestamp=true | bridge > queue:" + stream + "-out", false);
		assertThat(api.postForm("/streams/deployments/" + stream, Map.of("properties",
				"module.load-generator.criteria=groups.contains('source'),module.bridge.count=2")).status())
			.isEqualTo(201);
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status(stream).equals("deployed"));
		assertThat(hosts(api, "bridge")).containsExactlyInAnyOrder("c1", "c2");

		// mid-stream: once a fifth of the messages has come out and c2's bridge is busy with its partition, stop c2
		AdminApi c2 = actuator(containers.get("c2"));
		try (SequenceReader reader = new SequenceReader(brokers, "queue_3A" + stream + "-out", MESSAGES)) {
			long[] handledByC2 = { 0 };
			reader.readUntil(() -> reader.received() >= MESSAGES / 5
					&& (handledByC2[0] = messagesIn(c2, "bridge")) >= 5_000, Duration.ofSeconds(120));
			assertThat(reader.received()).as("messages out before the stop").isGreaterThanOrEqualTo(MESSAGES / 5);
			assertThat(handledByC2[0]).as("messages c2's bridge handled before the stop").isGreaterThanOrEqualTo(5_000);
			assertThat(reader.received()).as("messages out before the stop").isLessThan(MESSAGES * 9 / 10);
			long killedAt = System.nanoTime();
			if (kill) {
				containers.get("c2").kill();
			}
			else {
				containers.get("c2").close();
			}

			await().atMost(Duration.ofSeconds(30)).until(() -> hosts(api, "bridge").contains("c3"));
			Duration redeployed = Duration.ofNanos(System.nanoTime() - killedAt);

			reader.readAll(Duration.ofSeconds(180));
			System.out.printf("Failover: bridge redeployed on c3 %d ms after %s of c2 (it had handled %d messages); "
					+ "%d of %d sequence numbers received, %d duplicates%n", redeployed.toMillis(),
					kill ? "SIGKILL" : "SIGTERM", handledByC2[0], reader.distinct(), MESSAGES, reader.duplicates());
			if (reader.duplicates() > 0) {
				System.out.println("Failover: repeated sequence numbers " + reader.repeatedRanges());
			}
			assertThat(redeployed).isLessThan(Duration.ofSeconds(15));
			// the surviving container's Prometheus endpoint shows its modules' meters, tagged by stream and module
			String metrics = actuator(containers.get("c1")).get("/actuator/prometheus").body();
			assertThat(metrics).contains("xd_module_messages_out_total{instance=\"1\",module=\"load-generator\","
					+ "stream=\"" + stream + "\",type=\"source\"}", "xd_module_messages_in_total{instance=\"1\","
							+ "module=\"bridge\",stream=\"" + stream + "\",type=\"processor\"}");
			assertThat(reader.distinct()).as("distinct sequence numbers received").isEqualTo(MESSAGES);
			if (kill) {
				// the pipe got a partition per bridge instance (count=2): after a crash at most a poll's records
				// (max.poll.records = 2 000) and, behind a backlog, a commit interval's (100 ms, 1 000 records at
				// 10 000 a second per partition) per partition come twice
				assertThat(reader.duplicates()).isLessThanOrEqualTo(2 * (2_000 + 1_000));
			}
			else {
				// a clean stop commits everything its bridge handled before its partition moves on
				assertThat(reader.duplicates()).isZero();
			}
		}
	}

	@Test
	void anotherAdminTakesOverWhenTheLeaderDiesDuringADeploymentAndDeploysTheStreamOnce() {
		String brokers = SharedKafkaBroker.brokers();
		int zkPort = XdProcess.freePort();
		this.processes.zooKeeper("zookeeper", zkPort, this.data.resolve("zk"));
		List<String> common = List.of("--spring.config.import=", USER, USER_ROLES, "--zk.client.connect=127.0.0.1:" + zkPort,
				"--zk.sessionTimeout=4s", "--transport=kafka", "--xd.messagebus.kafka.brokers=" + brokers,
				"--logging.level.org.apache.kafka=WARN");
		int leaderPort = XdProcess.freePort();
		XdProcess leader = this.processes.fork("admin1", "admin", XdProcess.with(common, "--server.port=" + leaderPort,
				"--xd.data.dir=" + this.data.resolve("admin1"), "--xd.admin.reconcileInterval=1s"));
		leader.awaitLog("is now the leader", Duration.ofSeconds(120));
		int followerPort = XdProcess.freePort();
		XdProcess follower = this.processes.fork("admin2", "admin", XdProcess.with(common,
				"--server.port=" + followerPort,
				"--xd.data.dir=" + this.data.resolve("admin2"), "--xd.admin.reconcileInterval=1s"));
		XdProcess container = this.processes.fork("c1", "container", XdProcess.with(common,
				"--server.port=0", "--xd.container.id=c1",
				"--xd.data.dir=" + this.data.resolve("c1")));
		follower.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		container.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		assertThat(follower.log()).doesNotContain("is now the leader");
		AdminApi api = new AdminApi("http://127.0.0.1:" + followerPort).withCredentials("tester", "tester");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 1);

		// the follower takes the request; the leader, which would act on it, dies at once
		api.createStream("once", "time --fixedDelay=1 | bridge | log", false);
		assertThat(api.postForm("/streams/deployments/once", Map.of()).status()).isEqualTo(201);
		leader.kill();

		follower.awaitLog("is now the leader", Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status("once").equals("deployed"));
		List<String> modules = new ArrayList<>();
		api.get("/runtime/modules").json().get("content").forEach(module -> modules.add(module.get("moduleId")
			.asString()));
		assertThat(modules).containsExactlyInAnyOrder("once.source.time.1", "once.processor.bridge.1",
				"once.sink.log.1");
		assertThat(container.log().split("Deployed module once.source.time.1", -1)).hasSize(2);

		// a stream asking for more instances than there are containers is incomplete until a container joins
		api.createStream("wider", "time --fixedDelay=1 | log", false);
		api.postForm("/streams/deployments/wider", Map.of("properties", "module.log.count=2"));
		await().atMost(Duration.ofSeconds(30)).until(() -> api.status("wider").equals("incomplete"));
		this.processes.fork("c2", "container", XdProcess.with(common, "--server.port=0", "--xd.container.id=c2",
				"--xd.data.dir=" + this.data.resolve("c2")))
			.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		await().atMost(Duration.ofSeconds(30)).until(() -> api.status("wider").equals("deployed"));
		assertThat(api.get("/runtime/modules?moduleId=wider.sink.log.2").json().get("content").get(0)
			.get("containerId").asString()).isEqualTo("c2");
	}

	@Test
	void scalingAProcessorUpAndDownWhileMessagesFlowLosesNone() {
		String brokers = SharedKafkaBroker.brokers();
		int zkPort = XdProcess.freePort();
		this.processes.zooKeeper("zookeeper", zkPort, this.data.resolve("zk"));
		List<String> common = List.of("--spring.config.import=", USER, USER_ROLES, "--zk.client.connect=127.0.0.1:"
				+ zkPort, "--transport=kafka", "--xd.messagebus.kafka.brokers=" + brokers,
				"--xd.container.rateInterval=1s", "--logging.level.org.apache.kafka=WARN");
		int adminPort = XdProcess.freePort();
		XdProcess admin = this.processes.fork("admin", "admin", XdProcess.with(common, "--server.port=" + adminPort,
				"--xd.data.dir=" + this.data.resolve("admin"), "--xd.admin.reconcileInterval=1s"));
		List<XdProcess> containers = new ArrayList<>();
		for (String id : List.of("c1", "c2", "c3")) {
			containers.add(this.processes.fork(id, "container", XdProcess.with(common,
					"--server.port=0", "--xd.container.id=" + id,
					"--xd.data.dir=" + this.data.resolve(id), "--groups", id.equals("c1") ? "source" : "worker")));
		}
		admin.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		containers.forEach(process -> process.awaitLog("Started XdApplication", Duration.ofSeconds(120)));
		AdminApi api = new AdminApi("http://127.0.0.1:" + adminPort).withCredentials("tester", "tester");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 3);

		// 20 s of paced, sequence-stamped messages through one bridge, scaled to 3 and back to 1 meanwhile
		int messages = 100_000;
		api.createStream("scaled", "load-generator --messageCount=" + messages + " --rate=" + (messages / 20)
				+ " --messageSize=64 --generateTimestamp=true | bridge > queue:scaled-out", false);
		assertThat(api.postForm("/streams/deployments/scaled", Map.of("properties",
				"module.load-generator.criteria=groups.contains('source')")).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status("scaled").equals("deployed"));
		assertThat(hosts(api, "bridge")).hasSize(1);

		try (SequenceReader reader = new SequenceReader(brokers, "queue_3Ascaled-out", messages)) {
			reader.readUntil(() -> reader.received() >= messages / 5, Duration.ofSeconds(60));
			assertThat(api.postForm("/streams/deployments/scale/scaled/bridge/instances/3", Map.of()).status())
				.isEqualTo(200);
			// reading on while waiting, so that the stream is not held up by an unread topic
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
				.until(() -> reader.readUntil(() -> hosts(api, "bridge").size() == 3, Duration.ofMillis(50)));
			long whenScaledUp = reader.received();
			reader.readUntil(() -> reader.received() >= whenScaledUp + messages / 10, Duration.ofSeconds(60));
			assertThat(api.postForm("/streams/deployments/scale/scaled/bridge/instances/1", Map.of()).status())
				.isEqualTo(200);
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
				.until(() -> reader.readUntil(() -> hosts(api, "bridge").size() == 1, Duration.ofMillis(50)));
			long whenScaledDown = reader.received();

			reader.readAll(Duration.ofSeconds(120));
			System.out.printf("Scaling: bridge 1 -> 3 after %d messages out, 3 -> 1 after %d; %d of %d sequence "
					+ "numbers received, %d duplicates%n", whenScaledUp, whenScaledDown, reader.distinct(), messages,
					reader.duplicates());
			assertThat(whenScaledDown).as("messages were flowing while the bridge was scaled down")
				.isLessThan(messages);
			assertThat(reader.distinct()).as("distinct sequence numbers received").isEqualTo(messages);
			// each rebalance may hand a partition over with at most a poll (2 000 records) and, behind a backlog, a
			// commit interval (100 ms, 500 records at 5 000 a second) handled but not committed
			assertThat(reader.duplicates()).isLessThanOrEqualTo(4 * (2_000 + 500));
		}
	}

	/** The HTTP endpoint of a container, from the port it logged at start-up. */
	private static AdminApi actuator(XdProcess container) {
		Matcher port = Pattern.compile("Tomcat started on port (\\d+)").matcher(container.log());
		assertThat(port.find()).as("the container logged its port").isTrue();
		return new AdminApi("http://127.0.0.1:" + port.group(1)).withCredentials("tester", "tester");
	}

	/** What a container's Prometheus endpoint says a module (of any instance) has taken in; 0 before it shows. */
	private static long messagesIn(AdminApi container, String module) {
		Matcher value = Pattern.compile("xd_module_messages_in_total\\{[^}]*module=\"" + Pattern.quote(module)
				+ "\"[^}]*\\} (\\S+)").matcher(container.get("/actuator/prometheus").body());
		return value.find() ? (long) Double.parseDouble(value.group(1)) : 0;
	}

	/** The containers where an instance of the processor {@code label} is deployed. */
	static List<String> hosts(AdminApi api, String label) {
		List<String> hosts = new ArrayList<>();
		for (JsonNode module : api.get("/runtime/modules").json().get("content")) {
			if (module.get("moduleId").asString().contains(".processor." + label + ".")
					&& "deployed".equals(module.path("deploymentStatus").asString())) {
				hosts.add(module.get("containerId").asString());
			}
		}
		return hosts;
	}

}
