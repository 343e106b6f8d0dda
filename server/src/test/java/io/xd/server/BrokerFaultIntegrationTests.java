package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka broker killed (SIGKILL) under a running stream and started again: a broker, a singlenode on the Kafka
 * transport and this test's reader are three processes on loopback.
 */
class BrokerFaultIntegrationTests {

	private static final Path LOGS = Path.of("target", "broker-fault-logs");

	private static final int MESSAGES = 100_000;

	@TempDir
	Path data;

	private ForkedKafkaBroker broker;

	private XdProcess node;

	@AfterEach
	void stop() {
		if (this.node != null) {
			this.node.close();
		}
		if (this.broker != null) {
			this.broker.close();
		}
	}

	@Test
	void aStreamResumesByItselfAfterTheBrokerIsKilledAndEveryMessageArrives() {
		this.broker = new ForkedKafkaBroker(this.data.resolve("kafka"), LOGS).start();
		int port = XdProcess.freePort();
		// the one setting for no loss: acks=all with idempotence
		this.node = XdProcess.start(LOGS, "singlenode", "singlenode", List.of("--spring.config.import=",
				"--server.port=" + port, "--xd.data.dir=" + this.data.resolve("node"), "--transport=kafka",
				"--xd.messagebus.kafka.brokers=" + this.broker.brokers(), "--xd.messagebus.kafka.noLoss=true",
				"--logging.level.org.apache.kafka=WARN"));
		this.node.awaitLog("Started XdApplication", Duration.ofSeconds(120));
		AdminApi api = AdminApi.local("http://127.0.0.1:" + port, this.data.resolve("node"));

		// 10 s of paced, sequence-stamped messages through a bridge into a queue this test reads
		api.createStream("faulted", "load-generator --messageCount=" + MESSAGES + " --rate=" + (MESSAGES / 10)
				+ " --messageSize=64 --generateTimestamp=true | bridge > queue:faulted-out", false);
		assertThat(api.postForm("/streams/deployments/faulted", Map.of()).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(60)).until(() -> api.status("faulted").equals("deployed"));

		try (SequenceReader reader = new SequenceReader(this.broker.brokers(), "queue_3Afaulted-out", MESSAGES)) {
			assertThat(reader.readUntil(() -> reader.received() >= MESSAGES / 4, Duration.ofSeconds(60)))
				.as("a quarter of the messages out before the broker is killed").isTrue();
			long outAtKill = reader.received();
			long killedAt = System.nanoTime();
			this.broker.kill();
			XdProcess.pause(Duration.ofSeconds(2));
			this.broker.start();
			long restartedAt = System.nanoTime();

			boolean all = reader.readAll(Duration.ofSeconds(180));
			System.out.printf("Broker fault: SIGKILL after %d messages out, broker back %d ms later; all %d out %d ms "
					+ "after it was back: %d of %d sequence numbers received, %d duplicates%n", outAtKill,
					(restartedAt - killedAt) / 1_000_000, MESSAGES, (System.nanoTime() - restartedAt) / 1_000_000,
					reader.distinct(), MESSAGES, reader.duplicates());
			if (!all) {
				System.out.println("Broker fault: missing sequence numbers " + reader.missingRanges());
			}
			if (reader.duplicates() > 0) {
				System.out.println("Broker fault: repeated sequence numbers " + reader.repeatedRanges());
			}
			assertThat(reader.distinct()).as("distinct sequence numbers received").isEqualTo(MESSAGES);
			// the bridge's commits fail while the broker is away: what it handled since its last commit comes again,
			// at most the polls of that time (max.poll.records = 500 each)
			assertThat(reader.duplicates()).isLessThanOrEqualTo(MESSAGES / 10);
			// running: deployed, or degraded for a minute if the bridge failed on messages while the broker was away
			assertThat(api.status("faulted")).isIn("deployed", "degraded");
		}
	}
}
