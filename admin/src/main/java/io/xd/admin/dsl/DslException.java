package io.xd.admin.dsl;

import java.util.Objects;

/**
 * A stream definition that cannot be parsed.
 * <p>
 * The message has exactly three lines: {@code XDnnnE:(pos N): sentence}, the definition, and a caret under the
 * offending character (N spaces then {@code ^}). In the echoed definition, tabs, carriage returns and newlines are
 * shown as single spaces so that the definition stays on one line and the caret stays aligned; {@link #definition()}
 * returns the text unchanged.
 */
public class DslException extends RuntimeException {

	private final DslErrorCode code;

	private final String definition;

	private final int position;

	private final String detail;

	/**
	 * Creates the exception for one error.
	 * @param code the kind of error
	 * @param definition the text being parsed; {@code null} is recorded as the empty string
	 * @param position 0-based character offset of the problem, from 0 to the length of the definition inclusive
	 *     (the length itself meaning "at the end")
	 * @param arguments the values for the placeholders of the code's template
	 * @throws IllegalArgumentException if {@code position} lies outside the definition
	 */
	public DslException(DslErrorCode code, String definition, int position, Object... arguments) {
		this(Objects.requireNonNull(code, "code"), code.format(arguments), definition == null ? "" : definition,
				position);
	}

	private DslException(DslErrorCode code, String detail, String definition, int position) {
		super(render(code, definition, position, detail));
		if (position < 0 || position > definition.length()) {
			throw new IllegalArgumentException(
					"Position " + position + " is outside a definition of length " + definition.length());
		}
		this.code = code;
		this.definition = definition;
		this.position = position;
		this.detail = detail;
	}

	/** The kind of error. */
	public DslErrorCode code() {
		return this.code;
	}

	/** The 0-based character offset of the problem; equal to the definition's length when the text ended too early. */
	public int position() {
		return this.position;
	}

	/** The definition as given to the parser (the empty string when it was null). */
	public String definition() {
		return this.definition;
	}

	/** The explanatory sentence alone, without code, position or caret. */
	public String detail() {
		return this.detail;
	}

	private static String render(DslErrorCode code, String definition, int position, String detail) {
		StringBuilder message = new StringBuilder(detail.length() + 2 * definition.length() + 24);
		message.append(code.code()).append(":(pos ").append(position).append("): ").append(detail).append('\n');
		for (int i = 0; i < definition.length(); i++) {
			char c = definition.charAt(i);
			// one character in, one character out: keeps three lines and the caret under the right column
			message.append(c == '\n' || c == '\r' || c == '\t' ? ' ' : c);
		}
		message.append('\n');
		message.append(" ".repeat(Math.max(position, 0))).append('^');
		return message.toString();
	}
}
