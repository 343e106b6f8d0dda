package io.xd.bus.kafka;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
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
	 * a module's own {@code producer.requiredAcks} still wins for that module. Off by default, as in Spring XD: unless
	 * {@code requiredAcks} is set, a topic of one replica is sent to with {@code acks=1} (the leader's append suffices,
	 * and loses nothing when the broker process dies and restarts: its log is on disk), and a replicated topic with
	 * {@code acks=all} and idempotence already (see {@link KafkaBindingDefaults#getRequiredAcks()}).
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

	private final KafkaBindingDefaults defaults = new KafkaBindingDefaults();

	private final Map<String, String> producerProperties = new LinkedHashMap<>();

	private final Map<String, String> consumerProperties = new LinkedHashMap<>();

	private final KafkaSecurityProperties security = new KafkaSecurityProperties();

	private final KafkaSaslProperties sasl = new KafkaSaslProperties();

	private final KafkaSslProperties ssl = new KafkaSslProperties();

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
	@NestedConfigurationProperty
	public KafkaBindingDefaults getDefault() {
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
	@NestedConfigurationProperty
	public KafkaSecurityProperties getSecurity() {
		return this.security;
	}

	/** The SASL credentials of the bus's clients: {@code xd.messagebus.kafka.sasl.*}. */
	@NestedConfigurationProperty
	public KafkaSaslProperties getSasl() {
		return this.sasl;
	}

	/** The TLS settings of the bus's clients: {@code xd.messagebus.kafka.ssl.*}. */
	@NestedConfigurationProperty
	public KafkaSslProperties getSsl() {
		return this.ssl;
	}
}
