package io.xd.core.cluster;

/**
 * An admin's REST API, as it publishes it under {@link ClusterPaths#admin(String)} while it runs, so that containers
 * (and other admins) can fetch custom module jars from it.
 *
 * @param url the base URL, such as {@code http://10.0.0.5:9393}
 * @param token the secret a fetch of a module jar must carry: the jars are served to members of the cluster, those
 * who can read ZooKeeper, and to no one else
 */
public record AdminAddress(String url, String token) {
}
