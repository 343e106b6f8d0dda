package io.xd.container;

import java.time.Duration;

import io.xd.bus.MessageBus;
import io.xd.bus.kafka.KafkaBusProperties;
import io.xd.bus.kafka.KafkaMessageBus;
import io.xd.testsupport.SharedKafkaBroker;

/** The router sink on the Kafka bus, on the bus tests' in-process broker (KRaft). */
class RouterSinkKafkaBusIntegrationTests extends AbstractRouterSinkBusTests {

	@Override
	protected MessageBus newBus() {
		KafkaBusProperties settings = new KafkaBusProperties();
		settings.setBrokers(SharedKafkaBroker.brokers());
		// a failing record is retried quickly before it goes to the error path
		settings.getDefault().setBackOffInitialInterval(Duration.ofMillis(20));
		settings.getDefault().setBackOffMaxInterval(Duration.ofMillis(50));
		return new KafkaMessageBus(settings);
	}
}
