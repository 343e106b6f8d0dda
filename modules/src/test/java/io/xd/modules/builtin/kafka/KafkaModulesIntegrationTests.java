package io.xd.modules.builtin.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.MessageBuilder;

import io.xd.testsupport.SharedKafkaBroker;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The kafka source and sink against the bus tests' in-process broker. */
class KafkaModulesIntegrationTests {

	private static final String BROKERS = SharedKafkaBroker.brokers();

	private static void createTopics(String... topics) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, BROKERS))) {
			admin.createTopics(Arrays.stream(topics).map(topic -> new NewTopic(topic, 1, (short) 1)).toList())
				.all()
				.get(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void sinkSendsPayloadBytesUnchangedWithALiteralOrHeaderKey() throws Exception {
		createTopics("sink-out");
		KafkaSink sink = ModuleFixtures.create(new KafkaSink.Provider(),
				Map.of("topic", "sink-out", "brokers", BROKERS, "keyHeader", "orderId"));
		sink.start();
		sink.handleMessage(MessageBuilder.withPayload(new byte[] { 0, 1, (byte) 0xff }).setHeader("orderId", "k1").build());
		sink.handleMessage(ModuleMessages.of("text"));
		sink.stop();

		List<ConsumerRecord<byte[], byte[]>> records = consume("sink-out", 2);
		assertThat(records.get(0).value()).containsExactly(0, 1, 0xff);
		assertThat(new String(records.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("k1");
		assertThat(records.get(0).headers().toArray()).isEmpty();
		assertThat(new String(records.get(1).value(), StandardCharsets.UTF_8)).isEqualTo("text");
		assertThat(records.get(1).key()).isNull();
		assertThat(sink.failures()).isZero();
	}

	@Test
	void syncSinkUsesALiteralKey() throws Exception {
		createTopics("sink-sync");
		KafkaSink sink = ModuleFixtures.create(new KafkaSink.Provider(),
				Map.of("topic", "sink-sync", "brokers", BROKERS, "key", "fixed", "sync", "true"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("v"));
		sink.stop();

		assertThat(new String(consume("sink-sync", 1).get(0).key(), StandardCharsets.UTF_8)).isEqualTo("fixed");
	}

	@Test
	void sinkFailsAtStartWhenTheTopicDoesNotExist() {
		KafkaSink sink = ModuleFixtures.create(new KafkaSink.Provider(), Map.of("topic", "absent", "brokers", BROKERS));

		assertThatIllegalStateException().isThrownBy(sink::start)
			.withMessageContaining("The kafka sink cannot send to topic 'absent'");
	}

	@Test
	void sourceSendsRecordValuesAsBytesWithTheirCoordinates() throws Exception {
		createTopics("source-in");
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, BROKERS), new ByteArraySerializer(),
				new ByteArraySerializer())) {
			producer.send(new ProducerRecord<>("source-in", "key".getBytes(), new byte[] { 7, 8 })).get();
		}
		KafkaSource source = ModuleFixtures.create(new KafkaSource.Provider(),
				Map.of("topic", "source-in", "brokers", BROKERS, "group", "g1", "offsetReset", "earliest"));
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		source.start(output);
		try {
			await().atMost(30, TimeUnit.SECONDS).until(() -> output.messages.size() == 1);
		}
		finally {
			source.stop();
		}

		assertThat((byte[]) output.messages.get(0).getPayload()).containsExactly(7, 8);
		assertThat(output.messages.get(0).getHeaders()).containsEntry(KafkaSource.TOPIC_HEADER, "source-in")
			.containsEntry(KafkaSource.OFFSET_HEADER, 0L);
		assertThat((byte[]) output.messages.get(0).getHeaders().get(KafkaSource.KEY_HEADER)).isEqualTo("key".getBytes());
	}

	@Test
	void refusesTopicsAndBrokersThatAreNotNames() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new KafkaSink.Provider(), Map.of("topic", "a b")));
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new KafkaSource.Provider(), Map.of("brokers", "host")))
			.withMessageContaining("option 'brokers' must be a comma-separated list of host:port");
	}

	private static List<ConsumerRecord<byte[], byte[]>> consume(String topic, int count) {
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, BROKERS, ConsumerConfig.GROUP_ID_CONFIG, "check-" + topic,
						ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
			consumer.subscribe(Set.of(topic));
			List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (records.size() < count && System.nanoTime() < deadline) {
				consumer.poll(Duration.ofMillis(500)).forEach(records::add);
			}
			return records;
		}
	}
}
