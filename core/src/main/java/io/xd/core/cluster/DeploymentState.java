package io.xd.core.cluster;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where the deployment of a stream, or of one module instance, stands; written and shown in lower case
 * ({@code deployed}), as in Spring XD. A container reports a module instance as {@link #DEPLOYED} or
 * {@link #FAILED}; before its report the admin shows it as {@link #DEPLOYING}. A stream may be in any state.
 */
public enum DeploymentState {

	/** Not meant to run: no deployment was requested, or it was withdrawn. */
	UNDEPLOYED,

	/** Requested, and no instance of some module has been reported yet. */
	DEPLOYING,

	/** Every module has all its instances running. */
	DEPLOYED,

	/**
	 * A stream only: every module has all its instances running, and some instance failed on a message recently (its
	 * handling threw, or the bus moved it to its error path) within the admin's {@code xd.admin.degradedWindow}. The
	 * stream is deployed and keeps running; it returns to {@link #DEPLOYED} once a window passes without failure.
	 */
	DEGRADED,

	/** Every module runs, some with fewer instances than their {@code count} (too few matching containers). */
	INCOMPLETE,

	/** Some module has no running instance and cannot get one: it failed, or no container matches it. */
	FAILED;

	/** Whether every module has all its instances running: {@link #DEPLOYED} or {@link #DEGRADED}. */
	public boolean isRunning() {
		return this == DEPLOYED || this == DEGRADED;
	}

	/** The lower-case name, as stored in ZooKeeper and shown by the REST API. */
	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	@Override
	public String toString() {
		return label();
	}
}
