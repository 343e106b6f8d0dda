package io.xd.bus.kafka;

import java.util.Map;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in this JVM) for every test of the JVM that needs one: starting a broker takes
 * seconds, so tests share it and keep apart by using topics of their own.
 */
public final class SharedKafkaBroker {

	private static EmbeddedKafkaKraftBroker broker;

	private SharedKafkaBroker() {
	}

	/** The {@code host:port} of the broker, started on first use and stopped when the JVM exits. */
	public static synchronized String brokers() {
		if (broker == null) {
			EmbeddedKafkaKraftBroker started = new EmbeddedKafkaKraftBroker(1, 1);
			// the consumer group settings of bin/kafka-local: assignments move within a heartbeat of a second, and
			// a killed member's partitions move after 10 s
			started.brokerProperties(Map.of("group.initial.rebalance.delay.ms", "0", "auto.create.topics.enable",
					"false", "offsets.topic.num.partitions", "5", "group.consumer.min.heartbeat.interval.ms", "500",
					"group.consumer.heartbeat.interval.ms", "1000", "group.consumer.min.session.timeout.ms", "3000",
					"group.consumer.session.timeout.ms", "10000"));
			started.afterPropertiesSet();
			Runtime.getRuntime().addShutdownHook(new Thread(started::destroy, "kafka-test-broker-shutdown"));
			broker = started;
		}
		return broker.getBrokersAsString();
	}
}
