package io.xd.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.util.FileSystemUtils;

import io.xd.testsupport.SharedKafkaBroker;

/** The second shelf's streams on the Kafka bus against a real broker (every hop between modules a topic). */
class KafkaSecondShelfIntegrationTests extends AbstractSecondShelfIntegrationTests {

	private static final String[] TRANSPORT = { "--transport=kafka",
			"--xd.messagebus.kafka.brokers=" + SharedKafkaBroker.brokers(),
			"--xd.messagebus.kafka.default.backOffInitialInterval=20" };

	private static Path data;

	private static SingleNode node;

	@BeforeAll
	static void start() throws IOException {
		data = Files.createTempDirectory("xd-second-shelf-kafka-");
		node = new SingleNode(data, arguments(TRANSPORT));
	}

	@AfterAll
	static void stop() {
		node.close();
		FileSystemUtils.deleteRecursively(data.toFile());
	}

	@Override
	SingleNode node() {
		return node;
	}

	@Override
	void restart() {
		node.close();
		node = new SingleNode(data, arguments(TRANSPORT));
	}

	@Override
	String name(String name) {
		return "kafka" + name;
	}
}
