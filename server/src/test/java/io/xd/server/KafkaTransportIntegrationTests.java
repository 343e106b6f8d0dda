package io.xd.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.testsupport.SharedKafkaBroker;
import io.xd.bus.kafka.TopicRecords;
import io.xd.server.TestModules.SequenceCheckSink;
import io.xd.modules.builtin.ThroughputSink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Singlenode with the Kafka transport against a real in-process KRaft broker. */
class KafkaTransportIntegrationTests {

	@TempDir
	static Path data;

	private static SingleNode node;

	@BeforeAll
	static void start() {
		node = new SingleNode(data, "--transport=kafka", "--xd.messagebus.kafka.brokers=" + SharedKafkaBroker.brokers(),
				"--xd.messagebus.kafka.default.minPartitionCount=3",
				"--xd.messagebus.kafka.default.backOffInitialInterval=20",
				"--xd.messagebus.kafka.zkAddress=localhost:2181");
	}

	@AfterAll
	static void stop() {
		node.close();
	}

	@Test
	void deliversEveryGeneratedMessageExactlyOnceInACleanRun() {
		int count = 200_000;
		node.createStream("exactly", "load-generator --messageCount=" + count
				+ " --messageSize=100 --generateTimestamp=true | sequence-check", false);
		node.createStream("counted", "tap:stream:exactly > throughput --reportEveryMs=0", true);
		await().atMost(Duration.ofSeconds(60)).until(() -> node.status("counted").equals("deployed"));
		assertThat(node.postForm("/streams/deployments/exactly", Map.of()).status()).isEqualTo(201);

		await().atMost(Duration.ofSeconds(120)).until(() -> {
			SequenceCheckSink sink = (SequenceCheckSink) node.module("exactly.sink.sequence-check.1");
			return sink != null && sink.received() >= count;
		});
		SequenceCheckSink sink = (SequenceCheckSink) node.module("exactly.sink.sequence-check.1");
		BitSet seen = sink.seen();
		assertThat(seen.cardinality()).isEqualTo(count);
		assertThat(seen.nextClearBit(0)).isEqualTo(count);
		assertThat(sink.duplicates()).isZero();
		assertThat(sink.received()).isEqualTo(count);
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			ThroughputSink tap = (ThroughputSink) node.module("counted.sink.throughput.1");
			return tap != null && tap.totals().messages() == count;
		});
	}

	@Test
	void aStreamWritingToANamedTopicWritesEachRecordOnceWhenUntapped() {
		node.createStream("untapped", "load-generator --messageCount=1000 --messageSize=100 > topic:untapped-out",
				true);
		await().atMost(Duration.ofSeconds(60)).until(() -> node.status("untapped").equals("deployed"));
		List<String> topics = List.of("topic_3Auntapped-out");
		await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.count(topics) >= 1000);
		// every topic the stream may have written: its named topic, its pipes and its tap topics
		List<String> written = TopicRecords.topics(topic -> topic.equals("topic_3Auntapped-out")
				|| topic.startsWith("untapped.") || topic.startsWith("tap_3Astream_3Auntapped."));
		assertThat(written).contains("topic_3Auntapped-out", "tap_3Astream_3Auntapped.load-generator.0");
		// a second write of a record (to a tap topic) is sent with the first: give stragglers two seconds, then count
		await().pollDelay(Duration.ofSeconds(2)).until(() -> true);
		Map<String, Long> perTopic = new java.util.TreeMap<>();
		written.forEach(topic -> perTopic.put(topic, TopicRecords.count(List.of(topic))));
		assertThat(perTopic.values().stream().mapToLong(Long::longValue).sum()).as("records per topic: %s", perTopic)
			.isEqualTo(1000);
	}

	@Test
	void aProcessorThatFailsSendsExactlyThoseMessagesToTheDeadLetterTopicAndTheRestArrives() {
		node.createStream("partly", "load-generator --messageCount=1000 --messageSize=64 --generateTimestamp=true"
				+ " | fail-on --every=100 | sequence-check", false);
		assertThat(node.postForm("/streams/deployments/partly",
				Map.of("properties", "module.fail-on.consumer.maxAttempts=3")).status()).isEqualTo(201);

		await().atMost(Duration.ofSeconds(120)).until(() -> {
			SequenceCheckSink sink = (SequenceCheckSink) node.module("partly.sink.sequence-check.1");
			return sink != null && sink.received() >= 990;
		});
		SequenceCheckSink sink = (SequenceCheckSink) node.module("partly.sink.sequence-check.1");
		BitSet seen = sink.seen();
		for (int i = 0; i < 1000; i++) {
			assertThat(seen.get(i)).as("sequence %d received", i).isEqualTo(i % 100 != 0);
		}
		// anything more that arrives within a second after would be a duplicate dead letter
		List<ConsumerRecord<byte[], byte[]>> dead = TopicRecords.read("error.partly.0.partly.0", 10,
				Duration.ofSeconds(30), Duration.ofSeconds(1));
		assertThat(dead).hasSize(10);
		assertThat(dead).extracting(record -> new String(record.headers().lastHeader("kafka_dlt-exception-message")
			.value(), StandardCharsets.UTF_8)).allMatch(message -> message.contains("fail-on refuses sequence number"));
	}

	@Test
	void modulesPlacedTogetherInEveryContainerAreBoundDirectlyWithNoTopicBetweenThemAndTheirTapStillOnKafka() {
		int count = 100_000;
		node.createStream("together", "load-generator --messageCount=" + count + " --messageSize=100 | transform "
				+ "--expression=payload | throughput --reportEveryMs=0", false);
		node.createStream("together-tap", "tap:stream:together.transform > log --level=DEBUG", true);
		await().atMost(Duration.ofSeconds(60)).until(() -> node.status("together-tap").equals("deployed"));
		assertThat(node.postForm("/streams/deployments/together", Map.of("properties", "module.*.count=0"))
			.status()).isEqualTo(201);

		await().atMost(Duration.ofSeconds(60)).until(() -> {
			ThroughputSink sink = (ThroughputSink) node.module("together.sink.throughput.1");
			return sink != null && sink.totals().messages() == count;
		});
		// no record crossed Kafka between the modules: the pipes' topics were never written (nor made)
		assertThat(TopicRecords.topics(topic -> topic.equals("together.0") || topic.equals("together.1"))
			.stream()
			.mapToLong(topic -> TopicRecords.count(List.of(topic)))
			.sum()).isZero();
		// the tap of the directly bound transform still went through its Kafka topic
		await().atMost(Duration.ofSeconds(30))
			.until(() -> TopicRecords.count(List.of("tap_3Astream_3Atogether.transform.1")) >= count);
		var modules = node.get("/runtime/modules?size=1000").json().get("content");
		List<String> direct = new java.util.ArrayList<>();
		modules.forEach(module -> {
			if (module.get("moduleId").asString().startsWith("together.")) {
				module.get("deploymentProperties").properties().forEach(property -> {
					if (property.getKey().endsWith("directBindingAllowed")) {
						direct.add(module.get("moduleId").asString() + " " + property.getKey() + "="
								+ property.getValue().asString());
					}
				});
			}
		});
		assertThat(direct).containsExactlyInAnyOrder(
				"together.source.load-generator.1 producer.directBindingAllowed=true",
				"together.processor.transform.1 consumer.directBindingAllowed=true",
				"together.processor.transform.1 producer.directBindingAllowed=true",
				"together.sink.throughput.1 consumer.directBindingAllowed=true");
	}

	@Test
	void aUserWhoWantsTheHopOnKafkaKeepsIt() {
		int count = 1000;
		node.createStream("hopping", "load-generator --messageCount=" + count + " --messageSize=100 | throughput "
				+ "--reportEveryMs=0", false);
		assertThat(node.postForm("/streams/deployments/hopping", Map.of("properties",
				"module.*.count=0,module.load-generator.producer.directBindingAllowed=false")).status()).isEqualTo(201);
		await().atMost(Duration.ofSeconds(60)).until(() -> TopicRecords.count(List.of("hopping.0")) >= count);
		assertThat(node.postForm("/streams/definitions", Map.of("name", "forced", "definition", "time | log",
				"deploy", "false")).status()).isEqualTo(201);
		assertThat(node.postForm("/streams/deployments/forced", Map.of("properties",
				"module.time.producer.directBindingAllowed=true")).status()).isEqualTo(400);
	}
}
