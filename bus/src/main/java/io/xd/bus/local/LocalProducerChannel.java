package io.xd.bus.local;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

/**
 * What a producing module sends to on the local bus: a call to whatever the bus currently wires it to (a directly
 * bound consumer, a queue, a topic, or one of those plus a tap). The send path allocates nothing and takes no lock.
 */
final class LocalProducerChannel implements MessageChannel {

	private final String name;

	private volatile MessageHandler target;

	LocalProducerChannel(String name, MessageHandler target) {
		this.name = name;
		this.target = target;
	}

	void wire(MessageHandler newTarget) {
		this.target = newTarget;
	}

	@Override
	public boolean send(Message<?> message) {
		this.target.handleMessage(message);
		return true;
	}

	@Override
	public boolean send(Message<?> message, long timeout) {
		return send(message);
	}

	@Override
	public String toString() {
		return "LocalProducerChannel[" + this.name + "]";
	}
}
