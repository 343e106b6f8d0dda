package io.xd.bus.kafka;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The settings of the Kafka bus, bound from {@code xd.messagebus.kafka.*} in {@code servers.yml} with Spring XD's
 * keys. Defaults are Spring XD's, except where noted.
 * <p>
 * {@code zkAddress} and the {@code offset*} keys of Spring XD are accepted and ignored: Kafka 4 keeps offsets
 * itself and needs no ZooKeeper. {@link #getProducerProperties()} and {@link #getConsumerProperties()} pass any
 * Kafka client property through to every producer or consumer.
 */
public class KafkaBusProperties {

	/** How a message travels in a Kafka record. */
	public enum Mode {

		/** The payload bytes and the message headers as native Kafka record headers (the default). */
		NATIVE,

		/** The payload bytes only, so that any Kafka client reads them unchanged. */
		RAW;

		/**
		 * Reads a mode as written in {@code servers.yml}; Spring XD's {@code embeddedHeaders} means headers travel
		 * with the message, which Kafka now does natively.
		 */
		public static Mode parse(String text) {
			String value = text.trim().toLowerCase(Locale.ROOT);
			return switch (value) {
				case "raw" -> RAW;
				case "native", "embeddedheaders", "headers" -> NATIVE;
				default -> throw new IllegalArgumentException("xd.messagebus.kafka.mode must be raw, native or "
						+ "embeddedHeaders, but was '" + text + "'");
			};
		}
	}

	/**
	 * The consumer group protocol ({@code group.protocol}): {@code consumer}, Kafka 4's protocol in which the broker
	 * assigns partitions member by member (the default; needs brokers of 4.0 or later), or {@code classic}, the
	 * join-and-sync protocol that older brokers speak. Under {@code classic} a consumer cannot commit while its group
	 * rebalances, so a module stopped during a rebalance may leave handled records to be delivered again.
	 */
	private String groupProtocol = "consumer";

	/** {@code host:port[,host:port...]} of the brokers. */
	private String brokers = "localhost:9092";

	/** Accepted for Spring XD compatibility and ignored: Kafka 4 needs no ZooKeeper. */
	private String zkAddress;

	private String mode = "native";

	/** Socket receive buffer of consumers ({@code receive.buffer.bytes}). */
	private int socketBufferSize = 2097152;

	/** How long administrative calls (topic creation, metadata) may take before the binding fails. */
	private long adminTimeout = 30_000;

	/** How often a producer with a tap checks whether a tap subscriber runs in another process. */
	private long tapRefreshInterval = 5_000;

	private final Defaults defaults = new Defaults();

	private final Map<String, String> producerProperties = new LinkedHashMap<>();

	private final Map<String, String> consumerProperties = new LinkedHashMap<>();

	public String getBrokers() {
		return this.brokers;
	}

	public void setBrokers(String brokers) {
		this.brokers = brokers;
	}

	public String getGroupProtocol() {
		return this.groupProtocol;
	}

	public void setGroupProtocol(String groupProtocol) {
		String value = groupProtocol.trim().toLowerCase(Locale.ROOT);
		if (!value.equals("consumer") && !value.equals("classic")) {
			throw new IllegalArgumentException("xd.messagebus.kafka.groupProtocol must be consumer or classic, but was '"
					+ groupProtocol + "'");
		}
		this.groupProtocol = value;
	}

	public String getZkAddress() {
		return this.zkAddress;
	}

	public void setZkAddress(String zkAddress) {
		this.zkAddress = zkAddress;
	}

	public String getMode() {
		return this.mode;
	}

	public void setMode(String mode) {
		Mode.parse(mode);
		this.mode = mode;
	}

	public Mode mode() {
		return Mode.parse(this.mode);
	}

	public int getSocketBufferSize() {
		return this.socketBufferSize;
	}

	public void setSocketBufferSize(int socketBufferSize) {
		this.socketBufferSize = socketBufferSize;
	}

	public long getAdminTimeout() {
		return this.adminTimeout;
	}

	public void setAdminTimeout(long adminTimeout) {
		this.adminTimeout = adminTimeout;
	}

	public long getTapRefreshInterval() {
		return this.tapRefreshInterval;
	}

	public void setTapRefreshInterval(long tapRefreshInterval) {
		this.tapRefreshInterval = tapRefreshInterval;
	}

	/** Spring XD's {@code xd.messagebus.kafka.default.*}: binding defaults that deployment properties override. */
	public Defaults getDefault() {
		return this.defaults;
	}

	public Map<String, String> getProducerProperties() {
		return this.producerProperties;
	}

	public Map<String, String> getConsumerProperties() {
		return this.consumerProperties;
	}

	/** Binding defaults; each may be overridden per module by {@code module.<label>.producer|consumer.<key>}. */
	public static class Defaults {

		/** Producer batch size in bytes ({@code batch.size}). */
		private int batchSize = 16384;

		/** How long a producer waits to fill a batch, in ms ({@code linger.ms}). */
		private int batchTimeout = 0;

		/** {@code acks}: 0, 1 or -1 (all). */
		private int requiredAcks = 1;

		/** {@code none}, {@code gzip}, {@code snappy}, {@code lz4} or {@code zstd}. */
		private String compressionCodec = "none";

		private int replicationFactor = 1;

		private int minPartitionCount = 1;

		/** Listener threads per consumer binding. */
		private int concurrency = 1;

		/** Largest fetch per partition, in bytes ({@code max.partition.fetch.bytes}). */
		private int fetchSize = 1048576;

		/** Deliveries of a failing record before it goes to the dead-letter topic (Spring XD had none). */
		private int maxAttempts = 3;

		private long backOffInitialInterval = 1000;

		private long backOffMaxInterval = 10000;

		private double backOffMultiplier = 2.0;

		/** Accepted for Spring XD compatibility; Kafka's own fetch queueing replaces it. */
		private int queueSize = 8192;

		/** Wait for each send to be acknowledged before the next. */
		private boolean syncProducer = false;

		public int getBatchSize() {
			return this.batchSize;
		}

		public void setBatchSize(int batchSize) {
			this.batchSize = batchSize;
		}

		public int getBatchTimeout() {
			return this.batchTimeout;
		}

		public void setBatchTimeout(int batchTimeout) {
			this.batchTimeout = batchTimeout;
		}

		public int getRequiredAcks() {
			return this.requiredAcks;
		}

		public void setRequiredAcks(int requiredAcks) {
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

		public int getFetchSize() {
			return this.fetchSize;
		}

		public void setFetchSize(int fetchSize) {
			this.fetchSize = fetchSize;
		}

		public int getMaxAttempts() {
			return this.maxAttempts;
		}

		public void setMaxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		public long getBackOffInitialInterval() {
			return this.backOffInitialInterval;
		}

		public void setBackOffInitialInterval(long backOffInitialInterval) {
			this.backOffInitialInterval = backOffInitialInterval;
		}

		public long getBackOffMaxInterval() {
			return this.backOffMaxInterval;
		}

		public void setBackOffMaxInterval(long backOffMaxInterval) {
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
}
