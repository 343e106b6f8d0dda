package io.xd.core.cluster;

/**
 * Where admins and containers meet in ZooKeeper, relative to the namespace ({@code zk.namespace}, default
 * {@code xd}). Admins and containers never call each other; they read and write these nodes.
 * <ul>
 * <li>{@code /streams/<stream>}: persistent, a {@link StreamRecord} (written by any admin);</li>
 * <li>{@code /deployments/<stream>}: persistent, a {@link DeploymentRequest}: the stream is meant to be deployed
 * (written by any admin, removed on undeploy);</li>
 * <li>{@code /containers/<containerId>}: ephemeral, a {@link ContainerAttributes} (written by the container);</li>
 * <li>{@code /allocations/<containerId>/<moduleId>}: persistent, an {@link Allocation}: the leader admin's
 * instruction to run a module instance on that container while it is registered under the session named;</li>
 * <li>{@code /runtime/<containerId>/<moduleId>}: ephemeral, a {@link ModuleStatus}: what the container made of
 * it;</li>
 * <li>{@code /history/<stream>/<version>}: persistent, a {@link StreamRelease}: each numbered version of the
 * stream's deployment (written by any admin, removed with the stream);</li>
 * <li>{@code /leader}: the admins' leader election;</li>
 * <li>{@code /admins/<adminId>}: ephemeral, an {@link AdminAddress} (written by each admin while it serves);</li>
 * <li>{@code /modules/<type>/<name>}: persistent, a {@link ModuleRecord}: a custom module whose jar the admins'
 * module repository holds;</li>
 * <li>{@code /audit/r-<sequence>}: persistent sequential, an {@link AuditRecord}: who changed what through an admin's
 * REST API (written by any admin, the oldest removed beyond the admins' bound).</li>
 * </ul>
 */
public final class ClusterPaths {

	public static final String STREAMS = "/streams";

	public static final String DEPLOYMENTS = "/deployments";

	public static final String CONTAINERS = "/containers";

	public static final String ALLOCATIONS = "/allocations";

	public static final String RUNTIME = "/runtime";

	public static final String LEADER = "/leader";

	public static final String HISTORY = "/history";

	public static final String ADMINS = "/admins";

	public static final String MODULES = "/modules";

	public static final String AUDIT = "/audit";

	/**
	 * The path a new audit record is created at, as a sequential node: ZooKeeper appends a 10-digit sequence number,
	 * so that the names sort in the order the records were written. The prefix is short because a listing of the
	 * records' names must fit in one ZooKeeper packet.
	 */
	public static final String AUDIT_RECORD_PREFIX = AUDIT + "/r-";

	private ClusterPaths() {
	}

	public static String stream(String name) {
		return STREAMS + "/" + name;
	}

	public static String deployment(String stream) {
		return DEPLOYMENTS + "/" + stream;
	}

	public static String history(String stream) {
		return HISTORY + "/" + stream;
	}

	/** A release's node: its version zero-padded to 10 digits, so that names sort as numbers. */
	public static String release(String stream, int version) {
		return history(stream) + "/" + String.format(java.util.Locale.ROOT, "%010d", version);
	}

	public static String container(String containerId) {
		return CONTAINERS + "/" + containerId;
	}

	public static String allocations(String containerId) {
		return ALLOCATIONS + "/" + containerId;
	}

	public static String allocation(String containerId, String moduleId) {
		return allocations(containerId) + "/" + moduleId;
	}

	public static String runtime(String containerId) {
		return RUNTIME + "/" + containerId;
	}

	public static String runtime(String containerId, String moduleId) {
		return runtime(containerId) + "/" + moduleId;
	}

	public static String admin(String adminId) {
		return ADMINS + "/" + adminId;
	}

	/** An audit record's node, by its name under {@link #AUDIT}. */
	public static String auditRecord(String node) {
		return AUDIT + "/" + node;
	}

	/** The node of a custom module; {@code type} and {@code name} must have been validated by the caller. */
	public static String module(String type, String name) {
		return MODULES + "/" + type + "/" + name;
	}
}
