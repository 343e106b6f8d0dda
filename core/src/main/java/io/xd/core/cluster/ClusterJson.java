package io.xd.core.cluster;

import java.nio.charset.StandardCharsets;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and writes the records kept in ZooKeeper as JSON. Only the record type the caller names is ever
 * created: no type information is read from the data, so a node's content cannot choose a class. Fields this
 * version does not know (written by another version) are skipped.
 */
public final class ClusterJson {

	private static final JsonMapper MAPPER = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.build();

	private ClusterJson() {
	}

	public static byte[] write(Object value) {
		return MAPPER.writeValueAsString(value).getBytes(StandardCharsets.UTF_8);
	}

	public static <T> T read(byte[] data, Class<T> type) {
		return MAPPER.readValue(new String(data, StandardCharsets.UTF_8), type);
	}
}
