package io.xd.bus.kafka;

import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;

import io.xd.bus.EarlierSendFailedException;
import io.xd.bus.ProducerBinding;
import io.xd.modules.expression.SafeExpression;

/**
 * The sending end of a channel on Kafka: each message becomes one record of the channel's topic, and one of its tap
 * topic while the tap has subscribers. Sends are asynchronous unless {@code syncProducer}: a failure reported by the
 * client's callback fails the next send, so a module learns of it, after that send's own message has been handed to
 * the client ({@link EarlierSendFailedException}: it is not dropped). A send on a consumer thread is counted in that
 * thread's {@link InFlightSends}, so the poll that caused it is committed only once it is acknowledged; a send on
 * the thread of a transactional consumer goes through that thread's {@link PollTransaction}: there a failure fails the
 * transaction instead, whose records are delivered again, and a record the client refuses at once (too large) fails
 * its own send.
 */
final class KafkaProducerBinding implements ProducerBinding, MessageChannel, Callback {

	private static final Logger logger = LoggerFactory.getLogger(KafkaProducerBinding.class);

	private static final long DEFAULT_SYNC_TIMEOUT_MS = 30_000;

	private final String name;

	private final String topic;

	private final int partitions;

	private final String tapTopic;

	private final KafkaTaps taps;

	private final Runnable untap;

	private final Producer<byte[], byte[]> producer;

	/** For the producer of a transactional consumer's thread, made when this binding sends on it first. */
	private final Map<String, Object> clientConfig;

	/** The callback of sends in a transaction, made once. */
	private final Callback inTransaction = this::completedInTransaction;

	/** What {@link KafkaProducerSettings} says, read into fields once: nothing is looked up per record. */
	private final SafeExpression partitionKey;

	private final boolean sync;

	private final KafkaRecords.Encoder encoder;

	private final AtomicReference<Exception> failure = new AtomicReference<>();

	private final AtomicLong failures = new AtomicLong();

	private volatile boolean unbound;

	/** How many payload bytes go to one partition before the next, for messages without a key: Kafka's 16 KB. */
	static final int SPREAD_BYTES = 16_384;

	/** The partition messages without a key go to now; racy by design (see {@link #spreadPartition()}). */
	private int spreadPartition;

	private long spreadBytes;

	/** Whether the bus's consumers may hand messages over (see {@link io.xd.bus.MessageBus#fence}). */
	private final BooleanSupplier mayHandle;

	/**
	 * @param tapTopic the tap topic, or {@code null} when the producer has no tap
	 * @param partitions the topic's partition count, for {@code partitionKeyExpression}
	 * @param mayHandle the bus's fence: while it is closed, unbinding does not wait for the sends under way
	 */
	KafkaProducerBinding(String name, String topic, int partitions, String tapTopic, KafkaTaps taps,
			Producer<byte[], byte[]> producer, KafkaProducerSettings settings, BooleanSupplier mayHandle) {
		this.name = name;
		this.mayHandle = mayHandle;
		this.topic = topic;
		this.partitions = partitions;
		this.tapTopic = tapTopic;
		this.taps = taps;
		this.untap = (tapTopic != null) ? taps.producerTapping(tapTopic) : () -> { };
		this.producer = producer;
		this.clientConfig = settings.clientConfig();
		this.partitionKey = settings.partitionKey();
		this.sync = settings.sync();
		this.encoder = new KafkaRecords.Encoder(settings.raw());
		// as Kafka's partitioner, each producer starts its turns at a partition of its own
		this.spreadPartition = (partitions > 1) ? ThreadLocalRandom.current().nextInt(partitions) : 0;
		// the topic's metadata now, while the module is deployed, not on its first send: that send would wait for it
		producer.partitionsFor(topic);
		if (tapTopic != null) {
			producer.partitionsFor(tapTopic);
		}
	}

	@Override
	public boolean send(Message<?> message, long timeout) {
		if (this.unbound) {
			throw new MessageDeliveryException(message, "The producer of '" + this.name + "' is unbound");
		}
		// an earlier asynchronous send failed: this message is still sent (it is not at fault, and dropping it would
		// lose it silently), then the earlier failure is thrown, so that the module learns of it
		Exception earlier = (this.failure.get() != null) ? this.failure.getAndSet(null) : null;
		try {
			sendNow(message, timeout);
		}
		catch (RuntimeException ex) {
			if (earlier != null) {
				ex.addSuppressed(earlier);
			}
			throw ex;
		}
		if (earlier != null) {
			throw new EarlierSendFailedException(message, "An earlier send to Kafka topic '" + this.topic
					+ "' failed (" + this.failures.get() + " failure(s) so far; this message was sent): "
					+ earlier.getMessage(), earlier);
		}
		return true;
	}

	private void sendNow(Message<?> message, long timeout) {
		ProducerRecord<byte[], byte[]> record;
		try {
			Integer partition = (this.partitionKey != null) ? Integer.valueOf(partitionOf(message)) : spreadPartition();
			record = this.encoder.record(this.topic, partition, message);
		}
		catch (IllegalArgumentException ex) {
			throw new MessageDeliveryException(message, ex.getMessage(), ex);
		}
		try {
			Future<RecordMetadata> future = send(record);
			spread(record);
			if (this.sync) {
				try {
					future.get((timeout > 0) ? timeout : DEFAULT_SYNC_TIMEOUT_MS, TimeUnit.MILLISECONDS);
				}
				catch (Exception ex) {
					throw new MessageDeliveryException(message, "Sending to Kafka topic '" + this.topic + "' failed: "
							+ ex.getMessage(), ex);
				}
			}
			if (this.tapTopic != null && this.taps.active(this.tapTopic)) {
				send(this.encoder.copy(this.tapTopic, record));
			}
		}
		catch (PollTransaction.Refused ex) {
			throw new MessageDeliveryException(message, "Kafka refused a record for topic '" + this.topic + "' (or its "
					+ "tap): " + ex.getMessage(), ex.getCause());
		}
	}

	/**
	 * Hands a record to the producer of the calling thread's transaction, if any (which may hold it back, returning
	 * {@code null}, unless this binding is synchronous), or to the shared producer.
	 */
	private Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
		return PollTransaction.send(this.producer, this.clientConfig, record, InFlightSends.track(this),
				this.inTransaction, this.sync);
	}

	/**
	 * The callback of a send in a transaction: a failure there fails the transaction, whose records are delivered
	 * again (and a record refused at once fails its own send), so it is logged, not kept for the module's next send.
	 */
	private void completedInTransaction(RecordMetadata metadata, Exception exception) {
		if (exception != null && logger.isDebugEnabled()) {
			logger.debug("A send to Kafka topic '{}' in a transaction failed; the transaction will not commit",
					this.topic, exception);
		}
	}

	/**
	 * The partition of a message without a key: the same one for {@link #SPREAD_BYTES} of payload, then the next,
	 * so that messages spread over the partitions as with Kafka's own partitioner at its default batch size, whatever
	 * batch size the producer has (Kafka's partitioner stays on a partition for a batch's worth of bytes, 512 KB at
	 * the bus's default, which at a few messages a second would leave a partition, and the consumer instance that
	 * owns it, without messages for minutes). {@code null}, Kafka's choice, for a topic of one partition. Threads
	 * sending at once may share a turn: the spread is approximate, never out of range.
	 */
	private Integer spreadPartition() {
		if (this.partitions <= 1) {
			return null;
		}
		int partition = this.spreadPartition;
		return (partition < this.partitions) ? partition : 0;
	}

	/** Counts a sent payload towards the next partition's turn. */
	private void spread(ProducerRecord<byte[], byte[]> record) {
		if (this.partitions > 1 && this.partitionKey == null) {
			long bytes = this.spreadBytes + ((record.value() != null) ? record.value().length : 0);
			if (bytes >= SPREAD_BYTES) {
				this.spreadPartition = (spreadPartition() + 1) % this.partitions;
				bytes = 0;
			}
			this.spreadBytes = bytes;
		}
	}

	private int partitionOf(Message<?> message) {
		Object key;
		try {
			key = this.partitionKey.evaluate(message);
		}
		catch (RuntimeException ex) {
			throw new MessageDeliveryException(message, "partitionKeyExpression '"
					+ this.partitionKey.text() + "' failed: " + ex.getMessage(), ex);
		}
		if (key == null) {
			throw new MessageDeliveryException(message, "partitionKeyExpression '"
					+ this.partitionKey.text() + "' gave no key for a message to '"
					+ this.name + "'");
		}
		return Math.abs(key.hashCode() % this.partitions);
	}

	@Override
	public void onCompletion(RecordMetadata metadata, Exception exception) {
		if (exception != null) {
			if (this.failures.incrementAndGet() == 1 || this.failure.get() == null) {
				logger.error("Sending to Kafka topic '{}' failed", this.topic, exception);
			}
			this.failure.compareAndSet(null, exception);
		}
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public MessageChannel channel() {
		return this;
	}

	@Override
	public void unbind() {
		if (!this.unbound) {
			this.unbound = true;
			this.untap.run();
			// fenced (the container gives its modules up): the shared producer still sends what is under way, but
			// the module is not held until a broker that may be down acknowledges it; what the sends were for is not
			// committed, so it is delivered again if they fail
			if (this.mayHandle.getAsBoolean()) {
				this.producer.flush();
			}
		}
	}
}
