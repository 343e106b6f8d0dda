package io.xd.admin;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the admin server ({@code xd.admin.*}).
 */
@ConfigurationProperties("xd.admin")
public class AdminProperties {

	/** How long the leader waits for a container to report on a module before it deploys the next one. */
	private Duration deploymentTimeout = Duration.ofSeconds(30);

	/** How often the leader re-checks every deployment, beside reacting to changes at once. */
	private Duration reconcileInterval = Duration.ofSeconds(10);

	public Duration getDeploymentTimeout() {
		return this.deploymentTimeout;
	}

	public void setDeploymentTimeout(Duration deploymentTimeout) {
		this.deploymentTimeout = deploymentTimeout;
	}

	public Duration getReconcileInterval() {
		return this.reconcileInterval;
	}

	public void setReconcileInterval(Duration reconcileInterval) {
		this.reconcileInterval = reconcileInterval;
	}
}
