package io.xd.bus.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;

import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

import io.xd.bus.BindingProperties;

/**
 * A consumer binding's settings, resolved once when it binds from its {@code module.<label>.consumer.*} properties
 * over the bus defaults.
 * @param raw whether records carry the payload only (mode {@code raw})
 * @param concurrency listener threads of the binding
 * @param minPartitionCount partitions the topic has at least (more when instances x concurrency need them)
 * @param replicationFactor replicas of a topic the binding creates
 * @param maxAttempts deliveries of a failing record before it goes to the dead-letter topic
 * @param backOffInitialInterval wait before the second delivery
 * @param backOffMaxInterval longest wait between deliveries
 * @param backOffMultiplier growth of the wait after each failed delivery
 * @param transactional whether each poll's records, what the module sends while handling them and their offsets
 * commit in one Kafka transaction ({@link PollTransaction})
 * @param clientConfig the Kafka consumer's configuration, without the group id and offset reset, which depend on
 * the channel
 */
record KafkaConsumerSettings(boolean raw, int concurrency, int minPartitionCount, int replicationFactor,
		int maxAttempts, Duration backOffInitialInterval, Duration backOffMaxInterval, double backOffMultiplier,
		boolean transactional, Duration commitInterval, Map<String, Object> clientConfig) {

	/** The keys of {@code module.<label>.consumer.*} the Kafka bus understands, besides Kafka client properties. */
	static final Set<String> KEYS = Set.of("concurrency", "maxAttempts", "backOffInitialInterval",
			"backOffMaxInterval", "backOffMultiplier", "fetchSize", "minPartitionCount", "replicationFactor",
			"queueSize", "durableSubscription", "autoCommitOffsetEnabled", "transactional", "commitInterval");

	/**
	 * {@code max.poll.records}, unless configured: Kafka's default is 500. Larger polls spread the cost of each poll
	 * and each transaction thinner (the {@code peer} suite, docs/benchmarks.md).
	 */
	static final int MAX_POLL_RECORDS = 2000;

	/** Resolves a binding's properties (already checked against {@link #KEYS}) over the bus's settings. */
	static KafkaConsumerSettings resolve(BindingProperties properties, KafkaBusProperties bus) {
		BindingValues values = new BindingValues(properties);
		if (!values.bool("autoCommitOffsetEnabled", true)) {
			throw new IllegalArgumentException("KafkaMessageBus always commits offsets after the handler returns; "
					+ "autoCommitOffsetEnabled=false is not supported");
		}
		KafkaBindingDefaults defaults = bus.getDefault();
		Map<String, Object> config = new HashMap<>(KafkaSecurity.clientConfig(bus));
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bus.getBrokers());
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		// never a record of an aborted or still open transaction, so that a module downstream of a transactional one
		// sees each forwarded record once, whatever its own mode; a topic without transactions reads the same
		config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, BindingValues.bytes("fetchSize",
				values.size("fetchSize", defaults.getFetchSize())));
		config.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, BindingValues.bytes("socketBufferSize",
				bus.getSocketBufferSize()));
		// incremental rebalancing: when an instance joins or leaves, only the partitions that move are revoked, so
		// the other consumers keep reading what they own; under the consumer protocol they also keep committing
		config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, bus.getGroupProtocol());
		if ("classic".equals(bus.getGroupProtocol())) {
			config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
		}
		boolean transactional = values.bool("transactional", bus.isTransactional());
		config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
		config.putAll(bus.getConsumerProperties());
		values.passThrough(config);
		KafkaSecurity.hidePasswords(config, ConsumerConfig.configDef());
		return new KafkaConsumerSettings(bus.mode() == KafkaBusProperties.Mode.RAW,
				values.atLeastOne("concurrency", defaults.getConcurrency()),
				values.integer("minPartitionCount", defaults.getMinPartitionCount()),
				values.integer("replicationFactor", defaults.getReplicationFactor()),
				values.atLeastOne("maxAttempts", defaults.getMaxAttempts()),
				values.duration("backOffInitialInterval", defaults.getBackOffInitialInterval()),
				values.duration("backOffMaxInterval", defaults.getBackOffMaxInterval()),
				values.decimal("backOffMultiplier", defaults.getBackOffMultiplier()),
				transactional, values.duration("commitInterval", defaults.getCommitInterval()), Map.copyOf(config));
	}

	/** How long to wait between the deliveries of a failing record; none after the last attempt. */
	BackOff backOff() {
		if (this.maxAttempts == 1) {
			return new FixedBackOff(0, 0);
		}
		ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(this.maxAttempts - 1);
		backOff.setInitialInterval(this.backOffInitialInterval.toMillis());
		backOff.setMaxInterval(this.backOffMaxInterval.toMillis());
		backOff.setMultiplier(this.backOffMultiplier);
		return backOff;
	}
}
