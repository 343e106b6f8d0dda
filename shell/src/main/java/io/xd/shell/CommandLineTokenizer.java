package io.xd.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one shell command line into words.
 *
 * <p>Words are separated by white space. A word may be quoted, wholly or in part, with double or single quotes:
 * inside quotes white space, pipes and the other kind of quote are ordinary characters, so
 * {@code --definition "http | transform --expression='hello' | log"} is two words. Inside quotes a backslash escapes
 * the closing quote character and a backslash ({@code \"} and {@code \\}); any other backslash is kept as it is,
 * because stream definitions carry regular expressions and SpEL that need their backslashes. Outside quotes a
 * backslash is an ordinary character.
 *
 * <p>Instances are stateless and thread-safe.
 */
public final class CommandLineTokenizer {

	/**
	 * One word of a command line.
	 *
	 * @param value the word, quotes removed and escapes resolved
	 * @param quoted whether any part of the word was quoted; a quoted word is never taken for an option name, so
	 * {@code --definition "--not-an-option"} passes the value through
	 */
	public record Token(String value, boolean quoted) {
	}

	/**
	 * Splits a line into words.
	 * @param line the command line
	 * @return the words in order, empty for a blank line
	 * @throws CommandLineException when a quote is left open
	 */
	public List<Token> tokenize(String line) {
		List<Token> tokens = new ArrayList<>();
		StringBuilder word = new StringBuilder();
		boolean inWord = false;
		boolean quoted = false;
		char quote = 0;
		for (int i = 0; i < line.length(); i++) {
			char c = line.charAt(i);
			if (quote != 0) {
				if (c == '\\' && i + 1 < line.length() && (line.charAt(i + 1) == quote || line.charAt(i + 1) == '\\')) {
					word.append(line.charAt(++i));
				}
				else if (c == quote) {
					quote = 0;
				}
				else {
					word.append(c);
				}
			}
			else if (c == '"' || c == '\'') {
				quote = c;
				inWord = true;
				quoted = true;
			}
			else if (Character.isWhitespace(c)) {
				if (inWord) {
					tokens.add(new Token(word.toString(), quoted));
					word.setLength(0);
					inWord = false;
					quoted = false;
				}
			}
			else {
				word.append(c);
				inWord = true;
			}
		}
		if (quote != 0) {
			throw new CommandLineException("Unbalanced quotes: a " + (quote == '"' ? "double" : "single")
					+ " quote is not closed");
		}
		if (inWord) {
			tokens.add(new Token(word.toString(), quoted));
		}
		return tokens;
	}

}
