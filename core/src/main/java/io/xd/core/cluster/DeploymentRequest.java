package io.xd.core.cluster;

import java.util.Map;

/**
 * A user's request to deploy a stream, kept for as long as the stream is meant to run, so that it is deployed
 * again with the same properties after a restart or when containers come and go.
 *
 * @param stream the stream name
 * @param properties the deployment properties, such as {@code module.*.count=0}, already validated
 */
public record DeploymentRequest(String stream, Map<String, String> properties) {

	public DeploymentRequest {
		properties = (properties == null) ? Map.of() : Map.copyOf(properties);
	}
}
