package io.xd.core.cluster;

/**
 * What a container reports about a module instance allocated to it.
 *
 * @param state {@link #DEPLOYED} or {@link #FAILED}
 * @param error why the module failed to deploy, or {@code null}
 * @param since when the state was reached, in milliseconds since the epoch
 */
public record ModuleStatus(String state, String error, long since) {

	public static final String DEPLOYED = "deployed";

	public static final String FAILED = "failed";

	public static ModuleStatus deployed() {
		return new ModuleStatus(DEPLOYED, null, System.currentTimeMillis());
	}

	public static ModuleStatus failed(String error) {
		return new ModuleStatus(FAILED, error, System.currentTimeMillis());
	}

	public boolean isDeployed() {
		return DEPLOYED.equals(this.state);
	}
}
