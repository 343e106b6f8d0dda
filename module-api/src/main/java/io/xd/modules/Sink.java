package io.xd.modules;

import org.springframework.messaging.MessageHandler;

/**
 * A module that only consumes messages: the last module of a stream that does not end in a named channel.
 * {@link #handleMessage} is called only after {@link #start} has returned, and may be called concurrently from
 * several threads (a directly bound sink runs on its producers' threads, so it should not block for long). An
 * exception thrown from it reports the failure to the bus, which retries the message or moves it to an error
 * destination (see {@link Processor}).
 */
public interface Sink extends Module, MessageHandler {

	/** Called once, before the first message. The default does nothing. */
	default void start() {
	}
}
