package io.xd.admin.stream;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.xd.admin.dsl.DslException;
import io.xd.admin.dsl.StreamDefinition;
import io.xd.admin.dsl.StreamModule;
import io.xd.admin.dsl.StreamParser;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.ModuleRegistry;

/**
 * Shows the values of secret module options ({@link ModuleOption#isSecret()}: marked by the module, or named
 * {@code password}) as {@value ModuleOption#MASK}, in what the admin answers: definitions, manifests, histories,
 * runtime modules. What is stored and what containers get keep the real values. An option of a module that is not
 * known here (a custom module deleted since) is masked when its name is {@code password}.
 */
public final class SecretMasker {

	private final StreamParser parser = new StreamParser();

	private final ModuleRegistry registry;

	public SecretMasker(ModuleRegistry registry) {
		this.registry = registry;
	}

	/** The definition with the value of every secret option replaced by the mask; the text as is if it does not parse. */
	public String definition(String text) {
		if (text == null) {
			return null;
		}
		List<StreamParser.OptionValue> values;
		try {
			values = this.parser.optionValues(text);
		}
		catch (DslException ex) {
			return text;
		}
		StringBuilder masked = new StringBuilder(text);
		for (int i = values.size() - 1; i >= 0; i--) {
			StreamParser.OptionValue value = values.get(i);
			StreamModule module = value.module();
			if (isSecret(module.type(), module.name(), value.option())) {
				masked.replace(value.start(), value.end(), ModuleOption.MASK);
			}
		}
		return masked.toString();
	}

	/** A module's options with the secret ones' values masked. */
	public Map<String, String> options(String type, String module, Map<String, String> options) {
		ModuleType moduleType = ModuleType.fromLabel(type);
		Map<String, String> masked = new LinkedHashMap<>();
		options.forEach((name, value) -> masked.put(name, isSecret(moduleType, module, name) ? ModuleOption.MASK
				: value));
		return masked;
	}

	/**
	 * Deployment properties with the values of option overrides ({@code app.<label>.<option>}) of secret options
	 * masked, the labels read from the stream's definition.
	 */
	public Map<String, String> properties(String definitionText, Map<String, String> properties) {
		StreamDefinition definition;
		try {
			definition = this.parser.parse(definitionText);
		}
		catch (DslException ex) {
			definition = null;
		}
		Map<String, String> masked = new LinkedHashMap<>();
		for (Map.Entry<String, String> property : properties.entrySet()) {
			masked.put(property.getKey(), isSecretOverride(definition, property.getKey()) ? ModuleOption.MASK
					: property.getValue());
		}
		return masked;
	}

	private boolean isSecretOverride(StreamDefinition definition, String key) {
		if (!key.startsWith(DeploymentProperties.APP_PREFIX)) {
			return false;
		}
		int dot = key.indexOf('.', DeploymentProperties.APP_PREFIX.length());
		if (dot < 0) {
			return false;
		}
		String label = key.substring(DeploymentProperties.APP_PREFIX.length(), dot);
		String option = key.substring(dot + 1);
		Optional<StreamModule> module = (definition == null) ? Optional.empty()
				: definition.modules().stream().filter(candidate -> candidate.label().equals(label)).findFirst();
		return module.map(found -> isSecret(found.type(), found.name(), option))
			.orElse(option.equalsIgnoreCase("password"));
	}

	private boolean isSecret(ModuleType type, String module, String option) {
		Optional<ModuleProvider> provider = this.registry.find(type, module);
		return provider.flatMap(found -> found.metadata().option(option))
			.map(ModuleOption::isSecret)
			.orElse(option.equalsIgnoreCase("password"));
	}
}
