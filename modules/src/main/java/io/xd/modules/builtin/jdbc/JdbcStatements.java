package io.xd.modules.builtin.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the SQL of the {@code jdbc} source's {@code query} and {@code update} the way PostgreSQL and H2 tokenize it,
 * enough to refuse what a definition may not run: more than one statement (PostgreSQL's driver runs every statement
 * of a {@code ;}-separated text), a query that is not a {@code SELECT} (or {@code WITH ... SELECT}), a
 * {@code SELECT ... INTO} (which creates a table), and constructs whose ends this reader cannot be sure of
 * (dollar-quoted strings, backslashes in string literals, which {@code E'...'} strings treat as escapes). It also
 * turns the update's {@code :column} placeholders into JDBC's {@code ?}. What a single SELECT may still call
 * (functions with side effects) is the operator's to restrict, through the privileges of the data source's user.
 */
final class JdbcStatements {

	private static final Set<String> UPDATES = Set.of("UPDATE", "DELETE", "INSERT");

	private JdbcStatements() {
	}

	/**
	 * An SQL text with its named placeholders turned into {@code ?}.
	 * @param sql the text to prepare
	 * @param parameters the placeholders' names, in order, one per {@code ?}
	 */
	record Prepared(String sql, List<String> parameters) {
	}

	/**
	 * Checks a query.
	 * @throws IllegalArgumentException saying what is refused
	 */
	static void checkQuery(String sql) {
		List<String> words = words(sql, null, new ArrayList<>());
		if (words.isEmpty() || !(words.get(0).equals("SELECT") || words.get(0).equals("WITH"))) {
			throw new IllegalArgumentException("a query is one SELECT statement");
		}
		if (words.contains("INTO")) {
			throw new IllegalArgumentException("a query may not SELECT ... INTO");
		}
		if (!words.contains("SELECT")) {
			throw new IllegalArgumentException("a query is one SELECT statement");
		}
	}

	/**
	 * Checks an update and turns its {@code :column} placeholders into {@code ?}.
	 * @throws IllegalArgumentException saying what is refused
	 */
	static Prepared prepareUpdate(String sql) {
		StringBuilder out = new StringBuilder();
		List<String> parameters = new ArrayList<>();
		List<String> words = words(sql, out, parameters);
		if (words.isEmpty() || !UPDATES.contains(words.get(0))) {
			throw new IllegalArgumentException("an update is one UPDATE, DELETE or INSERT statement");
		}
		return new Prepared(out.toString(), List.copyOf(parameters));
	}

	/** Whether a text is one acceptable query (an option rule). */
	static boolean isQuery(String sql) {
		return accepts(() -> checkQuery(sql));
	}

	/** Whether a text is one acceptable update (an option rule). */
	static boolean isUpdate(String sql) {
		return accepts(() -> prepareUpdate(sql));
	}

	private static boolean accepts(Runnable check) {
		try {
			check.run();
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * The upper-cased keywords and identifiers outside literals, quoted identifiers and comments; copies the text to
	 * {@code out} (when not null) with each {@code :name} replaced by {@code ?} and its name added to
	 * {@code parameters}.
	 */
	private static List<String> words(String sql, StringBuilder out, List<String> parameters) {
		List<String> words = new ArrayList<>();
		int length = sql.length();
		int i = 0;
		boolean ended = false;
		while (i < length) {
			char c = sql.charAt(i);
			int start = i;
			if (c == '\'' || c == '"') {
				int close = i + 1;
				while (true) {
					close = sql.indexOf(c, close);
					if (close < 0) {
						throw new IllegalArgumentException("a quote is not closed");
					}
					if (close + 1 < length && sql.charAt(close + 1) == c) {
						close += 2;
						continue;
					}
					break;
				}
				if (c == '\'' && sql.substring(i, close).indexOf('\\') >= 0) {
					throw new IllegalArgumentException("string literals may not hold backslashes");
				}
				i = close + 1;
			}
			else if (c == '-' && i + 1 < length && sql.charAt(i + 1) == '-') {
				int newline = sql.indexOf('\n', i);
				i = (newline < 0) ? length : newline + 1;
			}
			else if (c == '/' && i + 1 < length && sql.charAt(i + 1) == '*') {
				int close = sql.indexOf("*/", i + 2);
				if (close < 0 || sql.substring(i + 2, close).contains("/*")) {
					throw new IllegalArgumentException("a comment is not closed, or nested");
				}
				i = close + 2;
			}
			else if (c == '$') {
				throw new IllegalArgumentException("dollar-quoted strings and $n parameters are not accepted");
			}
			else if (c == ';') {
				ended = true;
				i++;
				continue;
			}
			else if (c == ':' && i + 1 < length && sql.charAt(i + 1) == ':') {
				i += 2;
			}
			else if (c == ':' && i + 1 < length && Character.isJavaIdentifierStart(sql.charAt(i + 1)) && out != null) {
				int end = i + 1;
				while (end < length && Character.isJavaIdentifierPart(sql.charAt(end))) {
					end++;
				}
				parameters.add(sql.substring(i + 1, end));
				out.append('?');
				i = end;
				start = -1;
			}
			else if (Character.isLetter(c) || c == '_') {
				int end = i + 1;
				while (end < length && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
					end++;
				}
				words.add(sql.substring(i, end).toUpperCase(Locale.ROOT));
				i = end;
			}
			else if (c == '?') {
				throw new IllegalArgumentException("? parameters are not accepted (the update names columns as :column)");
			}
			else {
				i++;
			}
			if (ended && !Character.isWhitespace(c)) {
				throw new IllegalArgumentException("it holds more than one statement");
			}
			if (out != null && start >= 0) {
				out.append(sql, start, i);
			}
		}
		return words;
	}
}
