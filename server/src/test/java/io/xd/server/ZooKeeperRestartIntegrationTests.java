package io.xd.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper killed (SIGKILL) and started again on the same port and data directory under a running singlenode and
 * under a running cluster: restarted within the session timeout (the singlenode's, 15 s here), sessions survive and
 * streams keep flowing; away for longer than it (the cluster's, the default 6 s), the containers stop their modules
 * when their sessions are lost and run them again once ZooKeeper is back, losing nothing. Either way the admin
 * answers and deploys again, and no module runs twice.
 */
class ZooKeeperRestartIntegrationTests {

	private static final Path LOGS = Path.of("target", "zookeeper-restart-logs");

	@TempDir
	Path data;

	@RegisterExtension
	final XdProcesses processes = new XdProcesses(LOGS);

	@Test
	void aSinglenodesStreamKeepsFlowingAndItsAdminRecoversWhenZooKeeperRestarts() {
		int zkPort = XdProcess.freePort();
		XdProcess zookeeper = this.processes.zooKeeper("sn-zookeeper-1", zkPort, this.data.resolve("zk"));
		int port = XdProcess.freePort();
		Path nodeData = this.data.resolve("node");
		XdProcess node = this.processes.fork("singlenode", "singlenode", List.of(
				"--spring.config.import=", "--server.port=" + port,
				"--xd.data.dir=" + nodeData, "--zk.client.connect=127.0.0.1:" + zkPort,
				// a session of 15 s and a lease of all of it: a ZooKeeper slow to start again on a busy machine (6 s
				// and more with the other integration tests beside it) must not make this test about the session or the
				// container's lease, which stops the modules after 4 s by default; the cluster test below is about them
				"--zk.sessionTimeout=15s", "--xd.container.leaseFraction=1",
				"--xd.modules.file.roots=" + this.data.resolve("out")));
		node.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		AdminApi api = AdminApi.local("http://127.0.0.1:" + port, nodeData);
		Path out = this.data.resolve("out");
		api.createStream("ticks", "time --fixedDelay=100 --timeUnit=MILLISECONDS | file --dir=" + out
				+ " --name=ticks", true);
		await().atMost(Duration.ofSeconds(30)).until(() -> lines(out.resolve("ticks.out")) >= 5);

		long beforeKill = lines(out.resolve("ticks.out"));
		long killedAt = System.nanoTime();
		zookeeper.kill();
		XdProcess.pause(Duration.ofSeconds(2));
		long duringOutage = lines(out.resolve("ticks.out")) - beforeKill;
		this.processes.zooKeeper("sn-zookeeper-2", zkPort, this.data.resolve("zk"));
		long away = (System.nanoTime() - killedAt) / 1_000_000;
		long afterRestart = lines(out.resolve("ticks.out"));
		System.out.printf("ZooKeeper restart under singlenode: away %d ms, %d lines written meanwhile%n", away,
				duringOutage);
		assertThat(duringOutage).as("lines written while ZooKeeper was away").isGreaterThanOrEqualTo(5);

		// the admin reconnects: it deploys a new stream, and the first is deployed once, not twice
		await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
			api.createStream("tocks", "time --fixedDelay=100 --timeUnit=MILLISECONDS | log", true);
			return true;
		});
		await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> api.status("tocks").equals("deployed"));
		assertThat(api.status("ticks")).isEqualTo("deployed");
		await().atMost(Duration.ofSeconds(10)).until(() -> lines(out.resolve("ticks.out")) >= afterRestart + 20);
		assertThat(moduleIds(api)).containsExactlyInAnyOrder("ticks.source.time.1", "ticks.sink.file.1",
				"tocks.source.time.1", "tocks.sink.log.1");
		assertThat(occurrences(node.log(), "Deployed module ticks.source.time.1")).isEqualTo(1);
		assertThat(occurrences(node.log(), "Deployed module ticks.sink.file.1")).isEqualTo(1);
	}

	@Test
	void aClustersStreamResumesLosingNothingWhenZooKeeperIsAwayLongerThanTheSessionTimeout() throws Exception {
		String brokers = SharedKafkaBroker.brokers();
		int zkPort = XdProcess.freePort();
		XdProcess zookeeper = this.processes.zooKeeper("cl-zookeeper-1", zkPort, this.data.resolve("zk"));
		List<String> common = List.of("--spring.config.import=", DistributedFailoverIntegrationTests.USER,
				DistributedFailoverIntegrationTests.USER_ROLES, "--zk.client.connect=127.0.0.1:" + zkPort,
				"--transport=kafka", "--xd.messagebus.kafka.brokers=" + brokers, "--logging.level.org.apache.kafka=WARN");
		int adminPort = XdProcess.freePort();
		XdProcess admin = this.processes.fork("admin", "admin", XdProcess.with(common,
				"--server.port=" + adminPort, "--xd.data.dir=" + this.data.resolve("admin")));
		XdProcess container = this.processes.fork("c1", "container", XdProcess.with(common, "--server.port=0",
				"--xd.container.id=c1", "--xd.data.dir=" + this.data.resolve("c1")));
		admin.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		container.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		AdminApi api = new AdminApi("http://127.0.0.1:" + adminPort).withCredentials("tester", "tester");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> api.get("/runtime/containers").json().get("content").size() == 1);

		// the sequence-stamped messages come from this test, paced over 15 s, so that none is made again when the
		// stream's modules are: every number must come out of the bridge, whatever ZooKeeper does meanwhile
		int messages = 60_000;
		String in = "queue_3Azkr-in";
		createTopic(brokers, in);
		api.createStream("zkr", "queue:zkr-in > bridge > queue:zkr-out", true);
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status("zkr").equals("deployed"));
		CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> send(brokers, in, messages,
				Duration.ofSeconds(15)));

		try (SequenceReader reader = new SequenceReader(brokers, "queue_3Azkr-out", messages)) {
			assertThat(reader.readUntil(() -> reader.received() >= messages / 5, Duration.ofSeconds(60))).isTrue();
			// away for 9 s, longer than the 6 s session timeout: every session is lost
			zookeeper.kill();
			long outAtKill = reader.received();
			reader.readUntil(() -> false, Duration.ofSeconds(3));
			long duringOutage = reader.received() - outAtKill;
			reader.readUntil(() -> false, Duration.ofSeconds(6));
			this.processes.zooKeeper("cl-zookeeper-2", zkPort, this.data.resolve("zk"));
			long restartedAt = System.nanoTime();

			sent.get(60, TimeUnit.SECONDS);
			assertThat(reader.readAll(Duration.ofSeconds(120))).as("every sequence number arrived").isTrue();
			System.out.printf("ZooKeeper restart under a cluster: %d messages out in the first 3 s it was away; all "
					+ "%d sequence numbers out %d ms after it was back, %d duplicates%n", duringOutage, messages,
					(System.nanoTime() - restartedAt) / 1_000_000, reader.duplicates());
			assertThat(duringOutage).as("messages out while ZooKeeper was away").isGreaterThan(1_000);
			// the bridge stopped with its session, committing what it had handled, and went on from there
			assertThat(container.log()).contains("Container c1 lost its ZooKeeper session");
			assertThat(reader.duplicates()).isLessThanOrEqualTo(500);
		}
		await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
			api.createStream("after", "time --fixedDelay=100 --timeUnit=MILLISECONDS | log", true);
			return true;
		});
		await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> api.status("after").equals("deployed"));
		assertThat(moduleIds(api)).containsExactlyInAnyOrder("zkr.processor.bridge.1", "after.source.time.1",
				"after.sink.log.1");
		// deployed again after the session was lost, never twice at a time
		assertThat(occurrences(container.log(), "Deployed module zkr.processor.bridge.1"))
			.isEqualTo(occurrences(container.log(), "Undeployed module zkr.processor.bridge.1") + 1);
	}

	/** Creates {@code topic} with one partition, for a test to send to before a stream's module reads it. */
	static void createTopic(String brokers, String topic) {
		try (Admin kafka = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers))) {
			kafka.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Sends {@code count} 64-byte records, each starting with its sequence number, evenly over {@code duration}. */
	static void send(String brokers, String topic, int count, Duration duration) {
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
				ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers, ProducerConfig.ACKS_CONFIG, "all"),
				new ByteArraySerializer(), new ByteArraySerializer())) {
			long start = System.nanoTime();
			long nanosEach = duration.toNanos() / count;
			for (int i = 0; i < count; i++) {
				long due = start + i * nanosEach;
				while (System.nanoTime() < due) {
					Thread.onSpinWait();
					if (due - System.nanoTime() > 1_000_000) {
						XdProcess.pause(Duration.ofMillis(1));
					}
				}
				producer.send(new ProducerRecord<>(topic, ByteBuffer.allocate(64).putInt(0, i).array()));
			}
			producer.flush();
		}
	}

	private static List<String> moduleIds(AdminApi api) {
		List<String> ids = new ArrayList<>();
		for (JsonNode module : api.get("/runtime/modules").json().get("content")) {
			ids.add(module.get("moduleId").asString());
		}
		return ids;
	}

	private static int occurrences(String text, String part) {
		return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
	}

	private static long lines(Path file) {
		try {
			return Files.exists(file) ? Files.readAllLines(file).size() : 0;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
