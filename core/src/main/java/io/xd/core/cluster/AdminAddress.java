package io.xd.core.cluster;

/**
 * An admin's REST API, as it publishes it under {@link ClusterPaths#admin(String)} while it runs, so that containers
 * can fetch custom module jars from it.
 *
 * @param url the base URL, such as {@code http://10.0.0.5:9393}
 */
public record AdminAddress(String url) {
}
