package io.xd.admin.audit;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.xd.admin.dsl.DslException;
import io.xd.admin.dsl.StreamParser;
import io.xd.admin.stream.DeploymentProperties;
import io.xd.admin.stream.SecretMasker;
import io.xd.modules.ModuleOption;

/**
 * Replaces secrets with {@value ModuleOption#MASK} in what the audit trail keeps. A value is secret when its module
 * declares the option secret (the admin's {@link SecretMasker}, which reads the modules' metadata), or when its name,
 * in its last dotted part and in any case, contains {@code password}, {@code secret}, {@code token},
 * {@code credential} or {@code passphrase}: the option {@code --apiToken}, the deployment property
 * {@code app.jdbc.password}, a URL's query parameter {@code ?sessionToken=}. Every rule of what the audit trail hides
 * is in this class.
 * <p>
 * Masking errs towards hiding: whatever may hold a secret is masked, even in a definition that does not parse or
 * properties that are not valid, and the rest of the text is kept as written. Thread-safe.
 */
public final class AuditMasker {

	private static final List<String> SECRET_WORDS = List.of("password", "secret", "token", "credential",
			"passphrase");

	private static final String SECRET_NAME = "[\\w$-]*(?:" + String.join("|", SECRET_WORDS) + ")[\\w$-]*";

	/**
	 * {@code <name>=<value>} in any text, where the name's last dotted part is secret: an option ({@code --password=}),
	 * a property, a URL's query parameter. The value is quoted (doubled quotes inside) or runs to a space, a DSL
	 * terminator ({@code | ; >}), a quote or an {@code &}.
	 */
	private static final Pattern SECRET_PAIR = Pattern.compile("(?i)((?<![\\w$.-])(?:[\\w$-]+\\.)*" + SECRET_NAME
			+ "\\s*=)('(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?|[^\\s|;>&'\"]*)");

	/** The password of a URL's user information: {@code scheme://user:password@host}. */
	private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(\\b[a-z][a-z0-9+.-]*://[^/\\s:@]+:)[^/\\s@]+@");

	private final StreamParser parser = new StreamParser();

	private final SecretMasker modules;

	private final Function<String, Optional<String>> definitions;

	/**
	 * @param modules what the modules declare secret
	 * @param definitions a stream's stored definition by its name, to tell which module an option override
	 *     ({@code app.<label>.<option>}) is for; empty when there is no such stream. May throw: the stream's
	 *     definition is then taken as unknown
	 */
	public AuditMasker(SecretMasker modules, Function<String, Optional<String>> definitions) {
		this.modules = modules;
		this.definitions = definitions;
	}

	/** Whether a value of that name (an option, a property key) is secret by its name alone. */
	public boolean isSecretName(String name) {
		String lastPart = name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
		return SECRET_WORDS.stream().anyMatch(lastPart::contains);
	}

	/**
	 * A stream definition with the values of its secret options masked and the rest as written. A definition that
	 * does not parse is masked as text ({@link #maskText}), which finds the same {@code --password=...} options.
	 */
	public String maskDefinition(String definition) {
		return maskText(maskSecretNames(this.modules.definition(definition)));
	}

	/** The definition with the values of the options whose names are secret masked; as it is when it does not parse. */
	private String maskSecretNames(String definition) {
		StringBuilder masked = new StringBuilder(definition);
		try {
			List<StreamParser.OptionValue> values = this.parser.optionValues(definition);
			// from the last, so that the offsets of the earlier values still hold
			for (int i = values.size() - 1; i >= 0; i--) {
				StreamParser.OptionValue value = values.get(i);
				if (isSecretName(value.option())) {
					masked.replace(value.start(), value.end(), ModuleOption.MASK);
				}
			}
		}
		catch (DslException ex) {
			// not a definition: maskText finds the options
		}
		return masked.toString();
	}

	/**
	 * Deployment properties in their text form ({@code module.log.count=2,app.jdbc.password=...}), each secret value
	 * masked and everything else as written, whether or not the properties are valid.
	 * @param stream the stream they are for, whose modules tell which option overrides are secret; may be null
	 */
	public String maskProperties(String properties, String stream) {
		String definition = definition(stream);
		StringBuilder masked = new StringBuilder();
		Matcher separators = DeploymentProperties.PAIR_SEPARATOR.matcher(properties);
		int start = 0;
		while (separators.find()) {
			masked.append(maskPair(properties.substring(start, separators.start()), definition))
				.append(separators.group());
			start = separators.end();
		}
		return masked.append(maskPair(properties.substring(start), definition)).toString();
	}

	private String maskPair(String pair, String definition) {
		int equals = pair.indexOf('=');
		if (equals > 0) {
			String key = pair.substring(0, equals).strip();
			// the admin's masker masks an override of an option its module declares secret
			boolean declared = ModuleOption.MASK.equals(this.modules.properties(definition, Map.of(key, "")).get(key));
			if (declared || isSecretName(key)) {
				return pair.substring(0, equals + 1) + ModuleOption.MASK;
			}
		}
		return maskText(pair);
	}

	private String definition(String stream) {
		if (stream == null) {
			return null;
		}
		try {
			return this.definitions.apply(stream).orElse(null);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Any text (an error message, a URI): the value of each {@code <secret name>=<value>} and the password of each
	 * URL's {@code user:password@} masked.
	 */
	public String maskText(String text) {
		String masked = SECRET_PAIR.matcher(text)
			.replaceAll(match -> Matcher.quoteReplacement(match.group(1) + ModuleOption.MASK));
		return URL_PASSWORD.matcher(masked)
			.replaceAll(match -> Matcher.quoteReplacement(match.group(1) + ModuleOption.MASK + "@"));
	}
}
