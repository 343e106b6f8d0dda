package io.xd.admin.dsl;

/**
 * One token of a definition with the offsets it covers, so the parser can tell touching tokens from tokens
 * separated by whitespace.
 *
 * @param kind what the token is
 * @param start offset of its first character
 * @param end offset just after its last character ({@code start == end} for {@link Kind#END} and for an empty value)
 * @param text a word's characters, an option value with any enclosing quotes removed, a symbol, or the character of
 *     an {@link Kind#UNKNOWN} token
 * @param error for {@link Kind#ERROR} only, the lexical error the parser throws when it reaches this token
 */
record Token(Kind kind, int start, int end, String text, DslException error) {

	enum Kind {
		/** A run of identifier characters and single hyphens: module, label, option, channel or stream name. */
		WORD,
		COLON,
		DOT,
		PIPE,
		GT,
		EQUALS,
		DOUBLE_MINUS,
		/** The raw or unquoted text after the {@code =} of an option. */
		VALUE,
		/** A character that starts no token. */
		UNKNOWN,
		/** A lexical error; always the last token. */
		ERROR,
		/** End of input; always the last token when there is no error. */
		END
	}

	boolean is(Kind expected) {
		return this.kind == expected;
	}

	boolean isWord(String word) {
		return this.kind == Kind.WORD && this.text.equals(word);
	}

	/** How the token is named in "but found ..." sentences. */
	String describe() {
		return switch (this.kind) {
			case END -> "the end of the definition";
			case ERROR -> "an error";
			case UNKNOWN -> Tokenizer.describeCodePoint(this.text.codePointAt(0));
			case VALUE -> "the value '" + this.text + "'";
			default -> "'" + this.text + "'";
		};
	}
}
