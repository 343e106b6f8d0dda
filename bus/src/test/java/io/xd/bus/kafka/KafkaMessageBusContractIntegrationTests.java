package io.xd.bus.kafka;

import java.time.Duration;

import io.xd.bus.AbstractMessageBusContractTests;
import io.xd.bus.MessageBus;
import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;

/** The bus contract, passed by the Kafka bus against a real broker. */
class KafkaMessageBusContractIntegrationTests extends AbstractMessageBusContractTests {

	@Override
	protected MessageBus createBus() {
		KafkaBusProperties settings = new KafkaBusProperties();
		settings.setBrokers(SharedKafkaBroker.brokers());
		settings.getDefault().setBackOffInitialInterval(Duration.ofMillis(50));
		return new KafkaMessageBus(settings);
	}

	@Override
	protected Duration timeout() {
		return Duration.ofSeconds(30);
	}

	@Override
	protected void awaitConsumersReady() {
		assertThat(((KafkaMessageBus) this.bus).awaitConsumersAssigned(Duration.ofSeconds(30)))
			.as("consumers assigned their partitions")
			.isTrue();
	}
}
