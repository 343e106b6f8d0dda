package io.xd.admin.web;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;

import io.xd.admin.AdminException;

/**
 * The named fields of a request, whether sent as form fields or query parameters (as Spring XD's clients do) or
 * as a JSON object with the same names. Values of JSON fields are read as text; nested objects are refused. A body
 * of any other media type is refused with 415.
 * <p>
 * A request is read once: the fields (or the error that reading them gave) are kept in a request attribute, so the
 * access rules that decide which roles a request needs and the controller that acts on it see the same fields.
 */
public final class RequestFields {

	private static final String ATTRIBUTE = RequestFields.class.getName();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int MAX_JSON_BYTES = 1 << 20;

	private RequestFields() {
	}

	/**
	 * The request's fields, read at the first call and the same at every later one.
	 * @throws AdminException 4xx when the body cannot carry fields or is malformed (at every call)
	 */
	public static Map<String, String> read(HttpServletRequest request) {
		Object read = request.getAttribute(ATTRIBUTE);
		if (read == null) {
			try {
				read = Collections.unmodifiableMap(parse(request));
			}
			catch (AdminException ex) {
				read = ex;
			}
			request.setAttribute(ATTRIBUTE, read);
		}
		if (read instanceof AdminException ex) {
			throw ex;
		}
		@SuppressWarnings("unchecked")
		Map<String, String> fields = (Map<String, String>) read;
		return fields;
	}

	private static Map<String, String> parse(HttpServletRequest request) {
		MediaType type = mediaType(request);
		Map<String, String> fields = new LinkedHashMap<>();
		request.getParameterMap().forEach((name, values) -> fields.put(name, values.length == 0 ? "" : values[0]));
		if (type != null && isJson(type)) {
			fields.putAll(readJson(request));
		}
		return fields;
	}

	/** The media type of the body, null without a body; one that cannot carry fields is refused with 415. */
	private static MediaType mediaType(HttpServletRequest request) {
		boolean hasBody = request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
		if (!hasBody) {
			return null;
		}
		String contentType = request.getContentType();
		MediaType type = null;
		try {
			type = (contentType == null) ? null : MediaType.parseMediaType(contentType);
		}
		catch (RuntimeException ex) {
			// refused below, like any type that is not one of ours
		}
		if (type == null || !(isJson(type) || MediaType.APPLICATION_FORM_URLENCODED.equalsTypeAndSubtype(type)
				|| MediaType.MULTIPART_FORM_DATA.equalsTypeAndSubtype(type))) {
			String shown = (contentType == null) ? "" : contentType;
			shown = (shown.length() > 100) ? shown.substring(0, 100) + "..." : shown;
			throw new AdminException(415, "HttpMediaTypeNotSupportedException", "Content type '" + shown
					+ "' is not supported here: send the fields as "
					+ "application/x-www-form-urlencoded, multipart/form-data or application/json");
		}
		return type;
	}

	private static boolean isJson(MediaType type) {
		return type.getSubtype().equals("json") || type.getSubtype().endsWith("+json");
	}

	private static Map<String, String> readJson(HttpServletRequest request) {
		byte[] body;
		try {
			body = request.getInputStream().readNBytes(MAX_JSON_BYTES + 1);
		}
		catch (IOException ex) {
			throw AdminException.badRequest("HttpMessageNotReadableException", "Could not read the request body");
		}
		if (body.length > MAX_JSON_BYTES) {
			throw AdminException.badRequest("HttpMessageNotReadableException", "The request body is over 1 MiB");
		}
		if (body.length == 0) {
			return Map.of();
		}
		JsonNode root;
		try {
			root = JSON.readTree(body);
		}
		catch (JacksonException ex) {
			throw AdminException.badRequest("HttpMessageNotReadableException",
					"The request body is not valid JSON: " + ex.getOriginalMessage());
		}
		if (root == null || !root.isObject()) {
			throw AdminException.badRequest("HttpMessageNotReadableException",
					"The request body must be a JSON object, such as {\"name\":\"ticktock\",\"definition\":\"time | log\"}");
		}
		Map<String, String> fields = new LinkedHashMap<>();
		for (Map.Entry<String, JsonNode> field : root.properties()) {
			JsonNode value = field.getValue();
			if (value.isContainer()) {
				throw AdminException.badRequest("HttpMessageNotReadableException",
						"Field '" + field.getKey() + "' must be a string, number or boolean");
			}
			fields.put(field.getKey(), value.isNull() ? null : value.asString());
		}
		return fields;
	}

	/** Parses a boolean field: true or false in any case; absent gives the default. */
	public static boolean bool(Map<String, String> fields, String name, boolean defaultValue) {
		String value = fields.get(name);
		if (value == null || value.isBlank()) {
			return defaultValue;
		}
		if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
			return Boolean.parseBoolean(value);
		}
		throw AdminException.badRequest("IllegalArgumentException",
				"'" + name + "' must be true or false, but was '" + value + "'");
	}
}
