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

	/**
	 * How long a container may be missing from ZooKeeper before its modules are deployed elsewhere. Covers an
	 * admin that starts before the containers re-register (a restart), without delaying failover much: a dead
	 * container's node disappears only after its ZooKeeper session times out.
	 */
	private Duration departureGracePeriod = Duration.ofSeconds(5);

	public Duration getDepartureGracePeriod() {
		return this.departureGracePeriod;
	}

	public void setDepartureGracePeriod(Duration departureGracePeriod) {
		this.departureGracePeriod = departureGracePeriod;
	}

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
