package io.xd.modules.builtin.mail;

import java.util.Objects;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;

import io.xd.modules.expression.SafeExpression;

/**
 * The value of a header option of the {@code mail} sink ({@code to}, {@code from}, {@code cc}, {@code bcc},
 * {@code replyTo}, {@code subject}): literal text ({@code --to=ops@example.com}, {@code --subject=alert}), or a
 * {@link SafeExpression} evaluated on each message, written either as {@code #{...}}
 * ({@code --subject=#{headers['file_name']}}) or, as Spring XD wrote them, starting with a quote
 * ({@code --to='"ops@example.com"'}, {@code --subject="'Alert: ' + payload.substring(0, 20)"}). Text is at most
 * {@value #MAX_OPTION_LENGTH} characters; a header, literal or evaluated, is at most {@value #MAX_HEADER_LENGTH}
 * characters and never contains a line break (CR, LF) or a NUL, which would let a value add headers of its own.
 * Instances are immutable and thread-safe.
 */
public final class MailHeaderValue {

	/** The longest option text. */
	public static final int MAX_OPTION_LENGTH = 2000;

	/** The longest header value, literal or evaluated. */
	public static final int MAX_HEADER_LENGTH = 4000;

	private final String text;

	private final String literal;

	private final SafeExpression expression;

	private MailHeaderValue(String text, String literal, SafeExpression expression) {
		this.text = text;
		this.literal = literal;
		this.expression = expression;
	}

	/**
	 * Parses an option's text.
	 * @throws IllegalArgumentException for text that is too long, holds a line break, or is a refused expression
	 */
	public static MailHeaderValue parse(String text) {
		Objects.requireNonNull(text, "text");
		if (text.length() > MAX_OPTION_LENGTH) {
			throw new IllegalArgumentException("longer than " + MAX_OPTION_LENGTH + " characters");
		}
		if (text.startsWith("#{") && text.endsWith("}")) {
			return new MailHeaderValue(text, null, SafeExpression.parse(text.substring(2, text.length() - 1)));
		}
		if (text.startsWith("'") || text.startsWith("\"")) {
			return new MailHeaderValue(text, null, SafeExpression.parse(text));
		}
		checkHeader(text);
		return new MailHeaderValue(text, text, null);
	}

	/**
	 * This header's value for a message: the literal text, or the expression's value as text, checked.
	 * @return the value, or null when the expression gives null
	 * @throws MessageHandlingException when the expression fails or its value is not a safe header
	 */
	public String valueFor(Message<?> message, String header) {
		if (this.literal != null) {
			return this.literal;
		}
		Object value = this.expression.evaluate(message);
		if (value == null) {
			return null;
		}
		String text = value.toString();
		try {
			checkHeader(text);
		}
		catch (IllegalArgumentException ex) {
			throw new MessageHandlingException(message, "The mail sink's " + header + " header from " + this.text
					+ " is refused: " + ex.getMessage());
		}
		return text;
	}

	/**
	 * Checks a header value: at most {@value #MAX_HEADER_LENGTH} characters, no CR, LF or NUL.
	 * @throws IllegalArgumentException saying what is wrong
	 */
	static void checkHeader(String value) {
		if (value.length() > MAX_HEADER_LENGTH) {
			throw new IllegalArgumentException("a header is at most " + MAX_HEADER_LENGTH + " characters");
		}
		if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
			throw new IllegalArgumentException("a header may not contain a line break (CR, LF) or NUL");
		}
	}

	@Override
	public String toString() {
		return this.text;
	}
}
