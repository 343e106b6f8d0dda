package io.xd.core.cluster;

import java.util.Map;

/**
 * One numbered version of a stream's deployment, kept in ZooKeeper for the stream's history: every deploy, update,
 * scale and rollback adds one, so that any of them can be inspected ({@code stream manifest}) and deployed again
 * ({@code stream rollback}).
 *
 * @param stream the stream name
 * @param version 1 for the first deployment, then one more for each change
 * @param definition the stream definition deployed
 * @param properties the deployment properties of this version, {@code app.<label>.<option>} overrides included
 * @param time when it was made, in milliseconds since the epoch
 * @param description what made it: {@code deploy}, {@code update}, {@code scale <label> to <n>},
 *     {@code rollback to <version>}
 */
public record StreamRelease(String stream, int version, String definition, Map<String, String> properties, long time,
		String description) {

	public StreamRelease {
		properties = (properties == null) ? Map.of() : Map.copyOf(properties);
	}
}
