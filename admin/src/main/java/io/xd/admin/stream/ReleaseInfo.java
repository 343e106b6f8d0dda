package io.xd.admin.stream;

import java.util.Map;

/**
 * One version of a stream's deployment, as {@code GET /streams/deployments/history/{name}} lists it.
 *
 * @param version its number, from 1
 * @param status the stream's state for the current version, {@code superseded} for older ones
 * @param time when it was made (ISO-8601)
 * @param description what made it: deploy, update, scale, rollback
 * @param definition the stream definition
 * @param properties its deployment properties
 */
public record ReleaseInfo(int version, String status, String time, String description, String definition,
		Map<String, String> properties) {
}
