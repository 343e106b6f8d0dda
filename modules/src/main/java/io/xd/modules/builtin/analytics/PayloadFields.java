package io.xd.modules.builtin.analytics;

import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a field of a payload as Spring XD's field-value counter did: a {@code Map} (or JSON text, or JSON as UTF-8
 * bytes, parsed to maps and lists) walked by a dotted path ({@code user.device}); a list or array found at the end
 * counts each element. Other payload types have no fields (XD also read bean properties of objects; this one does
 * not, so that a definition cannot make a sink call arbitrary getters).
 */
final class PayloadFields {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private PayloadFields() {
	}

	/** The payload as maps and lists: a map as it is, JSON text or bytes parsed; anything else as it is. */
	static Object structured(Object payload) {
		String text = (payload instanceof String string) ? string
				: (payload instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : null;
		if (text == null) {
			return payload;
		}
		try {
			return JSON.readValue(text, Object.class);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("the payload is not JSON (" + ex.getOriginalMessage() + ")");
		}
	}

	/**
	 * The values at {@code path} in a payload, as text: none when the field is missing or null, one per element of a
	 * list or array, nested objects as JSON text.
	 * @throws IllegalArgumentException when the payload is text or bytes but not JSON, or has no fields at all
	 */
	static List<String> values(Object payload, String[] path) {
		Object current = structured(payload);
		if (!(current instanceof Map<?, ?>)) {
			throw new IllegalArgumentException("the payload is not a JSON object or a Map but "
					+ ((current == null) ? "null" : current.getClass().getSimpleName()));
		}
		for (String segment : path) {
			if (!(current instanceof Map<?, ?> map)) {
				return List.of();
			}
			current = map.get(segment);
		}
		List<String> values = new ArrayList<>();
		if (current instanceof Collection<?> collection) {
			collection.forEach(element -> add(values, element));
		}
		else if (current != null && current.getClass().isArray()) {
			for (int i = 0; i < Array.getLength(current); i++) {
				add(values, Array.get(current, i));
			}
		}
		else {
			add(values, current);
		}
		return values;
	}

	private static void add(List<String> values, Object value) {
		if (value == null) {
			return;
		}
		if (value instanceof Map<?, ?> || value instanceof Collection<?>) {
			values.add(JSON.writeValueAsString(value));
		}
		else {
			values.add(value.toString());
		}
	}
}
