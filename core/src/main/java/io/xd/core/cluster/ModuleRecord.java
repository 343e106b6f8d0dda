package io.xd.core.cluster;

import java.util.regex.Pattern;

/**
 * A custom module as the admin stored it: the jar is in the admin's module repository, this record in ZooKeeper
 * under {@link ClusterPaths#module(String, String)}. A container that runs the module fetches the jar from an admin
 * ({@link ClusterPaths#ADMINS}) and checks it against {@code sha256}.
 *
 * @param type source, processor or sink
 * @param name the module name
 * @param sha256 the jar's SHA-256, in lower-case hex
 * @param size the jar's size in bytes
 * @param source where the jar came from: {@code upload} or the {@code maven://} coordinates it was resolved from
 */
public record ModuleRecord(String type, String name, String sha256, long size, String source) {

	/**
	 * A custom module's name: what the DSL accepts as a module name, without {@code $}, at most 64 characters. Such
	 * a name is safe in a file name and a ZooKeeper path.
	 */
	public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]{0,63}");

	private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

	public static boolean isValidName(String name) {
		return name != null && NAME.matcher(name).matches();
	}

	/** Whether {@code sha256} is a SHA-256 in lower-case hex, as this record carries it. */
	public static boolean isValidSha256(String sha256) {
		return sha256 != null && SHA256.matcher(sha256).matches();
	}
}
