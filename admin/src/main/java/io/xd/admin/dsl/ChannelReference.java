package io.xd.admin.dsl;

import java.util.Objects;

/**
 * A named channel at either end of a stream: {@code queue:orders}, {@code topic:news}, or, as a source only, a tap
 * such as {@code tap:stream:ticktock.transform} or {@code tap:queue:orders}.
 *
 * @param kind what is referenced
 * @param name the channel name (dotted segments allowed) or, for {@link Kind#TAP_STREAM}, the tapped stream's name
 * @param label for {@link Kind#TAP_STREAM} the label of the tapped module, or {@code null} to tap the stream's
 *     source; always {@code null} for the other kinds
 * @param position 0-based character offset of the reference in the definition
 */
public record ChannelReference(Kind kind, String name, String label, int position) {

	/** What a channel reference points at. */
	public enum Kind {

		/** A point-to-point channel, {@code queue:NAME}. */
		QUEUE("queue:"),

		/** A publish-subscribe channel, {@code topic:NAME}. */
		TOPIC("topic:"),

		/** A copy of what flows out of a module of another stream, {@code tap:stream:STREAM[.LABEL]}. */
		TAP_STREAM("tap:stream:"),

		/** A copy of what flows through a queue, {@code tap:queue:NAME}. */
		TAP_QUEUE("tap:queue:"),

		/** A copy of what flows through a topic, {@code tap:topic:NAME}. */
		TAP_TOPIC("tap:topic:");

		private final String prefix;

		Kind(String prefix) {
			this.prefix = prefix;
		}

		/** The text that starts a reference of this kind, including the trailing colon. */
		public String prefix() {
			return this.prefix;
		}

		/** Whether this kind is a tap, which may only be the source of a stream. */
		public boolean isTap() {
			return this == TAP_STREAM || this == TAP_QUEUE || this == TAP_TOPIC;
		}
	}

	/**
	 * @throws NullPointerException if {@code kind} or {@code name} is null
	 * @throws IllegalArgumentException if {@code name} is empty, {@code position} is negative, or a label is given
	 *     for a kind other than {@link Kind#TAP_STREAM}
	 */
	public ChannelReference {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(name, "name");
		if (name.isEmpty()) {
			throw new IllegalArgumentException("A channel reference needs a name");
		}
		if (label != null && kind != Kind.TAP_STREAM) {
			throw new IllegalArgumentException("Only a stream tap can name a module label, not " + kind);
		}
		if (position < 0) {
			throw new IllegalArgumentException("Position must not be negative: " + position);
		}
	}

	/** The reference as written in the language, such as {@code queue:orders} or {@code tap:stream:s.transform}. */
	@Override
	public String toString() {
		return this.kind.prefix() + this.name + (this.label == null ? "" : "." + this.label);
	}
}
