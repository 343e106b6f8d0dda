package io.xd.bus.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerConfig;


import io.xd.bus.BindingProperties;
import io.xd.modules.expression.SafeExpression;

/**
 * A producer binding's settings, resolved once when it binds from its {@code module.<label>.producer.*} properties
 * over the bus defaults, so that nothing is parsed per message.
 * @param raw whether records carry the payload only (mode {@code raw}) rather than the headers too
 * @param minPartitionCount partitions the topic has at least
 * @param replicationFactor replicas of a topic the binding creates
 * @param partitionKey the {@code partitionKeyExpression}, evaluated on each message, or {@code null} to let Kafka's
 * partitioner choose
 * @param sync whether each send waits for the broker's acknowledgement ({@code syncProducer})
 * @param clientConfig the Kafka producer's configuration; bindings with equal configurations share a producer
 */
record KafkaProducerSettings(boolean raw, int minPartitionCount, int replicationFactor, SafeExpression partitionKey,
		boolean sync, Map<String, Object> clientConfig) {

	/** The keys of {@code module.<label>.producer.*} the Kafka bus understands, besides Kafka client properties. */
	static final Set<String> KEYS = Set.of("batchSize", "batchTimeout", "requiredAcks", "compressionCodec",
			"minPartitionCount", "replicationFactor", "partitionKeyExpression", "syncProducer");

	/**
	 * Resolves a binding's properties (already checked against {@link #KEYS}) over the bus's settings, for a topic with
	 * as many replicas as the binding asks for.
	 */
	static KafkaProducerSettings resolve(BindingProperties properties, KafkaBusProperties bus) {
		return resolve(properties, bus, 0);
	}

	/**
	 * Resolves a binding's properties (already checked against {@link #KEYS}) over the bus's settings, for a topic of
	 * {@code topicReplicas} replicas (0: as many as the binding asks for). Unless {@code requiredAcks} is set (for the
	 * module, or {@code default.requiredAcks}), {@code noLoss}, exactly-once and a replicated topic send with
	 * {@code acks=all}, and a topic of one replica with {@code acks=1}.
	 */
	static KafkaProducerSettings resolve(BindingProperties properties, KafkaBusProperties bus, int topicReplicas) {
		KafkaBindingDefaults defaults = bus.getDefault();
		BindingValues values = new BindingValues(properties);
		Map<String, Object> config = new HashMap<>(KafkaSecurity.clientConfig(bus));
		config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bus.getBrokers());
		int replicationFactor = values.integer("replicationFactor", defaults.getReplicationFactor());
		int replicas = (topicReplicas > 0) ? topicReplicas : replicationFactor;
		String defaultAcks = (bus.isNoLoss() || bus.isTransactional()) ? "all"
				: (defaults.getRequiredAcks() != null) ? String.valueOf(defaults.getRequiredAcks())
						: (replicas > 1) ? "all" : "1";
		String acks = acks(values.text("requiredAcks", defaultAcks));
		config.put(ProducerConfig.ACKS_CONFIG, acks);
		// idempotence needs acks=all; said either way, so that Kafka's own default does not decide it silently
		config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(acks.equals("all")));
		config.put(ProducerConfig.BATCH_SIZE_CONFIG, BindingValues.bytes("batchSize",
				values.size("batchSize", defaults.getBatchSize())));
		config.put(ProducerConfig.LINGER_MS_CONFIG, BindingValues.millis("batchTimeout",
				values.duration("batchTimeout", defaults.getBatchTimeout())));
		config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, values.text("compressionCodec",
				defaults.getCompressionCodec()));
		config.putAll(bus.getProducerProperties());
		values.passThrough(config);
		capBatchSize(config);
		KafkaSecurity.hidePasswords(config, ProducerConfig.configDef());
		String keyExpression = values.text("partitionKeyExpression", null);
		return new KafkaProducerSettings(bus.mode() == KafkaBusProperties.Mode.RAW,
				values.integer("minPartitionCount", defaults.getMinPartitionCount()),
				replicationFactor, (keyExpression == null) ? null : parseKeyExpression(keyExpression),
				values.bool("syncProducer", defaults.isSyncProducer()), Map.copyOf(config));
	}

	/** The settings of a producer that only the bus itself uses (dead letters): the defaults. */
	static KafkaProducerSettings defaults(KafkaBusProperties bus) {
		return resolve(BindingProperties.NONE, bus);
	}

	/**
	 * A batch never larger than a request may be ({@code max.request.size}, 1 MB unless set): a batch of small records
	 * grown past it would be refused whole.
	 */
	private static void capBatchSize(Map<String, Object> config) {
		Object maxRequest = config.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
		if (maxRequest == null) {
			return;
		}
		int limit;
		try {
			limit = Integer.parseInt(maxRequest.toString().trim());
		}
		catch (NumberFormatException ex) {
			// the Kafka client reports it, naming the property
			return;
		}
		int batch = Integer.parseInt(config.get(ProducerConfig.BATCH_SIZE_CONFIG).toString().trim());
		if (limit > 0 && batch > limit) {
			config.put(ProducerConfig.BATCH_SIZE_CONFIG, limit);
		}
	}

	private static String acks(String requiredAcks) {
		return switch (requiredAcks.trim()) {
			case "-1", "all" -> "all";
			case "0" -> "0";
			case "1" -> "1";
			default -> throw new IllegalArgumentException("requiredAcks must be -1 (all), 0 or 1, but was '"
					+ requiredAcks + "'");
		};
	}

	/** A partition key expression goes through the one safe evaluator of module expressions. */
	private static SafeExpression parseKeyExpression(String text) {
		try {
			return SafeExpression.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("partitionKeyExpression '" + text + "' is not a valid expression: "
					+ ex.getMessage());
		}
	}
}
