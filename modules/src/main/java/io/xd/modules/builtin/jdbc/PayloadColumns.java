package io.xd.modules.builtin.jdbc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps a payload to the values of the sink's columns, each as text (or {@code null}), for the driver to convert to
 * the column's type. A JSON object (as {@code String} or UTF-8 {@code byte[]}) or a {@code Map} gives each column
 * the field of the same name, matched ignoring case and underscores ({@code first_name} takes {@code firstName});
 * nested objects and arrays are stored as JSON text. Any other payload goes, as text, to a column named
 * {@code payload}. A column without a value gets {@code null}. JSON is read as a tree only: no payload creates
 * objects of a type it names.
 */
final class PayloadColumns {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final List<String> columns;

	private final List<String> keys;

	PayloadColumns(List<String> columns) {
		this.columns = List.copyOf(columns);
		this.keys = columns.stream().map(PayloadColumns::key).toList();
	}

	/** The values of the columns, in order, for one payload. */
	List<String> values(Object payload) {
		if (payload instanceof Map<?, ?> map) {
			return fromMap(map, String.valueOf(payload));
		}
		String text = (payload instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: String.valueOf(payload);
		JsonNode tree = parseObject(text);
		return (tree == null) ? plain(text) : fromJson(tree, text);
	}

	private static JsonNode parseObject(String text) {
		String trimmed = text.strip();
		if (!trimmed.startsWith("{")) {
			return null;
		}
		try {
			JsonNode tree = JSON.readTree(trimmed);
			return (tree != null && tree.isObject()) ? tree : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	private List<String> plain(String text) {
		List<String> values = new ArrayList<>(this.columns.size());
		for (String column : this.columns) {
			values.add(isPayloadColumn(column) ? text : null);
		}
		return values;
	}

	private List<String> fromJson(JsonNode tree, String text) {
		List<String> values = new ArrayList<>(this.columns.size());
		for (int i = 0; i < this.columns.size(); i++) {
			JsonNode field = field(tree, this.keys.get(i));
			if (field == null) {
				values.add(isPayloadColumn(this.columns.get(i)) ? text : null);
			}
			else if (field.isNull()) {
				values.add(null);
			}
			else {
				values.add(field.isValueNode() ? field.asString() : field.toString());
			}
		}
		return values;
	}

	private static JsonNode field(JsonNode tree, String key) {
		Iterator<Map.Entry<String, JsonNode>> fields = tree.properties().iterator();
		while (fields.hasNext()) {
			Map.Entry<String, JsonNode> entry = fields.next();
			if (key(entry.getKey()).equals(key)) {
				return entry.getValue();
			}
		}
		return null;
	}

	private List<String> fromMap(Map<?, ?> map, String text) {
		List<String> values = new ArrayList<>(this.columns.size());
		for (int i = 0; i < this.columns.size(); i++) {
			Object found = null;
			boolean present = false;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				if (key(String.valueOf(entry.getKey())).equals(this.keys.get(i))) {
					found = entry.getValue();
					present = true;
					break;
				}
			}
			if (!present && isPayloadColumn(this.columns.get(i))) {
				found = text;
			}
			values.add((found == null) ? null : String.valueOf(found));
		}
		return values;
	}

	private static boolean isPayloadColumn(String column) {
		return column.equalsIgnoreCase("payload");
	}

	private static String key(String name) {
		return name.replace("_", "").toLowerCase(Locale.ROOT);
	}
}
