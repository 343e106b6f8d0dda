package io.xd.modules;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

/**
 * A module that consumes messages and produces messages. {@link #handleMessage} is called only after
 * {@link #start} has returned, and may be called concurrently from several threads; it sends its results (none,
 * one or several per input) to the output given to {@link #start}, on the calling thread or on threads of its own.
 * An exception thrown from {@code handleMessage} reports the failure to the bus, which decides whether to retry
 * the message or move it to an error destination: never swallow an error a user should see.
 */
public interface Processor extends Module, MessageHandler {

	/** Called once, before the first message, with the channel to send results to. */
	void start(MessageChannel output);
}
