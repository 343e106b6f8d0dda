package io.xd.bus.local;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

import io.xd.bus.ProducerBinding;
import io.xd.bus.SendCounter;

/**
 * The sending end of a channel on the local bus: a {@link LocalProducerChannel} that the bus wires, and rewires as
 * consumers and tap subscribers come and go. Its fields are the bus's to read and change, under the bus's lock.
 */
final class LocalProducerBinding implements ProducerBinding {

	private final LocalMessageBus bus;

	final String name;

	final String tapName;

	final MessageHandler publisher;

	/** What counts this producer's sends, or {@code null}. */
	final SendCounter counter;

	final LocalProducerChannel channel;

	boolean unbound;

	LocalProducerBinding(LocalMessageBus bus, String name, String tapName, MessageHandler publisher,
			SendCounter counter) {
		this.bus = bus;
		this.name = name;
		this.tapName = tapName;
		this.publisher = publisher;
		this.counter = counter;
		this.channel = new LocalProducerChannel(name, Targets.rejecting("Producer binding of '" + name
				+ "' is not wired yet"));
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public MessageChannel channel() {
		return this.channel;
	}

	@Override
	public void unbind() {
		this.bus.unbindProducer(this);
	}
}
