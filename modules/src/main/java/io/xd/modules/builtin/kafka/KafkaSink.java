package io.xd.modules.builtin.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;

/**
 * The {@code kafka} sink: sends each payload as the value of a record to an external Kafka topic (not the bus):
 * {@code byte[]} unchanged, text as UTF-8, anything else as its {@code toString()} in UTF-8. No headers are sent, so
 * any Kafka client reads the values as they are. The key is a literal ({@code key}) or the text of a message header
 * ({@code keyHeader}); the expressions of Spring XD's {@code keyExpression} are not supported. At start the sink
 * checks that the topic exists (fails with the reason otherwise). With {@code sync} each send waits for the broker's
 * acknowledgement and a failure goes back to the bus; without it sends are batched by the producer, a failure is
 * logged and counted, and stop waits for every record to be sent.
 */
public final class KafkaSink implements Sink {

	static final ModuleOption<String> KEY = ModuleOption.ofString("key")
		.withDescription("a literal key for every record; none by default");

	static final ModuleOption<String> KEY_HEADER = ModuleOption.ofString("keyHeader")
		.withDescription("the name of a message header whose value (as text) is the record's key");

	static final ModuleOption<Boolean> SYNC = ModuleOption.ofBoolean("sync")
		.withDefault(false)
		.withDescription("wait for the broker to acknowledge each record, and fail the message if it does not");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "kafka",
			"Sends each payload, unchanged, as a record value to a Kafka topic",
			List.of(KafkaOptions.TOPIC_OPTION, KafkaOptions.BROKERS_OPTION, KEY, KEY_HEADER, SYNC));

	private static final Logger logger = LoggerFactory.getLogger(KafkaSink.class);

	private final ModuleContext context;

	private final String topic;

	private final String brokers;

	private final byte[] literalKey;

	private final String keyHeader;

	private final boolean sync;

	private final AtomicLong failures = new AtomicLong();

	private volatile Producer<byte[], byte[]> producer;

	public KafkaSink(ModuleContext context) {
		this.context = context;
		this.topic = KafkaOptions.topic(context.options().get(KafkaOptions.TOPIC_OPTION), context.streamName());
		this.brokers = context.options().get(KafkaOptions.BROKERS_OPTION);
		String key = context.options().get(KEY);
		this.literalKey = (key == null) ? null : key.getBytes(StandardCharsets.UTF_8);
		this.keyHeader = context.options().get(KEY_HEADER);
		if (key != null && this.keyHeader != null) {
			throw new IllegalArgumentException("Give the kafka sink --key or --keyHeader, not both");
		}
		this.sync = context.options().get(SYNC);
	}

	@Override
	public void start() {
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.brokers,
				ProducerConfig.CLIENT_ID_CONFIG, this.context.threadName("kafka-sink"), ProducerConfig.ACKS_CONFIG, "all",
				ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
		Producer<byte[], byte[]> created = new KafkaProducer<>(config, new ByteArraySerializer(),
				new ByteArraySerializer());
		try {
			created.partitionsFor(this.topic);
		}
		catch (KafkaException ex) {
			created.close(Duration.ZERO);
			throw new IllegalStateException("The kafka sink cannot send to topic '" + this.topic + "' on "
					+ this.brokers + ": " + ex.getMessage(), ex);
		}
		this.producer = created;
	}

	@Override
	public void handleMessage(Message<?> message) {
		Producer<byte[], byte[]> current = this.producer;
		if (current == null) {
			throw new MessagingException(message, "The kafka sink is not started");
		}
		ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(this.topic, key(message),
				bytes(message.getPayload()));
		if (this.sync) {
			try {
				current.send(record).get();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new MessagingException(message, "Interrupted while sending to Kafka topic " + this.topic, ex);
			}
			catch (ExecutionException ex) {
				throw new MessagingException(message, "The kafka sink could not send to topic " + this.topic,
						ex.getCause());
			}
		}
		else {
			current.send(record, (metadata, ex) -> {
				if (ex != null && this.failures.getAndIncrement() % 1000 == 0) {
					logger.error("Stream '{}': the kafka sink could not send to topic {} ({} failed so far)",
							this.context.streamName(), this.topic, this.failures.get(), ex);
				}
			});
		}
	}

	private byte[] key(Message<?> message) {
		if (this.keyHeader != null) {
			Object value = message.getHeaders().get(this.keyHeader);
			return (value == null) ? null : bytes(value);
		}
		return this.literalKey;
	}

	private static byte[] bytes(Object value) {
		if (value instanceof byte[] bytes) {
			return bytes;
		}
		return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
	}

	/** Records that could not be sent without {@code sync}. */
	public long failures() {
		return this.failures.get();
	}

	@Override
	public void stop() {
		Producer<byte[], byte[]> current = this.producer;
		this.producer = null;
		if (current != null) {
			current.close(Duration.ofSeconds(30));
		}
	}

	/** Declares and creates the {@code kafka} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, KafkaSink::new);
		}
	}
}
