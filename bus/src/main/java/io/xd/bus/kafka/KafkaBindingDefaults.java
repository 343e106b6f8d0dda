package io.xd.bus.kafka;

import java.time.Duration;

import org.springframework.util.unit.DataSize;

/**
 * Binding defaults, {@code xd.messagebus.kafka.default.*} of {@link KafkaBusProperties}; each may be overridden per
 * module by {@code module.<label>.producer|consumer.<key>}.
 */
public class KafkaBindingDefaults {

	/**
	 * Largest producer batch per partition ({@code batch.size}): 512 KB, where Kafka has 16 KB, from the {@code peer}
	 * suite (docs/benchmarks.md): a hop with a backlog sends far fewer, larger requests, which is what the broker
	 * spends its time on; at low rates a batch still leaves after {@code batchTimeout}, whatever its size.
	 */
	private DataSize batchSize = DataSize.ofKilobytes(512);

	/**
	 * How long a producer waits to fill a batch ({@code linger.ms}): 1 ms, where Spring XD had 0, from the latency
	 * suite (docs/benchmarks.md#kafka-latency-cold-and-warm): at 10 000 msg/s and more, batches of a millisecond
	 * take most requests off the broker, and lower the tail and the median.
	 */
	private Duration batchTimeout = Duration.ofMillis(1);

	/**
	 * {@code acks}: 0, 1 or -1 (all). Unset, a producer sends with {@code acks=1} to a topic of one replica, as Spring
	 * XD did, and with {@code acks=all} and idempotence to a replicated topic: there a leader that acknowledged a
	 * record its followers did not have yet loses it when it fails over (the chaos suite's three-broker run lost 2
	 * messages that way).
	 */
	private Integer requiredAcks;

	/** {@code none}, {@code gzip}, {@code snappy}, {@code lz4} or {@code zstd}. */
	private String compressionCodec = "none";

	/** Replicas of each topic the bus creates. */
	private int replicationFactor = 1;

	/** Partitions of each topic the bus creates, at least. */
	private int minPartitionCount = 1;

	/** Listener threads per consumer binding. */
	private int concurrency = 1;

	/**
	 * Largest fetch per partition ({@code max.partition.fetch.bytes}): 2 MB, where Spring XD and Kafka have 1 MB,
	 * from the consumer tuning suite (docs/benchmarks.md#consumer-tuning).
	 */
	private DataSize fetchSize = DataSize.ofMegabytes(2);

	/**
	 * How long a consumer with a backlog may leave handled records uncommitted ({@code commitInterval}): their
	 * offsets (at-least-once) or their transaction (exactly-once) are committed together, at most this often, as
	 * Kafka Streams' {@code commit.interval.ms}; a consumer that has caught up commits at once. Zero commits every
	 * poll.
	 */
	private Duration commitInterval = Duration.ofMillis(100);

	/** Deliveries of a failing record before it goes to the dead-letter topic (Spring XD had none). */
	private int maxAttempts = 3;

	/** Wait before the second delivery of a failing record. */
	private Duration backOffInitialInterval = Duration.ofSeconds(1);

	/** Longest wait between deliveries of a failing record. */
	private Duration backOffMaxInterval = Duration.ofSeconds(10);

	/** Factor by which the wait grows after each failed delivery. */
	private double backOffMultiplier = 2.0;

	/** Accepted for Spring XD compatibility; Kafka's own fetch queueing replaces it. */
	private int queueSize = 8192;

	/** Wait for each send to be acknowledged before the next. */
	private boolean syncProducer = false;

	public DataSize getBatchSize() {
		return this.batchSize;
	}

	public void setBatchSize(DataSize batchSize) {
		this.batchSize = batchSize;
	}

	public Duration getBatchTimeout() {
		return this.batchTimeout;
	}

	public void setBatchTimeout(Duration batchTimeout) {
		this.batchTimeout = batchTimeout;
	}

	public Integer getRequiredAcks() {
		return this.requiredAcks;
	}

	public void setRequiredAcks(Integer requiredAcks) {
		this.requiredAcks = requiredAcks;
	}

	public String getCompressionCodec() {
		return this.compressionCodec;
	}

	public void setCompressionCodec(String compressionCodec) {
		this.compressionCodec = compressionCodec;
	}

	public int getReplicationFactor() {
		return this.replicationFactor;
	}

	public void setReplicationFactor(int replicationFactor) {
		this.replicationFactor = replicationFactor;
	}

	public int getMinPartitionCount() {
		return this.minPartitionCount;
	}

	public void setMinPartitionCount(int minPartitionCount) {
		this.minPartitionCount = minPartitionCount;
	}

	public int getConcurrency() {
		return this.concurrency;
	}

	public void setConcurrency(int concurrency) {
		this.concurrency = concurrency;
	}

	public DataSize getFetchSize() {
		return this.fetchSize;
	}

	public void setFetchSize(DataSize fetchSize) {
		this.fetchSize = fetchSize;
	}

	public Duration getCommitInterval() {
		return this.commitInterval;
	}

	public void setCommitInterval(Duration commitInterval) {
		this.commitInterval = commitInterval;
	}

	public int getMaxAttempts() {
		return this.maxAttempts;
	}

	public void setMaxAttempts(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	public Duration getBackOffInitialInterval() {
		return this.backOffInitialInterval;
	}

	public void setBackOffInitialInterval(Duration backOffInitialInterval) {
		this.backOffInitialInterval = backOffInitialInterval;
	}

	public Duration getBackOffMaxInterval() {
		return this.backOffMaxInterval;
	}

	public void setBackOffMaxInterval(Duration backOffMaxInterval) {
		this.backOffMaxInterval = backOffMaxInterval;
	}

	public double getBackOffMultiplier() {
		return this.backOffMultiplier;
	}

	public void setBackOffMultiplier(double backOffMultiplier) {
		this.backOffMultiplier = backOffMultiplier;
	}

	public int getQueueSize() {
		return this.queueSize;
	}

	public void setQueueSize(int queueSize) {
		this.queueSize = queueSize;
	}

	public boolean isSyncProducer() {
		return this.syncProducer;
	}

	public void setSyncProducer(boolean syncProducer) {
		this.syncProducer = syncProducer;
	}
}
