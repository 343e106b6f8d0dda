package io.xd.bus.local;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessageHandler;

import io.xd.bus.ConsumerFailedException;
import io.xd.bus.SendCounter;

/**
 * The handlers a local producer channel can point at. Each is immutable: rebinding swaps the producer's target
 * rather than changing one, so the send path reads one volatile field and makes one call.
 */
final class Targets {

	private Targets() {
	}

	/** Rejects every message with a sentence naming the channel and the reason. */
	static MessageHandler rejecting(String reason) {
		return message -> {
			throw new MessageDeliveryException(message, reason);
		};
	}

	/** Gives each message to the next of several consumers in turn. */
	static MessageHandler roundRobin(MessageHandler[] consumers) {
		AtomicInteger next = new AtomicInteger();
		return message -> consumers[Math.floorMod(next.getAndIncrement(), consumers.length)].handleMessage(message);
	}

	/** Delivers to {@code primary}, then publishes the same message to a tap. */
	static MessageHandler tee(MessageHandler primary, MessageHandler tap) {
		return new Tee(primary, tap);
	}

	/**
	 * Delivers to {@code target}, then counts the message as sent; also when a consumer took it and failed on it
	 * (as a directly bound consumer that counts for its producer does), but not when no consumer took it.
	 */
	static MessageHandler counting(MessageHandler target, SendCounter counter) {
		return new Counting(target, counter);
	}

	private record Counting(MessageHandler target, SendCounter counter) implements MessageHandler {

		@Override
		public void handleMessage(Message<?> message) {
			try {
				this.target.handleMessage(message);
			}
			catch (ConsumerFailedException ex) {
				this.counter.sent(message);
				throw ex;
			}
			this.counter.sent(message);
		}
	}

	private record Tee(MessageHandler primary, MessageHandler tap) implements MessageHandler {

		@Override
		public void handleMessage(Message<?> message) {
			this.primary.handleMessage(message);
			this.tap.handleMessage(message);
		}
	}
}
