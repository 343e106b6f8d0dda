package io.xd.core.cluster;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One change made through an admin's REST API, or one attempt refused: who, when, what and with what. Kept in
 * ZooKeeper under {@link ClusterPaths#AUDIT}, and never changed once written. Secrets are masked before a record is
 * made: no field holds a password, token or other secret the request carried.
 *
 * @param time when the admin handled the request, ISO-8601 in UTC ({@code 2026-11-23T10:15:30.123Z})
 * @param user the authenticated user's name, or {@code anonymous} when security is off
 * @param action what was asked, such as {@code stream.deploy} or {@code module.upload}
 * @param target the stream name, {@code *} for every stream, or {@code <type>:<name>} for a module; null when the
 *     request was refused before its target could be read
 * @param outcome {@code success} or {@code failure}
 * @param status for a failure, the HTTP status the request got (a 4xx refusal, a 5xx fault); null for a success
 * @param reason for a failure, the first line of the error message; null for a success
 * @param details what the request carried (definition, deployment properties, module coordinates, jar SHA-256...),
 *     in the order recorded, secrets masked
 */
public record AuditRecord(String time, String user, String action, String target, String outcome, Integer status,
		String reason, Map<String, String> details) {

	/** The outcome of a request that did what it asked. */
	public static final String SUCCESS = "success";

	/** The outcome of a request that was refused or failed. */
	public static final String FAILURE = "failure";

	public AuditRecord {
		details = (details == null) ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(details));
	}
}
