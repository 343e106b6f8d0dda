package io.xd.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.xd.testsupport.SharedKafkaBroker;
import io.xd.bus.kafka.TopicRecords;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module library's pipelines on the Kafka bus against a real broker, every hop between modules a topic; and
 * what only Kafka has: JSON records another program wrote, read by the {@code kafka} source and from a named
 * channel, and a payload that cannot be converted reaching the dead-letter topic with its reason.
 */
class KafkaModuleLibraryIntegrationTests extends AbstractModuleLibraryIntegrationTests {

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass(nodeArguments("--transport=kafka",
			"--xd.messagebus.kafka.brokers=" + SharedKafkaBroker.brokers(),
			"--xd.messagebus.kafka.default.backOffInitialInterval=20"));

	private static final List<String> ORDERS = List.of("{\"id\":1,\"amount\":50}", "{\"id\":2,\"amount\":5}",
			"{\"id\":3,\"amount\":70}");

	@Override
	SingleNode node() {
		return node;
	}

	@Override
	String name(String name) {
		return "kafka" + name;
	}

	@Test
	void jsonRecordsAnotherProgramWroteAreReadByTheKafkaSourceTransformedByFieldFilteredAndStored() throws Exception {
		createTopic("orders");
		String stream = name("orders");
		deployWithShell(stream, "kafka --topic=orders --brokers=" + SharedKafkaBroker.brokers()
				+ " --offsetReset=earliest | transform --inputType=application/json --expression=payload.id"
				+ " | filter --expression='payload >= 2' | " + jdbcSink(stream));

		produce("orders", ORDERS);

		assertThat(awaitRows(stream, 2)).containsExactly("2", "3");
	}

	@Test
	void jsonRecordsAnotherProgramWroteOnANamedChannelsTopicAreFilteredTransformedByFieldAndStored()
			throws Exception {
		String stream = name("queued");
		deployWithShell(stream, "queue:orders > filter --inputType=application/json --expression='payload.amount >= 50'"
				+ " | transform --expression=payload.id | " + jdbcSink(stream));

		// the Kafka bus's topic for the named channel queue:orders (':' escaped)
		produce("queue_3Aorders", ORDERS);

		assertThat(awaitRows(stream, 2)).containsExactly("1", "3");
	}

	@Test
	void aPayloadThatIsNotJsonReachesTheDeadLetterTopicWithTheModuleTheTypeAndTheCause() throws Exception {
		int port = freePort();
		String stream = name("notjson");
		deployWithShell(stream, "http --port=" + port
				+ " | transform --inputType=application/json --expression=payload.id | log");

		post(port, "text/plain", "not json");

		// the dead letters of the transform, which consumes the stream's first topic in the group of its module
		List<ConsumerRecord<byte[], byte[]>> dead = TopicRecords.read("error." + stream + ".0." + stream + ".0", 1,
				Duration.ofSeconds(30));
		assertThat(dead).hasSize(1);
		assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("not json");
		assertThat(new String(dead.get(0).headers().lastHeader("kafka_dlt-exception-message").value(),
				StandardCharsets.UTF_8)).contains(stream + ".processor.transform.1", "inputType application/json",
						"Unrecognized token 'not'");
	}

	private static void createTopic(String topic) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				SharedKafkaBroker.brokers()))) {
			admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
		}
	}

	/** Writes {@code values} to {@code topic} as a plain Kafka client would: JSON text, no headers. */
	private static void produce(String topic, List<String> values) throws Exception {
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaBroker.brokers()), new StringSerializer(),
				new StringSerializer())) {
			for (String value : values) {
				producer.send(new ProducerRecord<>(topic, value)).get(30, TimeUnit.SECONDS);
			}
		}
	}
}
