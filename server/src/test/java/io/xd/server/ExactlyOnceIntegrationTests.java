package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka bus's transactional mode across processes: a ZooKeeper server, an admin and two containers forked from
 * the built jar with {@code xd.messagebus.kafka.transactional=true}; the container running a bridge is killed
 * (SIGKILL) mid-stream, the other takes the bridge over, and every sequence number comes out exactly once.
 */
class ExactlyOnceIntegrationTests {

	private static final Path LOGS = Path.of("target", "exactly-once-logs");

	@TempDir
	Path data;

	@RegisterExtension
	final XdProcesses processes = new XdProcesses(LOGS);

	@Test
	void aTransactionalBridgeKilledMidStreamDeliversEverySequenceNumberExactlyOnce() throws Exception {
		String brokers = SharedKafkaBroker.brokers();
		int zkPort = XdProcess.freePort();
		this.processes.zooKeeper("zookeeper", zkPort, this.data.resolve("zk"));
		List<String> common = List.of("--spring.config.import=", DistributedFailoverIntegrationTests.USER,
				DistributedFailoverIntegrationTests.USER_ROLES, "--zk.client.connect=127.0.0.1:" + zkPort,
				"--zk.sessionTimeout=4s", "--transport=kafka", "--xd.messagebus.kafka.brokers=" + brokers,
				"--xd.messagebus.kafka.transactional=true", "--logging.level.org.apache.kafka=WARN");
		int adminPort = XdProcess.freePort();
		XdProcess admin = this.processes.fork("admin", "admin", XdProcess.with(common, "--server.port=" + adminPort,
				"--xd.data.dir=" + this.data.resolve("admin"), "--xd.admin.reconcileInterval=1s",
				"--xd.admin.departureGracePeriod=1s"));
		List<XdProcess> containers = new ArrayList<>();
		for (String id : List.of("c1", "c2")) {
			containers.add(this.processes.fork(id, "container", XdProcess.with(common,
					"--server.port=0", "--xd.container.id=" + id,
					"--xd.data.dir=" + this.data.resolve(id))));
		}
		admin.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		containers.forEach(process -> process.awaitLog("Started XdApplication", Duration.ofSeconds(120)));
		AdminApi api = new AdminApi("http://127.0.0.1:" + adminPort).withCredentials("tester", "tester");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 2);

		// the sequence-stamped messages come from this test, paced over 5 s, so that none is made again when the
		// bridge is: each must come out of the bridge once, wherever it runs. The bridge sends synchronously, so that
		// it falls behind, its polls are full, and whenever it is killed the records it has forwarded since its last
		// commit are in the log: under at-least-once they would come out again (hundreds, in a run without
		// transactions), here their transaction is aborted
		int messages = 12_000;
		String in = "queue_3Aeos-in";
		ZooKeeperRestartIntegrationTests.createTopic(brokers, in);
		api.createStream("eos", "queue:eos-in > bridge > queue:eos-out", false);
		assertThat(api.postForm("/streams/deployments/eos", Map.of("properties",
				"module.bridge.producer.syncProducer=true")).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status("eos").equals("deployed"));
		List<String> before = DistributedFailoverIntegrationTests.hosts(api, "bridge");
		assertThat(before).hasSize(1);
		XdProcess victim = containers.stream().filter(process -> process.name().equals(before.get(0))).findFirst()
			.orElseThrow();
		CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> ZooKeeperRestartIntegrationTests.send(brokers,
				in, messages, Duration.ofSeconds(5)));

		try (SequenceReader reader = new SequenceReader(brokers, "queue_3Aeos-out", messages)) {
			assertThat(reader.readUntil(() -> reader.received() >= messages / 5, Duration.ofSeconds(60))).isTrue();
			long outAtKill = reader.received();
			long killedAt = System.nanoTime();
			victim.kill();
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				List<String> hosts = DistributedFailoverIntegrationTests.hosts(api, "bridge");
				return hosts.size() == 1 && !hosts.contains(victim.name());
			});
			Duration redeployed = Duration.ofNanos(System.nanoTime() - killedAt);

			sent.get(60, TimeUnit.SECONDS);
			boolean all = reader.readAll(Duration.ofSeconds(120));
			// what a duplicate would need to arrive: the last records' transactions, committed or aborted
			reader.readUntil(() -> false, Duration.ofSeconds(3));
			System.out.printf("Exactly once: %s SIGKILLed after %d messages out, bridge redeployed %d ms later; all %d "
					+ "sequence numbers out %d ms after the kill: %d received, %d distinct, %d duplicates%n",
					victim.name(), outAtKill, redeployed.toMillis(), messages,
					(System.nanoTime() - killedAt) / 1_000_000, reader.received(), reader.distinct(),
					reader.duplicates());
			if (!all) {
				System.out.println("Exactly once: missing sequence numbers " + reader.missingRanges());
			}
			if (reader.duplicates() > 0) {
				System.out.println("Exactly once: repeated sequence numbers " + reader.repeatedRanges());
			}
			assertThat(reader.distinct()).as("distinct sequence numbers received").isEqualTo(messages);
			assertThat(reader.duplicates()).as("sequence numbers received more than once").isZero();
			assertThat(reader.received()).isEqualTo(messages);
		}
	}

}
