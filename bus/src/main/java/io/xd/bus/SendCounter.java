package io.xd.bus;

import org.springframework.messaging.Message;

/**
 * Counts what a producer binding sends, for whoever bound it (the container's module meters): the bus calls it on
 * the sending thread for each message the binding's channel accepted. Over a direct binding the local bus may
 * instead have the consumer count the hop once, for both ends (see {@link DirectConsumer}).
 */
@FunctionalInterface
public interface SendCounter {

	/** Counts one message the producer binding's channel accepted. */
	void sent(Message<?> message);
}
