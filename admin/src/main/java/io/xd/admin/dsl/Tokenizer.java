package io.xd.admin.dsl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.xd.admin.dsl.Token.Kind;

/**
 * Splits a definition into tokens.
 * <p>
 * The language is context sensitive in one place: after the {@code =} of an option ({@code --name=}) the next
 * characters are a value, read raw up to an unquoted terminator, rather than tokens. The tokenizer tracks that it is
 * inside an option name (from {@code --} through words and dots) so it knows when an {@code =} opens a value.
 * <p>
 * Lexical errors do not throw here: they become a final {@link Kind#ERROR} token, which the parser throws when it
 * reaches it. That way a grammar error earlier in the text is reported before a lexical error later in it.
 */
final class Tokenizer {

	private final String text;

	private final List<Token> tokens = new ArrayList<>();

	private int pos;

	private Tokenizer(String text) {
		this.text = text;
	}

	/** The tokens of {@code text}, ending with exactly one {@link Kind#END} or {@link Kind#ERROR} token. */
	static List<Token> tokenize(String text) {
		Tokenizer tokenizer = new Tokenizer(text);
		tokenizer.run();
		return tokenizer.tokens;
	}

	static boolean isWhitespace(char c) {
		// carriage return too, so definitions pasted with Windows line endings behave like any other newline
		return c == ' ' || c == '\t' || c == '\n' || c == '\r';
	}

	/** Characters that end an unquoted option value. */
	static boolean isValueTerminator(char c) {
		return isWhitespace(c) || c == '|' || c == ';' || c == '>';
	}

	/** A printable character in quotes, anything invisible or ambiguous as its code point. */
	static String describeCodePoint(int codePoint) {
		if (Character.isISOControl(codePoint) || Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint)
				|| Character.isIdentifierIgnorable(codePoint) || !Character.isDefined(codePoint)
				|| Character.getType(codePoint) == Character.SURROGATE) {
			return String.format(Locale.ROOT, "U+%04X", codePoint);
		}
		return "'" + new String(Character.toChars(codePoint)) + "'";
	}

	private void run() {
		int length = this.text.length();
		boolean inOptionName = false;
		while (true) {
			while (this.pos < length && isWhitespace(this.text.charAt(this.pos))) {
				this.pos++;
			}
			if (this.pos >= length) {
				this.tokens.add(new Token(Kind.END, length, length, "", null));
				return;
			}
			char c = this.text.charAt(this.pos);
			switch (c) {
				case '|' -> symbol(Kind.PIPE, 1);
				case '>' -> symbol(Kind.GT, 1);
				case ':' -> symbol(Kind.COLON, 1);
				case '.' -> symbol(Kind.DOT, 1);
				case '=' -> {
					symbol(Kind.EQUALS, 1);
					if (inOptionName && !value()) {
						return;
					}
				}
				case ';' -> {
					error(DslErrorCode.MULTIPLE_STREAMS, this.pos);
					return;
				}
				case '\\' -> {
					error(DslErrorCode.BACKSLASH_NOT_ALLOWED, this.pos);
					return;
				}
				case '-' -> {
					if (this.pos + 1 < length && this.text.charAt(this.pos + 1) == '-') {
						symbol(Kind.DOUBLE_MINUS, 2);
					}
					else {
						symbol(Kind.UNKNOWN, 1);
					}
				}
				default -> {
					int codePoint = this.text.codePointAt(this.pos);
					if (Character.isJavaIdentifierPart(codePoint)) {
						word();
					}
					else {
						symbol(Kind.UNKNOWN, Character.charCount(codePoint));
					}
				}
			}
			Kind last = this.tokens.get(this.tokens.size() - 1).kind();
			// an option name runs from '--' over words and dots; anything else, including the value, ends it
			inOptionName = last == Kind.DOUBLE_MINUS || (inOptionName && (last == Kind.WORD || last == Kind.DOT));
		}
	}

	private void symbol(Kind kind, int width) {
		this.tokens.add(new Token(kind, this.pos, this.pos + width, this.text.substring(this.pos, this.pos + width), null));
		this.pos += width;
	}

	/**
	 * A word is identifier characters and hyphens, but never two hyphens in a row: {@code --} always starts an
	 * option, so {@code time--a=1} is a module followed by a misplaced option rather than a module called
	 * {@code time--a}. Which characters a particular name may use is checked by the parser.
	 */
	private void word() {
		int start = this.pos;
		int length = this.text.length();
		while (this.pos < length) {
			int codePoint = this.text.codePointAt(this.pos);
			if (codePoint == '-') {
				if (this.pos + 1 < length && this.text.charAt(this.pos + 1) == '-') {
					break;
				}
			}
			else if (!Character.isJavaIdentifierPart(codePoint)) {
				break;
			}
			this.pos += Character.charCount(codePoint);
		}
		this.tokens.add(new Token(Kind.WORD, start, this.pos, this.text.substring(start, this.pos), null));
	}

	/**
	 * Reads the value after an option's {@code =}. A value that is quoted from its first to its last character is
	 * unquoted; anything else is kept exactly as written, with quoted stretches still protecting terminators.
	 * @return false when the value has a lexical error, which has then been added as the final token
	 */
	private boolean value() {
		int start = this.pos;
		int length = this.text.length();
		if (start < length && isQuote(this.text.charAt(start))) {
			char quote = this.text.charAt(start);
			int close = closingQuote(start);
			if (close < 0) {
				error(DslErrorCode.UNTERMINATED_QUOTE, start, quote == '\'' ? "'" : "\"");
				return false;
			}
			if (close + 1 == length || isValueTerminator(this.text.charAt(close + 1))) {
				String doubled = String.valueOf(quote) + quote;
				String unquoted = this.text.substring(start + 1, close).replace(doubled, String.valueOf(quote));
				this.tokens.add(new Token(Kind.VALUE, start, close + 1, unquoted, null));
				this.pos = close + 1;
				return true;
			}
		}
		int i = start;
		while (i < length && !isValueTerminator(this.text.charAt(i))) {
			char c = this.text.charAt(i);
			if (c == '\\') {
				error(DslErrorCode.BACKSLASH_NOT_ALLOWED, i);
				return false;
			}
			if (isQuote(c)) {
				int close = this.text.indexOf(c, i + 1);
				if (close < 0) {
					error(DslErrorCode.UNTERMINATED_QUOTE, i, c == '\'' ? "'" : "\"");
					return false;
				}
				i = close + 1;
			}
			else {
				i++;
			}
		}
		this.tokens.add(new Token(Kind.VALUE, start, i, this.text.substring(start, i), null));
		this.pos = i;
		return true;
	}

	/** The offset of the quote that closes the one at {@code open}, skipping doubled quotes; -1 if there is none. */
	private int closingQuote(int open) {
		char quote = this.text.charAt(open);
		int i = open + 1;
		while (i < this.text.length()) {
			if (this.text.charAt(i) == quote) {
				if (i + 1 < this.text.length() && this.text.charAt(i + 1) == quote) {
					i += 2;
					continue;
				}
				return i;
			}
			i++;
		}
		return -1;
	}

	private static boolean isQuote(char c) {
		return c == '\'' || c == '"';
	}

	private void error(DslErrorCode code, int position, Object... arguments) {
		DslException exception = new DslException(code, this.text, position, arguments);
		this.tokens.add(new Token(Kind.ERROR, position, position, "", exception));
	}
}
