package io.xd.bus;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

/**
 * A producer binding whose channel tells a {@link SendCounter} of each message the bus accepted: how a bus that does
 * not count its producers itself honours {@link MessageBus#bindProducer(String, String, BindingProperties, SendCounter)}.
 */
final class CountedProducerBinding implements ProducerBinding {

	private final ProducerBinding binding;

	private final MessageChannel channel;

	private CountedProducerBinding(ProducerBinding binding, SendCounter counter) {
		this.binding = binding;
		MessageChannel sending = binding.channel();
		this.channel = new MessageChannel() {

			@Override
			public boolean send(Message<?> message, long timeout) {
				boolean sent;
				try {
					sent = sending.send(message, timeout);
				}
				catch (EarlierSendFailedException ex) {
					// this message was sent; the failure is an earlier one's
					counter.sent(message);
					throw ex;
				}
				if (sent) {
					counter.sent(message);
				}
				return sent;
			}
		};
	}

	/** {@code binding}, counted by {@code counter}; {@code binding} itself when there is no counter. */
	static ProducerBinding of(ProducerBinding binding, SendCounter counter) {
		return (counter != null) ? new CountedProducerBinding(binding, counter) : binding;
	}

	@Override
	public String name() {
		return this.binding.name();
	}

	@Override
	public MessageChannel channel() {
		return this.channel;
	}

	@Override
	public void unbind() {
		this.binding.unbind();
	}
}
