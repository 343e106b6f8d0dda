package io.xd.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.testsupport.SharedKafkaBroker;
import io.xd.modules.builtin.ThroughputSink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A singlenode whose servers.yml points the Kafka bus at a listener that asks for SCRAM credentials runs streams
 * joined by a named topic through it; the password is in no log line and in nothing the REST API shows, and a
 * stream cannot override the credentials with a deployment property.
 */
class KafkaSaslServersYmlIntegrationTests {

	private static final String PASSWORD = "yml\\pass\"word-" + UUID.randomUUID();

	@TempDir
	Path data;

	@Test
	void runsATopicBoundStreamOverScramAndShowsThePasswordNowhere() throws Exception {
		String user = "xd-node-" + UUID.randomUUID().toString().substring(0, 8);
		SharedKafkaBroker.createScramUser(user, PASSWORD);
		String serversYml = SingleNode.serversYml(this.data, """
				xd:
				  transport: kafka
				  messagebus:
				    kafka:
				      brokers: %s
				      adminTimeout: 10s
				      security:
				        protocol: SASL_PLAINTEXT
				      sasl:
				        mechanism: SCRAM-SHA-256
				        username: %s
				        password: '%s'
				""".formatted(SharedKafkaBroker.scramBrokers(), user, PASSWORD));
		// Spring Boot sets logging up anew when the node starts, so the log is read where its console appender
		// writes it
		PrintStream console = System.out;
		ByteArrayOutputStream captured = new ByteArrayOutputStream();
		System.setOut(new PrintStream(new TeeOutputStream(console, captured), true, StandardCharsets.UTF_8));
		try (SingleNode node = new SingleNode(this.data.resolve("xd"),
				serversYml, "--logging.level.io.xd=INFO",
				"--logging.level.org.apache.kafka.clients=INFO", "--logging.level.org.apache.kafka.common.config=INFO")) {
			node.createStream("secured-in", "topic:secured > throughput", true);
			await().atMost(Duration.ofSeconds(60)).until(() -> node.status("secured-in").equals("deployed"));
			node.createStream("secured-out", "load-generator --messageCount=500 --messageSize=100 > topic:secured",
					true);
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				ThroughputSink sink = (ThroughputSink) node.module("secured-in.sink.throughput.1");
				return sink != null && sink.totals().messages() == 500;
			});

			AdminApi.Response refused = node.postForm("/streams/deployments/secured-in", Map.of("properties",
					"module.throughput.consumer.sasl.jaas.config=x"));
			assertThat(refused.status()).isEqualTo(400);
			assertThat(refused.body()).contains("does not let a stream set consumer property: sasl.jaas.config");

			for (String path : new String[] { "/runtime/modules", "/runtime/containers", "/streams/definitions",
					"/streams/deployments/history/secured-in" }) {
				AdminApi.Response response = node.get(path);
				assertThat(response.status()).as(path).isEqualTo(200);
				assertThat(response.body()).as(path).doesNotContain(PASSWORD).doesNotContain("yml\\\\pass");
			}
		}
		finally {
			System.setOut(console);
		}
		String log = captured.toString(StandardCharsets.UTF_8);
		assertThat(log).contains("ProducerConfig values", "ConsumerConfig values", "sasl.jaas.config = [hidden]")
			.doesNotContain(PASSWORD.substring(PASSWORD.indexOf('-') + 1));
	}

	@Test
	void aWrongPasswordFailsTheModuleWithTheBrokersRefusalAndNotAHang() throws Exception {
		String user = "xd-wrong-" + UUID.randomUUID().toString().substring(0, 8);
		SharedKafkaBroker.createScramUser(user, PASSWORD);
		String wrong = "not-the-password-" + UUID.randomUUID();
		String serversYml = SingleNode.serversYml(this.data, """
				xd.transport: kafka
				xd.messagebus.kafka:
				  brokers: %s
				  adminTimeout: 5s
				  security.protocol: SASL_PLAINTEXT
				  sasl:
				    username: %s
				    password: %s
				""".formatted(SharedKafkaBroker.scramBrokers(), user, wrong));
		try (SingleNode node = new SingleNode(this.data.resolve("xd"), serversYml)) {
			node.createStream("refused", "topic:refused > log", true);
			await().atMost(Duration.ofSeconds(30)).until(() -> node.status("refused").equals("failed"));
			String modules = node.get("/runtime/modules").body();
			assertThat(modules).contains("refused the bus's credentials", "Authentication failed")
				.doesNotContain(wrong);
		}
	}

	/** Writes to two streams. */
	private static final class TeeOutputStream extends OutputStream {

		private final OutputStream first;

		private final OutputStream second;

		TeeOutputStream(OutputStream first, OutputStream second) {
			this.first = first;
			this.second = second;
		}

		@Override
		public void write(int b) throws IOException {
			this.first.write(b);
			this.second.write(b);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			this.first.write(bytes, offset, length);
			this.second.write(bytes, offset, length);
		}
	}
}
