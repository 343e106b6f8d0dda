package io.xd.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;

import io.xd.testsupport.SharedKafkaBroker;

/**
 * A Kafka broker in a process of its own (one KRaft node, broker and controller, on loopback), so that a test can
 * kill it with SIGKILL and start it again on the same ports and log directory, as an operator's restart would. Its
 * settings are those of {@code bin/kafka-local}; the jars are the tests' own (spring-kafka-test brings them).
 */
final class ForkedKafkaBroker implements AutoCloseable {

	private final Path directory;

	private final Path logDirectory;

	private final int port = XdProcess.freePort();

	private final int controllerPort = XdProcess.freePort();

	private XdProcess process;

	private int starts;

	ForkedKafkaBroker(Path directory, Path logDirectory) {
		this.directory = directory;
		this.logDirectory = logDirectory;
	}

	String brokers() {
		return "127.0.0.1:" + this.port;
	}

	/** Starts the broker (formatting its storage on the first start) and returns once it answers a client. */
	ForkedKafkaBroker start() {
		Path config = this.directory.resolve("server.properties");
		if (this.starts == 0) {
			writeConfig(config);
			XdProcess format = XdProcess.startClass(this.logDirectory, "kafka-format", List.of("-Xmx256m"),
					"kafka.tools.StorageTool", List.of("format", "--config", config.toString(), "--cluster-id",
							Uuid.randomUuid().toString()));
			if (format.awaitExit(Duration.ofSeconds(60)) != 0) {
				throw new IllegalStateException("Formatting the broker's storage failed:\n" + format.tail());
			}
		}
		this.starts++;
		this.process = XdProcess.startClass(this.logDirectory, "kafka-" + this.starts,
				List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC"), "kafka.Kafka", List.of(config.toString()));
		awaitAnswer(Duration.ofSeconds(90));
		return this;
	}

	/** SIGKILL: the broker gets no chance to flush or to tell anyone; its log recovers on the next start. */
	void kill() {
		this.process.kill();
	}

	@Override
	public void close() {
		if (this.process != null) {
			this.process.close();
		}
	}

	private void awaitAnswer(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers(),
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
				2_000))) {
			while (true) {
				if (!this.process.isAlive()) {
					throw new IllegalStateException("The Kafka broker exited at start:\n" + this.process.tail());
				}
				try {
					admin.describeCluster(new DescribeClusterOptions().timeoutMs(2_000)).nodes().get(3,
							TimeUnit.SECONDS);
					return;
				}
				catch (Exception ex) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("The Kafka broker did not answer within " + timeout + ":\n"
								+ this.process.tail(), ex);
					}
				}
			}
		}
	}

	private void writeConfig(Path config) {
		String properties = """
				process.roles=broker,controller
				node.id=1
				controller.quorum.voters=1@127.0.0.1:%2$d
				listeners=PLAINTEXT://127.0.0.1:%1$d,CONTROLLER://127.0.0.1:%2$d
				advertised.listeners=PLAINTEXT://127.0.0.1:%1$d
				listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
				inter.broker.listener.name=PLAINTEXT
				controller.listener.names=CONTROLLER
				log.dirs=%3$s
				""".formatted(this.port, this.controllerPort, this.directory.resolve("data"));
		StringBuilder settings = new StringBuilder(properties);
		SharedKafkaBroker.localBrokerSettings().forEach((name, value) -> settings.append(name).append('=')
			.append(value).append('\n'));
		try {
			Files.createDirectories(this.directory);
			Files.writeString(config, settings);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
