package io.xd.bus;

/**
 * Counts what a consumer binding gave up on, for whoever bound it (the container's module meters): a consumer's
 * {@link org.springframework.messaging.MessageHandler} that also implements this interface hears of each message the
 * bus moved to its error path because of it. The Kafka bus calls it once per record published to the binding's
 * dead-letter topic (after the last attempt, once the publication succeeded); the local bus once per message
 * published to {@code topic:xd.errors} (whether or not that topic has a subscriber). It is called on a thread of the
 * bus, possibly concurrently for a binding of several threads, and must not block or throw.
 */
@FunctionalInterface
public interface DeadLetterCounter {

	/** Counts one message moved to the error path; {@code cause} is why its handling failed. */
	void deadLettered(Throwable cause);
}
