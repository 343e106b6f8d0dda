package io.xd.bus;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;

/**
 * The message given to this send <em>was</em> sent, but an earlier asynchronous send of the same producer binding
 * failed (its cause): the module learns of that failure on its next send, without the message of that next send
 * being dropped. A module that sends again on any failure may send the failed message a second time; it loses none.
 */
public class EarlierSendFailedException extends MessageDeliveryException {

	public EarlierSendFailedException(Message<?> sentMessage, String description, Throwable earlierFailure) {
		super(sentMessage, description, earlierFailure);
	}
}
