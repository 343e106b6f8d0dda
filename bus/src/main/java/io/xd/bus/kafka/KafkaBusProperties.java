package io.xd.bus.kafka;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.springframework.util.unit.DataSize;

/**
 * The settings of the Kafka bus, bound from {@code xd.messagebus.kafka.*} in {@code servers.yml} with Spring XD's
 * keys. Defaults are Spring XD's, except where noted. Times are {@link Duration}s and sizes {@link DataSize}s: a
 * bare number, as Spring XD wrote them, is milliseconds or bytes ({@code batchTimeout: 5}, {@code fetchSize:
 * 1048576}); {@code 5ms} or {@code 1MB} say the unit.
 * <p>
 * {@code zkAddress} and the {@code offset*} keys of Spring XD are accepted and ignored: Kafka 4 keeps offsets
 * itself and needs no ZooKeeper. {@link #getProducerProperties()} and {@link #getConsumerProperties()} pass any
 * Kafka client property through to every producer or consumer.
 * <p>
 * {@code security.protocol}, {@code sasl.*} and {@code ssl.*} connect every client of the bus (producers, consumers,
 * the admin client) to a secured cluster; they are the operator's, and no deployment property of a stream can change
 * them. Passwords are kept out of {@link #toString()} and of what the bus logs.
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

	/** {@code native} (headers as Kafka record headers, the default), {@code raw} (payload only) or {@code embeddedHeaders} (Spring XD's name for native). */
	private String mode = "native";

	private Mode parsedMode = Mode.NATIVE;

	/** Socket receive buffer of consumers ({@code receive.buffer.bytes}). */
	private DataSize socketBufferSize = DataSize.ofBytes(2_097_152);

	/**
	 * No loss of an acknowledged message, even when a broker dies: every producer sends with {@code acks=all} and
	 * idempotence (retries after a lost connection write nothing twice), whatever {@code default.requiredAcks} says;
	 * a module's own {@code producer.requiredAcks} still wins for that module. Off by default, as in Spring XD: with
	 * {@code acks=1} a record is acknowledged once the partition leader has it, which loses nothing when a broker
	 * process dies and restarts (its log is on disk), and only what the leader had not yet replicated when its
	 * machine is lost.
	 */
	private boolean noLoss;

	/**
	 * Exactly-once hops: a consumer handles each poll's records in one Kafka transaction, in which what its module
	 * sends and the poll's offsets are committed together or not at all (read-process-write), so that a crash or a
	 * failing record never makes a forwarded copy appear twice downstream. Every producer sends with {@code acks=all}
	 * and idempotence, as under {@link #isNoLoss() noLoss}. Off by default; a module's own
	 * {@code consumer.transactional} wins for it. Consumers always read committed records only.
	 */
	private boolean transactional;

	/** How long administrative calls (topic creation, metadata) may take before the binding fails. */
	private Duration adminTimeout = Duration.ofSeconds(30);

	/** How often a producer with a tap checks whether a tap subscriber runs in another process. */
	private Duration tapRefreshInterval = Duration.ofSeconds(5);

	private final Defaults defaults = new Defaults();

	private final Map<String, String> producerProperties = new LinkedHashMap<>();

	private final Map<String, String> consumerProperties = new LinkedHashMap<>();

	private final Security security = new Security();

	private final Sasl sasl = new Sasl();

	private final Ssl ssl = new Ssl();

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
		this.parsedMode = Mode.parse(mode);
		this.mode = mode;
	}

	/** The mode as parsed when it was set. */
	public Mode mode() {
		return this.parsedMode;
	}

	public boolean isNoLoss() {
		return this.noLoss;
	}

	public void setNoLoss(boolean noLoss) {
		this.noLoss = noLoss;
	}

	public boolean isTransactional() {
		return this.transactional;
	}

	public void setTransactional(boolean transactional) {
		this.transactional = transactional;
	}

	public DataSize getSocketBufferSize() {
		return this.socketBufferSize;
	}

	public void setSocketBufferSize(DataSize socketBufferSize) {
		this.socketBufferSize = socketBufferSize;
	}

	public Duration getAdminTimeout() {
		return this.adminTimeout;
	}

	public void setAdminTimeout(Duration adminTimeout) {
		this.adminTimeout = adminTimeout;
	}

	public Duration getTapRefreshInterval() {
		return this.tapRefreshInterval;
	}

	public void setTapRefreshInterval(Duration tapRefreshInterval) {
		this.tapRefreshInterval = tapRefreshInterval;
	}

	/** Spring XD's {@code xd.messagebus.kafka.default.*}: binding defaults that deployment properties override. */
	public Defaults getDefault() {
		return this.defaults;
	}

	/** Kafka producer properties given to every producer of the bus, such as {@code linger.ms}. */
	public Map<String, String> getProducerProperties() {
		return this.producerProperties;
	}

	/** Kafka consumer properties given to every consumer of the bus, such as {@code fetch.min.bytes}. */
	public Map<String, String> getConsumerProperties() {
		return this.consumerProperties;
	}

	/** How the bus's clients reach the brokers: {@code xd.messagebus.kafka.security.*}. */
	public Security getSecurity() {
		return this.security;
	}

	/** The SASL credentials of the bus's clients: {@code xd.messagebus.kafka.sasl.*}. */
	public Sasl getSasl() {
		return this.sasl;
	}

	/** The TLS settings of the bus's clients: {@code xd.messagebus.kafka.ssl.*}. */
	public Ssl getSsl() {
		return this.ssl;
	}

	/** How the bus's clients connect to the brokers. */
	public static class Security {

		/** {@code PLAINTEXT} (the default), {@code SSL}, {@code SASL_PLAINTEXT} or {@code SASL_SSL}. */
		private String protocol = "PLAINTEXT";

		public String getProtocol() {
			return this.protocol;
		}

		public void setProtocol(String protocol) {
			this.protocol = KafkaSecurity.protocol(protocol);
		}
	}

	/**
	 * The SASL mechanism and credentials; the bus writes the JAAS configuration ({@code sasl.jaas.config}) from them.
	 * Not printed by {@link #toString()}.
	 */
	public static class Sasl {

		/** {@code SCRAM-SHA-256} (the default), {@code SCRAM-SHA-512} or {@code PLAIN}. */
		private String mechanism = "SCRAM-SHA-256";

		/** The user name the bus authenticates as. */
		private String username;

		/** The user's password; never printed or logged. */
		private String password;

		public String getMechanism() {
			return this.mechanism;
		}

		public void setMechanism(String mechanism) {
			this.mechanism = KafkaSecurity.mechanism(mechanism);
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		@Override
		public String toString() {
			return "Sasl[mechanism=" + this.mechanism + ", username=" + this.username + ", password="
					+ ((this.password == null) ? "none" : "[hidden]") + "]";
		}
	}

	/** TLS settings, for the protocols {@code SSL} and {@code SASL_SSL}. Passwords are not printed by {@link #toString()}. */
	public static class Ssl {

		/** The trust store holding the certificates of the brokers' certificate authority ({@code ssl.truststore.location}). */
		private String truststoreLocation;

		/** The trust store's password; never printed or logged. */
		private String truststorePassword;

		/** {@code JKS}, {@code PKCS12} or {@code PEM} (Kafka's default: {@code JKS}). */
		private String truststoreType;

		/** The key store holding the client's certificate, for brokers that authenticate clients by TLS. */
		private String keystoreLocation;

		/** The key store's password; never printed or logged. */
		private String keystorePassword;

		/** {@code JKS}, {@code PKCS12} or {@code PEM} (Kafka's default: {@code JKS}). */
		private String keystoreType;

		/** The password of the private key in the key store; never printed or logged. */
		private String keyPassword;

		/** {@code https} (the default) checks the broker's host name against its certificate; empty turns that off. */
		private String endpointIdentificationAlgorithm = "https";

		public String getTruststoreLocation() {
			return this.truststoreLocation;
		}

		public void setTruststoreLocation(String truststoreLocation) {
			this.truststoreLocation = truststoreLocation;
		}

		public String getTruststorePassword() {
			return this.truststorePassword;
		}

		public void setTruststorePassword(String truststorePassword) {
			this.truststorePassword = truststorePassword;
		}

		public String getTruststoreType() {
			return this.truststoreType;
		}

		public void setTruststoreType(String truststoreType) {
			this.truststoreType = truststoreType;
		}

		public String getKeystoreLocation() {
			return this.keystoreLocation;
		}

		public void setKeystoreLocation(String keystoreLocation) {
			this.keystoreLocation = keystoreLocation;
		}

		public String getKeystorePassword() {
			return this.keystorePassword;
		}

		public void setKeystorePassword(String keystorePassword) {
			this.keystorePassword = keystorePassword;
		}

		public String getKeystoreType() {
			return this.keystoreType;
		}

		public void setKeystoreType(String keystoreType) {
			this.keystoreType = keystoreType;
		}

		public String getKeyPassword() {
			return this.keyPassword;
		}

		public void setKeyPassword(String keyPassword) {
			this.keyPassword = keyPassword;
		}

		public String getEndpointIdentificationAlgorithm() {
			return this.endpointIdentificationAlgorithm;
		}

		public void setEndpointIdentificationAlgorithm(String endpointIdentificationAlgorithm) {
			this.endpointIdentificationAlgorithm = (endpointIdentificationAlgorithm == null) ? ""
					: endpointIdentificationAlgorithm;
		}

		@Override
		public String toString() {
			return "Ssl[truststoreLocation=" + this.truststoreLocation + ", keystoreLocation=" + this.keystoreLocation
					+ ", endpointIdentificationAlgorithm=" + this.endpointIdentificationAlgorithm + ", passwords "
					+ "[hidden]]";
		}
	}

	/** Binding defaults; each may be overridden per module by {@code module.<label>.producer|consumer.<key>}. */
	public static class Defaults {

		/** Producer batch size ({@code batch.size}). */
		private DataSize batchSize = DataSize.ofBytes(16_384);

		/**
		 * How long a producer waits to fill a batch ({@code linger.ms}): 1 ms, where Spring XD had 0, from the latency
		 * suite (docs/benchmarks.md#kafka-latency-cold-and-warm): at 10 000 msg/s and more, batches of a millisecond
		 * take most requests off the broker, and lower the tail and the median.
		 */
		private Duration batchTimeout = Duration.ofMillis(1);

		/** {@code acks}: 0, 1 or -1 (all). */
		private int requiredAcks = 1;

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

		public DataSize getFetchSize() {
			return this.fetchSize;
		}

		public void setFetchSize(DataSize fetchSize) {
			this.fetchSize = fetchSize;
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
}
