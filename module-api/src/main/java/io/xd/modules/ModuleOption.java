package io.xd.modules;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.xd.modules.expression.SafeExpression;

/**
 * A typed, documented option of a module: its name, the type its text value must parse as, a default, a
 * description and a validation rule. Instances are immutable; the {@code with...} methods return copies, so options
 * are usually declared as constants:
 *
 * <pre>{@code
 * static final ModuleOption<Integer> SIZE = ModuleOption.ofInt("messageSize")
 *         .withDefault(1000).withMin(0).withDescription("the size of each payload, in bytes");
 * }</pre>
 *
 * @param <T> the Java type of the option's value
 */
public final class ModuleOption<T> {

	private static final Set<String> BUILT_IN_TYPES = Set.of("int", "long", "boolean", "String", "duration");

	/** What a secret option's value is shown as. */
	public static final String MASK = "******";

	private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

	private final String name;

	private final String typeName;

	private final Class<T> javaType;

	private final Function<String, T> parser;

	private final T defaultValue;

	private final String description;

	private final Predicate<T> rule;

	private final String ruleDescription;

	private final boolean secret;

	private ModuleOption(String name, String typeName, Class<T> javaType, Function<String, T> parser, T defaultValue,
			String description, Predicate<T> rule, String ruleDescription, boolean secret) {
		this.name = Objects.requireNonNull(name, "name");
		this.typeName = typeName;
		this.javaType = javaType;
		this.parser = parser;
		this.defaultValue = defaultValue;
		this.description = description;
		this.rule = rule;
		this.ruleDescription = ruleDescription;
		this.secret = secret;
	}

	/** An option whose value is a 32-bit integer. */
	public static ModuleOption<Integer> ofInt(String name) {
		return new ModuleOption<>(name, "int", Integer.class, Integer::valueOf, null, "", null, null, false);
	}

	/** An option whose value is a 64-bit integer. */
	public static ModuleOption<Long> ofLong(String name) {
		return new ModuleOption<>(name, "long", Long.class, Long::valueOf, null, "", null, null, false);
	}

	/** An option whose value is {@code true} or {@code false} (any case); anything else is rejected. */
	public static ModuleOption<Boolean> ofBoolean(String name) {
		return new ModuleOption<>(name, "boolean", Boolean.class, ModuleOption::parseBoolean, null, "", null, null, false);
	}

	/** An option whose value is any text. */
	public static ModuleOption<String> ofString(String name) {
		return new ModuleOption<>(name, "String", String.class, Function.identity(), null, "", null, null, false);
	}

	/**
	 * An option whose value is a {@link Duration}: a whole number with a unit, {@code ms}, {@code s}, {@code m} or
	 * {@code h} ({@code 500ms}, {@code 30s}, {@code 2m}), or an ISO-8601 duration ({@code PT1M30S}). A number
	 * without a unit is rejected rather than guessed. The type shown to users is {@code duration}.
	 */
	public static ModuleOption<Duration> ofDuration(String name) {
		return new ModuleOption<>(name, "duration", Duration.class, ModuleOption::parseDuration, null, "", null, null, false);
	}

	/**
	 * An option whose value is one of a fixed set of words, matched ignoring case and returned as declared.
	 * The type shown to users is the choices joined by {@code |}.
	 */
	public static ModuleOption<String> ofChoice(String name, String... choices) {
		List<String> allowed = List.of(choices);
		Function<String, String> parser = text -> allowed.stream()
			.filter(choice -> choice.equalsIgnoreCase(text))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("expected one of " + String.join(", ", allowed)));
		return new ModuleOption<>(name, String.join("|", allowed), String.class, parser, null, "", null, null, false);
	}

	/**
	 * An option whose value is a SpEL expression, parsed and checked by {@link SafeExpression#parse} when the options
	 * are resolved: a forbidden construct (a type reference, a constructor, a method outside the allowlist, a regular
	 * expression...) is refused with the reason, so {@code stream create} fails rather than the first message. The
	 * type shown to users is {@code expression}.
	 */
	public static ModuleOption<SafeExpression> ofExpression(String name) {
		return new ModuleOption<>(name, "expression", SafeExpression.class, SafeExpression::parse, null, "", null,
				null, false);
	}

	/**
	 * An option of a type of the module's own: {@code parser} turns the text into a value, throwing an
	 * {@link IllegalArgumentException} whose message says what is wrong (it is shown to the user after the option's
	 * name). {@code typeName} is shown to users as the option's type.
	 */
	public static <T> ModuleOption<T> ofType(String name, String typeName, Class<T> javaType,
			Function<String, T> parser) {
		return new ModuleOption<>(name, typeName, javaType, parser, null, "", null, null, false);
	}

	/** This option with the given default value, used when the user gives none. */
	public ModuleOption<T> withDefault(T value) {
		return new ModuleOption<>(this.name, this.typeName, this.javaType, this.parser, value, this.description,
				this.rule, this.ruleDescription, this.secret);
	}

	/** This option with the given one-sentence description, shown by {@code module info}. */
	public ModuleOption<T> withDescription(String text) {
		return new ModuleOption<>(this.name, this.typeName, this.javaType, this.parser, this.defaultValue, text,
				this.rule, this.ruleDescription, this.secret);
	}

	/**
	 * This option with a validation rule; {@code requirement} completes the sentence "the value must ..." in
	 * error messages, e.g. {@code "be at least 1"}.
	 */
	public ModuleOption<T> withRule(Predicate<T> check, String requirement) {
		Predicate<T> combined = (this.rule == null) ? check : this.rule.and(check);
		String text = (this.ruleDescription == null) ? requirement : this.ruleDescription + " and " + requirement;
		return new ModuleOption<>(this.name, this.typeName, this.javaType, this.parser, this.defaultValue,
				this.description, combined, text, this.secret);
	}

	/**
	 * This option, marked secret: its value (a password, a token, a key) is shown masked ({@value #MASK}) wherever
	 * XD shows a definition, a manifest, a history, runtime modules or an audit record, to every user; the module
	 * still gets the real value. An option named {@code password} is secret without being marked.
	 */
	public ModuleOption<T> withSecret() {
		return new ModuleOption<>(this.name, this.typeName, this.javaType, this.parser, this.defaultValue,
				this.description, this.rule, this.ruleDescription, true);
	}

	/** Whether the option's value is a secret, shown masked: marked with {@link #withSecret()}, or named password. */
	public boolean isSecret() {
		return this.secret || this.name.equalsIgnoreCase("password");
	}

	/** This numeric option with a lower bound, inclusive. */
	public ModuleOption<T> withMin(long min) {
		return withRule(value -> ((Number) value).longValue() >= min, "be at least " + min);
	}

	/**
	 * This numeric option with an upper bound, inclusive: a cap that keeps one module from exhausting its container
	 * (threads, memory), documented with the option.
	 */
	public ModuleOption<T> withMax(long max) {
		return withRule(value -> ((Number) value).longValue() <= max, "be at most " + max);
	}

	public String name() {
		return this.name;
	}

	/** The type as shown to users: {@code int}, {@code long}, {@code boolean}, {@code String} or the choices. */
	public String typeName() {
		return this.typeName;
	}

	public Class<T> javaType() {
		return this.javaType;
	}

	/** The default value, or {@code null} when the option has none. */
	public T defaultValue() {
		return this.defaultValue;
	}

	public String description() {
		return this.description;
	}

	/**
	 * Parses and validates a value given as text.
	 * @throws IllegalArgumentException with a sentence naming this option and what was wrong with the value
	 */
	public T parse(String text) {
		T value;
		try {
			value = this.parser.apply(text.trim());
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException("option '" + this.name + "' expects " + article(this.typeName)
					+ ", but got '" + text + "'" + hint(ex));
		}
		if (this.rule != null && !this.rule.test(value)) {
			throw new IllegalArgumentException("option '" + this.name + "' must " + this.ruleDescription + ", but got '"
					+ text + "'");
		}
		return value;
	}

	private String hint(RuntimeException ex) {
		String message = ex.getMessage();
		if (message == null) {
			return "";
		}
		if (message.startsWith("expected one of") || !BUILT_IN_TYPES.contains(this.typeName)) {
			return " (" + message + ")";
		}
		return "";
	}

	private static String article(String typeName) {
		return switch (typeName) {
			case "int" -> "an integer";
			case "long" -> "a long integer";
			case "boolean" -> "true or false";
			case "String" -> "text";
			case "duration" -> "a duration such as 500ms, 30s, 2m or 1h";
			case "expression" -> "a SpEL expression";
			default -> typeName.contains("|") ? "one of " + String.join(", ", Arrays.asList(typeName.split("\\|")))
					: typeName;
		};
	}

	private static Boolean parseBoolean(String text) {
		String lower = text.toLowerCase(Locale.ROOT);
		if (lower.equals("true")) {
			return Boolean.TRUE;
		}
		if (lower.equals("false")) {
			return Boolean.FALSE;
		}
		throw new IllegalArgumentException(text);
	}

	private static Duration parseDuration(String text) {
		Matcher simple = SIMPLE_DURATION.matcher(text.toLowerCase(Locale.ROOT));
		if (simple.matches()) {
			long amount = Long.parseLong(simple.group(1));
			return switch (simple.group(2)) {
				case "ms" -> Duration.ofMillis(amount);
				case "s" -> Duration.ofSeconds(amount);
				case "m" -> Duration.ofMinutes(amount);
				default -> Duration.ofHours(amount);
			};
		}
		try {
			return Duration.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException(text, ex);
		}
	}

	@Override
	public String toString() {
		return this.name + " (" + this.typeName + ", default " + this.defaultValue + ")";
	}
}
