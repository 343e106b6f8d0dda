package io.xd.core.cluster;

/**
 * What a container reports about a module instance allocated to it.
 *
 * @param state {@link DeploymentState#DEPLOYED} or {@link DeploymentState#FAILED}
 * @param error why the module failed to deploy, or {@code null}
 * @param since when the state was reached, in milliseconds since the epoch
 * @param messageRate messages per second the module handled (a source: sent) over the container's last measuring
 *     interval, or {@code null} before the first one
 * @param errorRate messages per second whose handling threw in the module (each attempt of a redelivered message
 *     counts) over the same interval, or {@code null} before the first one
 * @param errors messages whose handling threw in the module since it was deployed (its {@code xd.module.errors})
 * @param deadLetters messages of the module the bus moved to its error path since the module was deployed (the
 *     Kafka bus's dead-letter topic, the local bus's {@code topic:xd.errors}; its {@code xd.module.dead.letters})
 * @param lastError the latest of those failures, or {@code null} while there was none
 */
public record ModuleStatus(DeploymentState state, String error, long since, Double messageRate, Double errorRate,
		long errors, long deadLetters, LastError lastError) {

	public ModuleStatus(DeploymentState state, String error, long since, Double messageRate) {
		this(state, error, since, messageRate, null, 0, 0, null);
	}

	public static ModuleStatus deployed() {
		return new ModuleStatus(DeploymentState.DEPLOYED, null, System.currentTimeMillis(), null);
	}

	public static ModuleStatus failed(String error) {
		return new ModuleStatus(DeploymentState.FAILED, error, System.currentTimeMillis(), null);
	}

	/** The same status with newly measured rates and failure counts. */
	public ModuleStatus withMeasurement(double rate, double errorRate, long errors, long deadLetters,
			LastError lastError) {
		return new ModuleStatus(this.state, this.error, this.since, rate, errorRate, errors, deadLetters, lastError);
	}

	public boolean isDeployed() {
		return this.state == DeploymentState.DEPLOYED;
	}

	/**
	 * Whether the module's latest failure (a message whose handling threw, or one moved to the error path) happened
	 * at or after {@code sinceMillis} (milliseconds since the epoch).
	 */
	public boolean failedSince(long sinceMillis) {
		return this.lastError != null && this.lastError.time() >= sinceMillis;
	}

	/**
	 * A module's latest failure on a message.
	 *
	 * @param time when, in milliseconds since the epoch (the container's clock)
	 * @param reason the first line of the exception's message, at most 300 characters
	 */
	public record LastError(long time, String reason) {
	}
}
