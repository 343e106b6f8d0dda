package io.xd.admin.dsl;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.xd.modules.ModuleType;

/**
 * One module of a parsed stream, such as {@code t: transform --expression=payload} in
 * {@code http | t: transform --expression=payload | log}.
 *
 * @param label the label that identifies the module within its stream: the explicit label, or the module name
 *     when none was written
 * @param name the module name, looked up later in the module registry
 * @param type the role implied by the module's place in the stream
 * @param options the options in the order written, values unquoted; unmodifiable
 * @param index 0-based place of the module in the stream
 * @param position 0-based character offset of the module name in the definition (for the implicit bridge of
 *     {@code queue:a > queue:b}, the offset of the {@code >})
 * @param explicitLabel whether the label was written ({@code label: module}) rather than taken from the name
 */
public record StreamModule(String label, String name, ModuleType type, Map<String, String> options, int index,
		int position, boolean explicitLabel) {

	/**
	 * Copies {@code options}, keeping their order.
	 * @throws NullPointerException if any argument, option name or option value is null
	 * @throws IllegalArgumentException if {@code label} or {@code name} is empty, or {@code index} or
	 *     {@code position} is negative
	 */
	public StreamModule {
		Objects.requireNonNull(label, "label");
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(options, "options");
		if (label.isEmpty() || name.isEmpty()) {
			throw new IllegalArgumentException("A module needs a non-empty name and label");
		}
		if (index < 0 || position < 0) {
			throw new IllegalArgumentException("Index and position must not be negative: " + index + ", " + position);
		}
		Map<String, String> copy = new LinkedHashMap<>();
		options.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "option name"),
				Objects.requireNonNull(value, "option value")));
		options = Collections.unmodifiableMap(copy);
	}
}
