package io.xd.admin.dsl;

import java.util.Locale;

/**
 * Every way a stream definition can be rejected.
 * <p>
 * Each constant carries a code of the form {@code XD1nnE}. The codes are stable: they appear in messages that users
 * search for and that scripts may match on, so a code is never renumbered or reused; new kinds of error get new
 * numbers. The message templates, by contrast, may be reworded.
 */
public enum DslErrorCode {

	/** The definition is null, empty or only whitespace. */
	EMPTY_DEFINITION("XD100E", "expected a stream definition but found %s"),

	/** A character that cannot start any part of the language, such as {@code #} or a lone {@code -}. */
	UNEXPECTED_CHARACTER("XD101E", "expected %s but found the character %s"),

	/** A well-formed token in a place where the grammar does not allow it. */
	UNEXPECTED_TOKEN("XD102E", "expected %s but found %s"),

	/** The definition stops where the grammar needs more, as in {@code time |}. */
	UNEXPECTED_END("XD103E", "expected %s but reached the end of the definition"),

	/** The stream is complete but more text follows, as in {@code time | log extra}. */
	UNEXPECTED_DATA_AFTER_STREAM("XD104E", "expected %s after %s but found %s"),

	/** The name before {@code =} is not a Java-identifier-like name (hyphens allowed). */
	ILLEGAL_STREAM_NAME("XD105E", "expected %s but found %s in stream name '%s'"),

	/** A module name, label, option name or channel name uses a character outside {@code [A-Za-z0-9_$-]}. */
	ILLEGAL_NAME("XD106E", "expected %s but found %s in %s '%s'"),

	/** The stream is named after one of its own modules. */
	STREAM_NAME_MATCHES_MODULE("XD107E",
			"stream name '%s' is also the name of the module at pos %d; "
					+ "a stream may not be named after one of its own modules"),

	/** An option has {@code =} but nothing after it. */
	MISSING_VALUE("XD108E", "expected a value after '--%s=' but %s"),

	/** A quote in an option value is never closed. */
	UNTERMINATED_QUOTE("XD109E",
			"expected a closing %s to end the quoted text that starts here but reached the end of the definition"),

	/** A backslash outside quotes; the language has no escape character. */
	BACKSLASH_NOT_ALLOWED("XD110E",
			"expected no backslash outside quotes but found '\\'; a backslash may only appear inside a quoted option value"),

	/** Whitespace where tokens must touch: label and ':', inside {@code --name=value}, inside a channel reference. */
	WHITESPACE_NOT_ALLOWED("XD111E", "expected no whitespace %s but found %s"),

	/** An option glued to its module name, as in {@code time--a=1}. */
	NO_WHITESPACE_BEFORE_OPTION("XD112E",
			"expected whitespace between module '%s' and '--' but found none; options are written 'module --name=value'"),

	/** The same option given twice to one module. */
	DUPLICATE_OPTION("XD113E", "option '%s' of module '%s' is already set at pos %d; each option may be given only once"),

	/** Two modules of one stream with the same label (explicit, or the module name when there is none). */
	DUPLICATE_LABEL("XD114E",
			"label '%s' is already used by the module at pos %d; labels must be unique within a stream, "
					+ "so label this module, as in '%s: %s'"),

	/** A tap written after the last module, where only a queue or topic may be. */
	TAP_AS_SINK("XD115E",
			"expected a sink channel ('queue:NAME' or 'topic:NAME') after '>' but found a tap; "
					+ "a tap can only be the source of a stream"),

	/** A tap of something other than a stream, queue or topic, such as a job. */
	UNSUPPORTED_TAP_KIND("XD116E",
			"expected 'stream', 'queue' or 'topic' after 'tap:' but found '%s'; %s taps are not supported"),

	/** A {@code ;} outside quotes: one definition holds exactly one stream. */
	MULTIPLE_STREAMS("XD117E",
			"expected a single stream but found ';'; a definition holds one stream, so create each stream on its own"),

	/**
	 * A name longer than {@link StreamParser#MAX_NAME_LENGTH}: names end up in ZooKeeper paths, module ids and
	 * Kafka topic names (at most 249 characters), so they are kept short.
	 */
	NAME_TOO_LONG("XD118E", "expected at most %d characters in %s but found %d");

	private final String code;

	private final String template;

	DslErrorCode(String code, String template) {
		this.code = code;
		this.template = template;
	}

	/** The stable identifier, such as {@code XD102E}, that starts every message of this kind. */
	public String code() {
		return this.code;
	}

	/** The {@link String#format} template of the sentence that explains this kind of error. */
	public String template() {
		return this.template;
	}

	/** The sentence for one occurrence, with the template's placeholders filled in order. */
	public String format(Object... arguments) {
		return String.format(Locale.ROOT, this.template, arguments);
	}
}
