package io.xd.modules;

import org.springframework.messaging.MessageHandler;

/**
 * A module that only consumes messages. {@link #handleMessage} may be called concurrently from several threads;
 * an exception thrown from it reports the failure to the bus (see {@link Processor}).
 */
public interface Sink extends Module, MessageHandler {

	/** Called once, before the first message. The default does nothing. */
	default void start() {
	}
}
