package io.xd.modules.builtin.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code kafka} source: consumes an external Kafka topic (not the bus) as a member of a consumer group and sends
 * each record's value, as {@code byte[]}, with the headers {@code kafka_receivedTopic},
 * {@code kafka_receivedPartitionId}, {@code kafka_offset} and, when the record has one, {@code kafka_receivedMessageKey}
 * ({@code byte[]}). Offsets are committed after the records of a poll have been sent downstream, so a restart
 * replays at most that poll (at least once). A record whose send fails (a directly bound downstream module threw)
 * is logged and skipped; a send that reports an earlier asynchronous failure of a Kafka bus producer has sent its
 * own record (the logged exception says so). One thread of its own polls; stop wakes it and waits for it to close
 * the consumer.
 */
public final class KafkaSource implements Source {

	/** Header names as Spring Kafka spells them, so flows written for Spring Kafka read them unchanged. */
	public static final String TOPIC_HEADER = "kafka_receivedTopic";

	public static final String PARTITION_HEADER = "kafka_receivedPartitionId";

	public static final String OFFSET_HEADER = "kafka_offset";

	public static final String KEY_HEADER = "kafka_receivedMessageKey";

	static final ModuleOption<String> GROUP = ModuleOption.ofString("group")
		.withRule(text -> !text.isBlank() && text.length() <= 249, "be a consumer group name of 1 to 249 characters")
		.withDescription("the consumer group; defaults to the stream name");

	static final ModuleOption<String> OFFSET_RESET = ModuleOption.ofChoice("offsetReset", "latest", "earliest")
		.withDefault("latest")
		.withDescription("where a group without committed offsets starts: new records only, or the oldest kept");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "kafka",
			"Sends the values of a Kafka topic's records as byte[] payloads",
			List.of(KafkaOptions.TOPIC_OPTION, KafkaOptions.BROKERS_OPTION, GROUP, OFFSET_RESET));

	private static final Logger logger = LoggerFactory.getLogger(KafkaSource.class);

	private final ModuleContext context;

	private final String topic;

	private final Map<String, Object> config;

	private volatile KafkaConsumer<byte[], byte[]> consumer;

	private Thread poller;

	public KafkaSource(ModuleContext context) {
		this.context = context;
		this.topic = KafkaOptions.topic(context.options().get(KafkaOptions.TOPIC_OPTION), context.streamName());
		String group = context.options().get(GROUP);
		this.config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, context.options().get(KafkaOptions.BROKERS_OPTION),
				ConsumerConfig.GROUP_ID_CONFIG, (group == null) ? context.streamName() : group,
				ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, context.options().get(OFFSET_RESET),
				ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.CLIENT_ID_CONFIG,
				context.threadName("kafka-source"));
	}

	@Override
	public synchronized void start(MessageChannel output) {
		this.consumer = new KafkaConsumer<>(this.config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
		this.consumer.subscribe(List.of(this.topic));
		this.poller = this.context.newThread("kafka-consumer", () -> run(output));
		this.poller.start();
	}

	private void run(MessageChannel output) {
		KafkaConsumer<byte[], byte[]> current = this.consumer;
		try {
			while (!Thread.currentThread().isInterrupted()) {
				ConsumerRecords<byte[], byte[]> records = current.poll(Duration.ofSeconds(1));
				for (ConsumerRecord<byte[], byte[]> record : records) {
					send(output, record);
				}
				if (!records.isEmpty()) {
					current.commitSync();
				}
			}
		}
		catch (WakeupException ex) {
			// stop() woke the consumer
		}
		catch (RuntimeException ex) {
			logger.error("Stream '{}': the kafka source stopped consuming topic {}", this.context.streamName(),
					this.topic, ex);
			this.context.fail(ex);
		}
		finally {
			current.close(Duration.ofSeconds(5));
		}
	}

	private void send(MessageChannel output, ConsumerRecord<byte[], byte[]> record) {
		MessageBuilder<byte[]> builder = MessageBuilder.withPayload(record.value() == null ? new byte[0] : record.value())
			.setHeader(TOPIC_HEADER, record.topic())
			.setHeader(PARTITION_HEADER, record.partition())
			.setHeader(OFFSET_HEADER, record.offset());
		if (record.key() != null) {
			builder.setHeader(KEY_HEADER, record.key());
		}
		Message<byte[]> message = builder.build();
		try {
			output.send(message);
		}
		catch (RuntimeException ex) {
			logger.error("Stream '{}': sending the record at {}-{} offset {} reported a failure; going on",
					this.context.streamName(), record.topic(), record.partition(), record.offset(), ex);
		}
	}

	@Override
	public synchronized void stop() {
		if (this.poller != null) {
			this.consumer.wakeup();
			try {
				this.poller.join(10_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.poller = null;
		}
	}

	/** Declares and creates the {@code kafka} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, KafkaSource::new);
		}
	}
}
