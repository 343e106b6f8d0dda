package io.xd.core;

import java.util.Objects;

/**
 * The names of the channels a stream's modules are bound to on the message bus, shared by everything that binds
 * or inspects them.
 * <ul>
 * <li>{@code <stream>.<n>}: the anonymous pipe from the module at index n to the next one (point-to-point);</li>
 * <li>{@code queue:<name>}: a named point-to-point channel, shared between streams;</li>
 * <li>{@code topic:<name>}: a named publish-subscribe channel;</li>
 * <li>{@code tap:stream:<stream>.<module>.<n>}: the publish-subscribe copy of what the module at index n of a
 * stream sends.</li>
 * </ul>
 */
public final class ChannelNames {

	public static final String QUEUE_PREFIX = "queue:";

	public static final String TOPIC_PREFIX = "topic:";

	public static final String TAP_PREFIX = "tap:";

	private ChannelNames() {
	}

	/** The anonymous pipe after the module at {@code index} of {@code stream}. */
	public static String pipe(String stream, int index) {
		Objects.requireNonNull(stream, "stream");
		return stream + "." + index;
	}

	/** The tap channel of what the module {@code moduleName} at {@code index} of {@code stream} sends. */
	public static String streamTap(String stream, String moduleName, int index) {
		return TAP_PREFIX + "stream:" + stream + "." + moduleName + "." + index;
	}

	/** Whether {@code name} is a publish-subscribe channel (a {@code topic:} or a tap). */
	public static boolean isPublishSubscribe(String name) {
		return name.startsWith(TOPIC_PREFIX) || name.startsWith(TAP_PREFIX);
	}

	/** Whether {@code name} is a named point-to-point channel ({@code queue:}). */
	public static boolean isQueue(String name) {
		return name.startsWith(QUEUE_PREFIX);
	}
}
