package io.xd.admin;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.xd.admin.audit.AuditTrail;
import io.xd.admin.stream.StreamLimits;
import io.xd.admin.stream.StreamService;

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
	private Duration departureGracePeriod = Duration.ofSeconds(2);

	/**
	 * How recent a module's failure on a message (its handling threw, or the bus moved it to the dead-letter topic or
	 * {@code topic:xd.errors}) must be for its deployed stream to show as {@code degraded}; once this long passes
	 * without one, the stream is {@code deployed} again.
	 */
	private Duration degradedWindow = StreamService.DEFAULT_DEGRADED_WINDOW;

	/** Caps on what one stream may ask for. */
	private final Limits limits = new Limits();

	/** The audit trail of changes made through the REST API. */
	private final Audit audit = new Audit();

	public Limits getLimits() {
		return this.limits;
	}

	public Audit getAudit() {
		return this.audit;
	}

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

	public Duration getDegradedWindow() {
		return this.degradedWindow;
	}

	public void setDegradedWindow(Duration degradedWindow) {
		this.degradedWindow = degradedWindow;
	}

	public Duration getReconcileInterval() {
		return this.reconcileInterval;
	}

	public void setReconcileInterval(Duration reconcileInterval) {
		this.reconcileInterval = reconcileInterval;
	}

	/** {@code xd.admin.audit.*}: see {@link AuditTrail}. */
	public static class Audit {

		/** Audit records kept in ZooKeeper, from 1 to 50 000; beyond it the oldest are removed. */
		private int maxRecords = AuditTrail.DEFAULT_MAX_RECORDS;

		public int getMaxRecords() {
			return this.maxRecords;
		}

		public void setMaxRecords(int maxRecords) {
			this.maxRecords = maxRecords;
		}
	}

	/** {@code xd.admin.limits.*}: see {@link StreamLimits}. */
	public static class Limits {

		/** Characters of a stream name. */
		private int maxNameLength = StreamLimits.DEFAULTS.maxNameLength();

		/** Characters of a stream definition. */
		private int maxDefinitionLength = StreamLimits.DEFAULTS.maxDefinitionLength();

		/** Modules in one stream. */
		private int maxModules = StreamLimits.DEFAULTS.maxModules();

		/** Instances of one module (module.<label>.count). */
		private int maxInstances = StreamLimits.DEFAULTS.maxInstances();

		/** Consumer threads of one module instance (consumer.concurrency). */
		private int maxConcurrency = StreamLimits.DEFAULTS.maxConcurrency();

		/** Partitions of a topic the Kafka bus creates (minPartitionCount). */
		private int maxPartitions = StreamLimits.DEFAULTS.maxPartitions();

		/** Streams the server keeps. */
		private int maxStreams = StreamLimits.DEFAULTS.maxStreams();

		/** Versions of a stream's deployment kept in its history; older ones are removed. */
		private int maxReleases = StreamLimits.DEFAULTS.maxReleases();

		public StreamLimits toStreamLimits() {
			return new StreamLimits(this.maxNameLength, this.maxDefinitionLength, this.maxModules, this.maxInstances,
					this.maxConcurrency, this.maxPartitions, this.maxStreams, this.maxReleases);
		}

		public int getMaxStreams() {
			return this.maxStreams;
		}

		public void setMaxStreams(int maxStreams) {
			this.maxStreams = maxStreams;
		}

		public int getMaxReleases() {
			return this.maxReleases;
		}

		public void setMaxReleases(int maxReleases) {
			this.maxReleases = maxReleases;
		}

		public int getMaxNameLength() {
			return this.maxNameLength;
		}

		public void setMaxNameLength(int maxNameLength) {
			this.maxNameLength = maxNameLength;
		}

		public int getMaxDefinitionLength() {
			return this.maxDefinitionLength;
		}

		public void setMaxDefinitionLength(int maxDefinitionLength) {
			this.maxDefinitionLength = maxDefinitionLength;
		}

		public int getMaxModules() {
			return this.maxModules;
		}

		public void setMaxModules(int maxModules) {
			this.maxModules = maxModules;
		}

		public int getMaxInstances() {
			return this.maxInstances;
		}

		public void setMaxInstances(int maxInstances) {
			this.maxInstances = maxInstances;
		}

		public int getMaxConcurrency() {
			return this.maxConcurrency;
		}

		public void setMaxConcurrency(int maxConcurrency) {
			this.maxConcurrency = maxConcurrency;
		}

		public int getMaxPartitions() {
			return this.maxPartitions;
		}

		public void setMaxPartitions(int maxPartitions) {
			this.maxPartitions = maxPartitions;
		}
	}
}
