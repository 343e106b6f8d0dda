package io.xd.modules;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The validated option values of one module instance: every declared option, with the user's value or the default.
 * Immutable and safe to share between threads.
 */
public final class ModuleOptions {

	private final Map<String, Object> values;

	private final Set<String> given;

	ModuleOptions(Map<String, Object> values, Set<String> given) {
		this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
		this.given = Set.copyOf(given);
	}

	/**
	 * The value of a declared option, or its default when none was given (which may be {@code null} for an option
	 * without a default).
	 * @throws IllegalArgumentException when the option is not one the module declares
	 */
	public <T> T get(ModuleOption<T> option) {
		if (!this.values.containsKey(option.name())) {
			throw new IllegalArgumentException("Option '" + option.name() + "' is not declared by this module");
		}
		return option.javaType().cast(this.values.get(option.name()));
	}

	/**
	 * Whether the user gave a value for a declared option, as opposed to it taking its default: for options whose
	 * meaning depends on another option being set.
	 * @throws IllegalArgumentException when the option is not one the module declares
	 */
	public boolean isGiven(ModuleOption<?> option) {
		if (!this.values.containsKey(option.name())) {
			throw new IllegalArgumentException("Option '" + option.name() + "' is not declared by this module");
		}
		return this.given.contains(option.name());
	}

	/** Every option's value, in declaration order. */
	public Map<String, Object> asMap() {
		return this.values;
	}

	@Override
	public String toString() {
		return this.values.toString();
	}
}
