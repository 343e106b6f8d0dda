package io.xd.core.cluster;

/**
 * What a container reports about a module instance allocated to it.
 *
 * @param state {@link DeploymentState#DEPLOYED} or {@link DeploymentState#FAILED}
 * @param error why the module failed to deploy, or {@code null}
 * @param since when the state was reached, in milliseconds since the epoch
 * @param messageRate messages per second the module handled (a source: sent) over the container's last measuring
 *     interval, or {@code null} before the first one
 */
public record ModuleStatus(DeploymentState state, String error, long since, Double messageRate) {

	public static ModuleStatus deployed() {
		return new ModuleStatus(DeploymentState.DEPLOYED, null, System.currentTimeMillis(), null);
	}

	public static ModuleStatus failed(String error) {
		return new ModuleStatus(DeploymentState.FAILED, error, System.currentTimeMillis(), null);
	}

	/** The same status with a newly measured message rate. */
	public ModuleStatus withRate(double rate) {
		return new ModuleStatus(this.state, this.error, this.since, rate);
	}

	public boolean isDeployed() {
		return this.state == DeploymentState.DEPLOYED;
	}
}
