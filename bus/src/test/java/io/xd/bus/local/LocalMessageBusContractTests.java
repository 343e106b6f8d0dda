package io.xd.bus.local;

import io.xd.bus.AbstractMessageBusContractTests;
import io.xd.bus.MessageBus;

class LocalMessageBusContractTests extends AbstractMessageBusContractTests {

	@Override
	protected MessageBus createBus() {
		return new LocalMessageBus();
	}
}
