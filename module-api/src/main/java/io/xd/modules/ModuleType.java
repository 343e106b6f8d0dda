package io.xd.modules;

import java.util.Locale;

/**
 * The role of a module in a stream, decided by its position in the stream definition.
 * <p>
 * A source produces messages and has no input; a processor consumes from its input and produces to its
 * output; a sink only consumes.
 */
public enum ModuleType {

	/** Produces messages; the first module of a stream that does not start from a named channel. */
	SOURCE,

	/** Consumes and produces; every module between the first and the last. */
	PROCESSOR,

	/** Consumes only; the last module of a stream that does not end in a named channel. */
	SINK;

	/** The lower-case name users type, as in {@code source:time}. */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The type named by {@code text}, ignoring case.
	 * @throws IllegalArgumentException naming the valid types when {@code text} names none
	 */
	public static ModuleType fromLabel(String text) {
		for (ModuleType type : values()) {
			if (type.label().equalsIgnoreCase(text)) {
				return type;
			}
		}
		throw new IllegalArgumentException("Unknown module type '" + text + "'; valid types are source, processor, sink");
	}

	@Override
	public String toString() {
		return label();
	}
}
