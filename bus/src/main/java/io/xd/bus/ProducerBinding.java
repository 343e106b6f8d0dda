package io.xd.bus;

import org.springframework.messaging.MessageChannel;

/**
 * The sending end of a channel: the module sends to {@link #channel()}.
 * <p>
 * {@code channel().send(message)} returns {@code true} when the bus has accepted the message, or throws: it never
 * returns {@code false}. When the consumer is directly bound, the send runs the consumer on the calling thread
 * and throws what the consumer throws. After {@link #unbind()}, a send throws
 * {@link org.springframework.messaging.MessageDeliveryException}.
 */
public interface ProducerBinding extends Binding {

	/** The channel the producing module sends to; the same instance for the life of the binding. */
	MessageChannel channel();
}
