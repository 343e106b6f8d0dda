package io.xd.modules;

import java.util.Map;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;

/**
 * Messages for the hot path. {@link org.springframework.messaging.support.MessageBuilder} gives every message a
 * random UUID id, a timestamp and a header map of its own, which costs more than the rest of a direct-bound hop.
 * A message made here shares one immutable, empty header set and carries no id and no timestamp, so creating it
 * allocates only the message object itself.
 */
public final class ModuleMessages {

	private static final MessageHeaders NO_HEADERS = new SharedHeaders();

	private ModuleMessages() {
	}

	/** A message of {@code payload} with no headers at all (no id, no timestamp). */
	public static <T> Message<T> of(T payload) {
		return new GenericMessage<>(payload, NO_HEADERS);
	}

	/** The shared empty headers: no id, no timestamp, no entries. */
	public static MessageHeaders noHeaders() {
		return NO_HEADERS;
	}

	private static final class SharedHeaders extends MessageHeaders {

		SharedHeaders() {
			super(Map.of(), ID_VALUE_NONE, -1L);
		}
	}
}
