package io.xd.modules.analytics;

/**
 * What a metric's name may be made of: 1 to 200 characters, letters (Unicode ones too), digits, {@code _}, {@code $},
 * {@code -}, {@code .} and {@code :}, a letter, digit, {@code _} or {@code $} first. Every stream name qualifies, so a
 * sink's default name (its stream's) always does; a name never holds a {@code /}, a space or a glob character, so it
 * is safe in a URL path and in a Redis key.
 */
public final class MetricNames {

	/** The longest name. */
	public static final int MAX_LENGTH = 200;

	/** What {@link #check} requires, for option rules and error messages. */
	public static final String REQUIREMENT = "be 1 to 200 letters, digits, '_', '$', '-', '.' or ':', "
			+ "a letter, digit, '_' or '$' first";

	private MetricNames() {
	}

	/** Whether a name is one a metric may have. */
	public static boolean isValid(String name) {
		if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean plain = Character.isLetterOrDigit(c) || c == '_' || c == '$';
			if (!plain && (i == 0 || (c != '-' && c != '.' && c != ':'))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The name, if valid.
	 * @throws IllegalArgumentException saying what a name may be
	 */
	public static String check(String name) {
		if (!isValid(name)) {
			throw new IllegalArgumentException("A metric name must " + REQUIREMENT + ", not '" + name + "'");
		}
		return name;
	}
}
