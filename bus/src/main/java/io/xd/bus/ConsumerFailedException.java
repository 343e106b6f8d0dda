package io.xd.bus;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;

/**
 * A consumer failed to handle a message, and the bus has reported the failure already: logged it and published it
 * to its error channel. Thrown back to the producer of a directly bound channel, through every module upstream;
 * whoever catches it must not report or count the failure again (its cause is the consumer's exception).
 */
public class ConsumerFailedException extends MessageDeliveryException {

	public ConsumerFailedException(Message<?> message, String description, Throwable cause) {
		super(message, description, cause);
	}

	/**
	 * Whether {@code failure}, or any of its causes, is a failure the bus has reported: a module upstream that
	 * sent the message on may have wrapped it in an exception of its own.
	 */
	public static boolean isReported(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ConsumerFailedException) {
				return true;
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return false;
	}
}
