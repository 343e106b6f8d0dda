package io.xd.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Reading the admin server's JSON leniently: a field that is missing or {@code null} reads as empty, so an older or
 * newer admin server that leaves a field out still gives a readable table.
 */
final class Json {

	private Json() {
	}

	/**
	 * A field as text.
	 * @param node an object node
	 * @param field the field name
	 * @return the text of a string field, the JSON text of a number or boolean, or an empty string when the field is
	 * missing or {@code null}
	 */
	static String text(JsonNode node, String field) {
		return text(node.path(field));
	}

	/**
	 * A value as text.
	 * @param value any node
	 * @return the text of a scalar, the JSON text of an object or array, or an empty string for a missing or
	 * {@code null} node
	 */
	static String text(JsonNode value) {
		if (value == null || value.isMissingNode() || value.isNull()) {
			return "";
		}
		return value.isValueNode() ? value.asString() : value.toString();
	}

	/**
	 * The items of a page of results ({@code {"content": [...], "page": {...}}}); a plain array is accepted too.
	 * @param page the answer
	 * @return the items, possibly none
	 */
	static List<JsonNode> content(JsonNode page) {
		JsonNode items = page.isArray() ? page : page.path("content");
		List<JsonNode> result = new ArrayList<>();
		if (items.isArray()) {
			items.forEach(result::add);
		}
		return result;
	}

	/**
	 * The fields of an object as {@code key=value} pairs joined by a comma and a space, in the order the server sent them.
	 * @param object an object node, or a missing or {@code null} node
	 * @return for example {@code level=INFO, count=1}, or an empty string
	 */
	static String pairs(JsonNode object) {
		if (object == null || !object.isObject()) {
			return "";
		}
		List<String> pairs = new ArrayList<>();
		for (Map.Entry<String, JsonNode> field : object.properties()) {
			pairs.add(field.getKey() + "=" + text(field.getValue()));
		}
		return String.join(", ", pairs);
	}

}
