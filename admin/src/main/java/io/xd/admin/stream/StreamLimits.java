package io.xd.admin.stream;

import java.util.Map;

/**
 * Caps on what one stream may ask for, so that a definition or its deployment properties cannot exhaust the admin,
 * ZooKeeper or the containers ({@code xd.admin.limits.*}). Each is checked when the stream is created or deployed,
 * and a stream beyond one is refused with 400 naming the limit and its setting.
 *
 * @param maxNameLength characters of a stream name
 * @param maxDefinitionLength characters of a stream definition
 * @param maxModules modules in one stream
 * @param maxInstances instances of one module ({@code module.<label>.count})
 * @param maxConcurrency consumer threads of one module instance ({@code consumer.concurrency})
 * @param maxPartitions partitions of a topic the bus creates ({@code minPartitionCount})
 * @param maxStreams streams the server keeps
 * @param maxReleases versions of a stream's deployment kept in its history (older ones are removed)
 */
public record StreamLimits(int maxNameLength, int maxDefinitionLength, int maxModules, int maxInstances,
		int maxConcurrency, int maxPartitions, int maxStreams, int maxReleases) {

	/**
	 * The defaults: names of 100 characters, definitions of 8 192, 50 modules, 100 instances, 64 threads, 1 024
	 * partitions, 1 000 streams, 100 versions of history.
	 */
	public static final StreamLimits DEFAULTS = new StreamLimits(100, 8192, 50, 100, 64, 1024, 1000, 100);

	/** @throws IllegalArgumentException when the name or definition text is longer than allowed */
	void checkText(String name, String definition) {
		if (name != null && name.length() > this.maxNameLength) {
			throw new IllegalArgumentException("A stream name may have at most " + this.maxNameLength
					+ " characters (xd.admin.limits.maxNameLength), not " + name.length());
		}
		if (definition.length() > this.maxDefinitionLength) {
			throw new IllegalArgumentException("A stream definition may have at most " + this.maxDefinitionLength
					+ " characters (xd.admin.limits.maxDefinitionLength), not " + definition.length());
		}
	}

	/** @throws IllegalArgumentException when the stream has more modules than allowed */
	void checkModules(int modules) {
		if (modules > this.maxModules) {
			throw new IllegalArgumentException("A stream may have at most " + this.maxModules
					+ " modules (xd.admin.limits.maxModules), not " + modules);
		}
	}

	/** @throws IllegalArgumentException naming the first deployment property beyond its limit */
	void checkDeployment(Map<String, String> properties) {
		properties.forEach((key, value) -> {
			if (key.endsWith(".count")) {
				check(key, value, this.maxInstances, "maxInstances");
			}
			else if (key.endsWith(".consumer.concurrency")) {
				check(key, value, this.maxConcurrency, "maxConcurrency");
			}
			else if (key.endsWith(".minPartitionCount")) {
				check(key, value, this.maxPartitions, "maxPartitions");
			}
		});
	}

	private static void check(String key, String value, int max, String setting) {
		long number;
		try {
			number = Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return; // not a number: the deployment properties' own check says so
		}
		if (number > max) {
			throw new IllegalArgumentException(key + "=" + value + " is more than the " + max + " allowed "
					+ "(xd.admin.limits." + setting + ")");
		}
	}
}
