package io.xd.modules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a module declares about itself: its type, name, a description and its typed options. This is all the admin
 * needs to check a stream definition and to answer {@code module info}; it never runs module code.
 *
 * @param type the module's role
 * @param name the name used in stream definitions, such as {@code load-generator}
 * @param description one sentence for {@code module list} and {@code module info}
 * @param options the declared options, in the order they are documented; {@code inputType} and {@code outputType}
 * ({@link TypeConversion}) are added after them as the module's type calls for
 */
public record ModuleMetadata(ModuleType type, String name, String description, List<ModuleOption<?>> options) {

	public ModuleMetadata {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(name, "name");
		long distinct = options.stream().map(ModuleOption::name).distinct().count();
		if (distinct != options.size()) {
			throw new IllegalArgumentException("Module " + type + ":" + name + " declares an option twice");
		}
		options = List.copyOf(TypeConversion.withConversionOptions(type, options));
	}

	/** {@code type:name}, the way the shell names a module. */
	public String qualifiedName() {
		return this.type.label() + ":" + this.name;
	}

	public Optional<ModuleOption<?>> option(String optionName) {
		return this.options.stream().filter(option -> option.name().equals(optionName)).findFirst();
	}

	/**
	 * Checks the options a user gave (as text, keyed by option name) against the declaration and resolves them,
	 * defaults included.
	 * @throws ModuleOptionException naming every unknown option (and listing the valid ones) and every value that
	 * does not parse or validate
	 */
	public ModuleOptions resolve(Map<String, String> given) {
		List<String> problems = new ArrayList<>();
		Map<String, Object> values = new LinkedHashMap<>();
		for (ModuleOption<?> option : this.options) {
			values.put(option.name(), option.defaultValue());
		}
		given.forEach((key, text) -> {
			Optional<ModuleOption<?>> option = option(key);
			if (option.isEmpty()) {
				problems.add("unknown option '" + key + "'; valid options are " + validNames());
				return;
			}
			try {
				values.put(key, option.get().parse(text));
			}
			catch (IllegalArgumentException ex) {
				problems.add(ex.getMessage());
			}
		});
		if (!problems.isEmpty()) {
			throw new ModuleOptionException(qualifiedName(), problems);
		}
		return new ModuleOptions(values, given.keySet());
	}

	private String validNames() {
		return this.options.stream().map(ModuleOption::name).sorted().collect(Collectors.joining(", "));
	}
}
