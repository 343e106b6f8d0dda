package io.xd.container;

import io.xd.bus.MessageBus;
import io.xd.bus.local.LocalMessageBus;

/** The router sink on the local bus (singlenode). */
class RouterSinkLocalBusTests extends AbstractRouterSinkBusTests {

	@Override
	protected MessageBus newBus() {
		return new LocalMessageBus();
	}
}
