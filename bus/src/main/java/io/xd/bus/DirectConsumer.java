package io.xd.bus;

import org.springframework.messaging.MessageHandler;

/**
 * A consumer that counts what it handles and can count, with the same count, what a producer bound straight to it
 * sends: a direct binding's hop is then counted once per message instead of once at each end. The local bus wires a
 * counted producer whose channel has this consumer as its only consumer to {@link #countingSendsOf} instead of to
 * the consumer itself; other buses ignore this interface.
 */
public interface DirectConsumer extends MessageHandler {

	/**
	 * A handler that handles each message as this consumer does, counting it as this consumer's input and as sent
	 * by the producer that {@code producer} counts for. A message this consumer then fails on has been counted as
	 * sent. The bus may ask again for the same producer, each time it rewires it.
	 */
	MessageHandler countingSendsOf(SendCounter producer);
}
