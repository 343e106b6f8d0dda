package io.xd.admin.dsl;

/**
 * What the names in a definition may be made of, checked as the parser meets them:
 * <ul>
 * <li>a stream name: a letter, {@code _} or {@code $} first, then letters, digits, {@code _}, {@code $} or
 * {@code -} (Unicode letters allowed, as in Java identifiers);</li>
 * <li>labels, module names, option names and channel names: ASCII letters, digits or {@code _} first, then also
 * {@code $} or {@code -}.</li>
 * </ul>
 * Every name but a stream name has at most {@link StreamParser#MAX_NAME_LENGTH} characters (a stream name's limit is
 * the admin's, {@code xd.admin.limits.maxNameLength}). A breach is a {@link DslException} positioned at the
 * offending character.
 */
final class NameRules {

	private NameRules() {
	}

	/**
	 * Checks a label, module, option or channel name.
	 * @param text the whole definition, for the error
	 * @param what what the word names, such as {@code "module name"}, for the error
	 */
	static void checkName(String text, Token word, String what) {
		String name = word.text();
		checkLength(text, word, what);
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean ascii = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
			if (i == 0 && !ascii) {
				throw new DslException(DslErrorCode.ILLEGAL_NAME, text, word.start(),
						"an ASCII letter, digit or '_' first", Tokenizer.describeCodePoint(name.codePointAt(0)), what,
						name);
			}
			if (!ascii && c != '$' && c != '-') {
				throw new DslException(DslErrorCode.ILLEGAL_NAME, text, word.start() + i,
						"only ASCII letters, digits, '_', '$' or '-'", Tokenizer.describeCodePoint(name.codePointAt(i)),
						what, name);
			}
		}
	}

	/**
	 * Checks a stream name, in {@code name =} or in {@code tap:stream:name}.
	 * @param text the whole definition, for the error
	 */
	static void checkStreamName(String text, Token word) {
		String name = word.text();
		int bad = invalidStreamNameIndex(name);
		if (bad == 0) {
			throw new DslException(DslErrorCode.ILLEGAL_STREAM_NAME, text, word.start(),
					"a letter, '_' or '$' first", Tokenizer.describeCodePoint(name.codePointAt(0)), name);
		}
		if (bad > 0) {
			throw new DslException(DslErrorCode.ILLEGAL_STREAM_NAME, text, word.start() + bad,
					"only letters, digits, '_', '$' or '-'", Tokenizer.describeCodePoint(name.codePointAt(bad)), name);
		}
	}

	private static void checkLength(String text, Token word, String what) {
		int length = word.text().length();
		if (length > StreamParser.MAX_NAME_LENGTH) {
			throw new DslException(DslErrorCode.NAME_TOO_LONG, text, word.start() + StreamParser.MAX_NAME_LENGTH,
					StreamParser.MAX_NAME_LENGTH, what, length);
		}
	}

	/**
	 * Where a stream name breaks the naming rule: a letter, {@code _} or {@code $} first, then letters, digits,
	 * {@code _}, {@code $} or {@code -}; invisible (identifier-ignorable) characters are refused, since such a name
	 * could not be typed back.
	 * @param name a candidate stream name
	 * @return the index of the first offending character (0 for an empty name), or -1 when the name is valid
	 */
	static int invalidStreamNameIndex(String name) {
		if (name.isEmpty()) {
			return 0;
		}
		for (int i = 0; i < name.length();) {
			int codePoint = name.codePointAt(i);
			boolean valid = (i == 0) ? Character.isJavaIdentifierStart(codePoint)
					: (codePoint == '-' || Character.isJavaIdentifierPart(codePoint));
			if (!valid || Character.isIdentifierIgnorable(codePoint)) {
				return i;
			}
			i += Character.charCount(codePoint);
		}
		return -1;
	}
}
