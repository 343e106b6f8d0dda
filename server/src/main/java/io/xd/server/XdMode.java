package io.xd.server;

import java.util.Locale;

/** What an XD process runs: everything in one JVM, or one role of a distributed runtime. */
public enum XdMode {

	/** Admin, container and (unless {@code zk.client.connect} is set) an embedded ZooKeeper, in one JVM. */
	SINGLENODE,

	/** The admin server alone: REST API and, when elected leader, the deployment supervisor. */
	ADMIN,

	/** A container alone: runs the modules the leader admin allocates to it. */
	CONTAINER;

	/** The Spring profile that selects this mode's beans. */
	public String profile() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** The mode named by a command-line word, or {@code null} when the word is not a mode. */
	static XdMode of(String word) {
		for (XdMode mode : values()) {
			if (mode.profile().equals(word)) {
				return mode;
			}
		}
		return null;
	}
}
