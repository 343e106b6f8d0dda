package io.xd.admin.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import io.xd.admin.AdminException;
import io.xd.core.cluster.AdminAddress;
import io.xd.core.cluster.Allocation;
import io.xd.core.cluster.AuditRecord;
import io.xd.core.cluster.ClusterJson;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.DeploymentRequest;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleRecord;
import io.xd.core.cluster.ModuleStatus;
import io.xd.core.cluster.StreamRecord;
import io.xd.core.cluster.StreamRelease;

/**
 * The admin's reads and writes of the cluster state in ZooKeeper (see {@link ClusterPaths}). Every admin may use
 * it; only the leader writes allocations. A ZooKeeper failure surfaces as an {@link AdminException} with status
 * 503.
 */
public final class ClusterStore {

	private final CuratorFramework client;

	public ClusterStore(CuratorFramework client) {
		this.client = client;
	}

	public CuratorFramework client() {
		return this.client;
	}

	public void createStream(StreamRecord stream) {
		try {
			this.client.create().creatingParentContainersIfNeeded().forPath(ClusterPaths.stream(stream.name()),
					ClusterJson.write(stream));
		}
		catch (KeeperException.NodeExistsException ex) {
			throw AdminException.streamExists(stream.name());
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	public Optional<StreamRecord> findStream(String name) {
		return read(ClusterPaths.stream(name), StreamRecord.class);
	}

	/** How many streams are stored, counted without reading them. */
	public int streamCount() {
		return children(ClusterPaths.STREAMS).size();
	}

	public List<StreamRecord> streams() {
		List<StreamRecord> streams = new ArrayList<>();
		for (String name : children(ClusterPaths.STREAMS)) {
			findStream(name).ifPresent(streams::add);
		}
		return streams;
	}

	public void deleteStream(String name) {
		delete(ClusterPaths.stream(name));
	}

	/** Records that a stream is meant to be deployed; false when it already is. */
	public boolean requestDeployment(DeploymentRequest request) {
		try {
			this.client.create().creatingParentContainersIfNeeded().forPath(ClusterPaths.deployment(request.stream()),
					ClusterJson.write(request));
			return true;
		}
		catch (KeeperException.NodeExistsException ex) {
			return false;
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	/** Records that a stream is meant to be deployed with these properties, replacing what was requested before. */
	public void replaceDeployment(DeploymentRequest request) {
		String path = ClusterPaths.deployment(request.stream());
		try {
			try {
				this.client.setData().forPath(path, ClusterJson.write(request));
			}
			catch (KeeperException.NoNodeException ex) {
				this.client.create().creatingParentContainersIfNeeded().forPath(path, ClusterJson.write(request));
			}
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	/**
	 * Adds the next numbered version of a stream's deployment to its history. Two admins adding one at once each
	 * get a version of their own.
	 */
	public StreamRelease addRelease(String stream, String definition, Map<String, String> properties,
			String description) {
		for (int attempt = 0; attempt < 10; attempt++) {
			int version = releases(stream).stream().mapToInt(StreamRelease::version).max().orElse(0) + 1;
			StreamRelease release = new StreamRelease(stream, version, definition, properties,
					System.currentTimeMillis(), description);
			try {
				this.client.create().creatingParentContainersIfNeeded().forPath(ClusterPaths.release(stream, version),
						ClusterJson.write(release));
				return release;
			}
			catch (KeeperException.NodeExistsException ex) {
				// another admin took this version: take the next one
			}
			catch (Exception ex) {
				throw unavailable(ex);
			}
		}
		throw new AdminException(503, "ClusterUnavailableException",
				"Could not add a version to the history of stream '" + stream + "'");
	}

	/** The versions of a stream's deployment, oldest first. */
	public List<StreamRelease> releases(String stream) {
		List<StreamRelease> releases = new ArrayList<>();
		for (String node : children(ClusterPaths.history(stream))) {
			read(ClusterPaths.history(stream) + "/" + node, StreamRelease.class).ifPresent(releases::add);
		}
		releases.sort(java.util.Comparator.comparingInt(StreamRelease::version));
		return releases;
	}

	/**
	 * Removes the oldest versions of a stream's deployment beyond the newest {@code keep}, found by their node names
	 * (zero-padded versions, so their order is the versions'), without reading them.
	 */
	public void pruneReleases(String stream, int keep) {
		List<String> versions = children(ClusterPaths.history(stream));
		for (String old : versions.subList(0, Math.max(0, versions.size() - Math.max(1, keep)))) {
			delete(ClusterPaths.history(stream) + "/" + old);
		}
	}

	public void deleteReleases(String stream) {
		delete(ClusterPaths.history(stream));
	}

	public Optional<DeploymentRequest> findDeployment(String stream) {
		return read(ClusterPaths.deployment(stream), DeploymentRequest.class);
	}

	public List<DeploymentRequest> deployments() {
		List<DeploymentRequest> requests = new ArrayList<>();
		for (String name : children(ClusterPaths.DEPLOYMENTS)) {
			findDeployment(name).ifPresent(requests::add);
		}
		return requests;
	}

	public void removeDeployment(String stream) {
		delete(ClusterPaths.deployment(stream));
	}

	/** Live containers by id, in id order. */
	public Map<String, ContainerAttributes> containers() {
		Map<String, ContainerAttributes> containers = new TreeMap<>();
		registrations().forEach((id, registration) -> containers.put(id, registration.attributes()));
		return containers;
	}

	/** Live containers' registrations by id, in id order. */
	public Map<String, Registration> registrations() {
		Map<String, Registration> registrations = new TreeMap<>();
		for (String id : children(ClusterPaths.CONTAINERS)) {
			registration(id).ifPresent(registration -> registrations.put(id, registration));
		}
		return registrations;
	}

	/** A live container's registration; empty when it is not registered. */
	public Optional<Registration> registration(String containerId) {
		Stat stat = new Stat();
		try {
			byte[] data = this.client.getData().storingStatIn(stat).forPath(ClusterPaths.container(containerId));
			return Optional.of(new Registration(ClusterJson.read(data, ContainerAttributes.class),
					stat.getEphemeralOwner()));
		}
		catch (KeeperException.NoNodeException ex) {
			return Optional.empty();
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	/** Allocated modules by container id, then module id. */
	public Map<String, Map<String, ModuleDeployment>> allocations() {
		Map<String, Map<String, ModuleDeployment>> all = new TreeMap<>();
		stampedAllocations().forEach((containerId, byId) -> {
			Map<String, ModuleDeployment> modules = new TreeMap<>();
			byId.forEach((moduleId, allocation) -> modules.put(moduleId, allocation.module()));
			all.put(containerId, modules);
		});
		return all;
	}

	/** Allocations with the container registration each was written for, by container id, then module id. */
	public Map<String, Map<String, Allocation>> stampedAllocations() {
		Map<String, Map<String, Allocation>> all = new TreeMap<>();
		for (String containerId : children(ClusterPaths.ALLOCATIONS)) {
			Map<String, Allocation> modules = new TreeMap<>();
			for (String moduleId : children(ClusterPaths.allocations(containerId))) {
				readBytes(ClusterPaths.allocation(containerId, moduleId))
					.ifPresent(data -> modules.put(moduleId, Allocation.of(data)));
			}
			all.put(containerId, modules);
		}
		return all;
	}

	/** What containers report about their modules, by container id, then module id. */
	public Map<String, Map<String, ModuleStatus>> runtime() {
		Map<String, Map<String, ModuleStatus>> all = new TreeMap<>();
		for (String containerId : children(ClusterPaths.RUNTIME)) {
			Map<String, ModuleStatus> modules = new LinkedHashMap<>();
			for (String moduleId : children(ClusterPaths.runtime(containerId))) {
				read(ClusterPaths.runtime(containerId, moduleId), ModuleStatus.class)
					.ifPresent(status -> modules.put(moduleId, status));
			}
			all.put(containerId, modules);
		}
		return all;
	}

	public Optional<ModuleStatus> status(String containerId, String moduleId) {
		return read(ClusterPaths.runtime(containerId, moduleId), ModuleStatus.class);
	}

	/**
	 * Allocates a module instance to a container registration, only while {@code leaderNode} exists: the leader
	 * latch node this admin became the leader with. ZooKeeper checks it and creates the allocation in one
	 * transaction, so an admin that lost its leadership (its session expired while it was paused or cut off, its
	 * latch was reset) writes nothing, even from a reconciliation it began as the leader: it cannot allocate a module
	 * that the new leader has placed elsewhere meanwhile. Nothing happens when the module is allocated there
	 * already.
	 * @throws LeadershipLostException when {@code leaderNode} no longer exists
	 */
	public void allocate(String containerId, Allocation allocation, String leaderNode) {
		String path = ClusterPaths.allocation(containerId, allocation.module().moduleId());
		try {
			for (int attempt = 1;; attempt++) {
				try {
					this.client.transaction()
						.forOperations(this.client.transactionOp().check().forPath(leaderNode),
								this.client.transactionOp().create().forPath(path, allocation.toBytes()));
					return;
				}
				catch (KeeperException.NodeExistsException ex) {
					return; // allocated already
				}
				catch (KeeperException.NoNodeException ex) {
					if (this.client.checkExists().forPath(leaderNode) == null) {
						throw new LeadershipLostException(leaderNode);
					}
					if (attempt == 3) {
						throw ex;
					}
					// the container's allocations node is missing (none yet, or removed when it was emptied)
					this.client.createContainers(ClusterPaths.allocations(containerId));
				}
			}
		}
		catch (LeadershipLostException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	public void deallocate(String containerId, String moduleId) {
		delete(ClusterPaths.allocation(containerId, moduleId));
	}

	public void deleteAllocations(String containerId) {
		delete(ClusterPaths.allocations(containerId));
	}

	/** The running admins' module jar tokens by their REST addresses, for fetching module jars from each other. */
	public Map<String, String> admins() {
		Map<String, String> admins = new LinkedHashMap<>();
		for (String id : children(ClusterPaths.ADMINS)) {
			read(ClusterPaths.admin(id), AdminAddress.class).ifPresent(address -> admins.put(address.url(),
					address.token()));
		}
		return admins;
	}

	/** The custom modules, in type then name order. */
	public List<ModuleRecord> modules() {
		List<ModuleRecord> modules = new ArrayList<>();
		for (String type : children(ClusterPaths.MODULES)) {
			for (String name : children(ClusterPaths.MODULES + "/" + type)) {
				findModule(type, name).ifPresent(modules::add);
			}
		}
		return modules;
	}

	/** The record of a custom module; {@code type} and {@code name} must have been validated. */
	public Optional<ModuleRecord> findModule(String type, String name) {
		return read(ClusterPaths.module(type, name), ModuleRecord.class);
	}

	/** Creates or replaces the record of a custom module. */
	public void saveModule(ModuleRecord module) {
		String path = ClusterPaths.module(module.type(), module.name());
		try {
			this.client.create().orSetData().creatingParentContainersIfNeeded().forPath(path, ClusterJson.write(module));
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	public void deleteModule(String type, String name) {
		delete(ClusterPaths.module(type, name));
	}

	/**
	 * Adds an audit record as the newest. Its parent is created as a persistent node (not a container node, which
	 * ZooKeeper removes when empty and would recreate with the sequence numbers starting again).
	 * @return the record's node name under {@link ClusterPaths#AUDIT}
	 */
	public String addAuditRecord(AuditRecord record) {
		try {
			String path = this.client.create()
				.creatingParentsIfNeeded()
				.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(ClusterPaths.AUDIT_RECORD_PREFIX, ClusterJson.write(record));
			return ZKPaths.getNodeFromPath(path);
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	/** How many audit records there are, read without listing them. */
	public int auditRecordCount() {
		try {
			Stat stat = this.client.checkExists().forPath(ClusterPaths.AUDIT);
			return (stat == null) ? 0 : stat.getNumChildren();
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	/** The audit records' node names, oldest first. */
	public List<String> auditRecordNodes() {
		return children(ClusterPaths.AUDIT);
	}

	/** An audit record by its node name; empty when it was removed meanwhile. */
	public Optional<AuditRecord> findAuditRecord(String node) {
		return read(ClusterPaths.auditRecord(node), AuditRecord.class);
	}

	public void deleteAuditRecord(String node) {
		delete(ClusterPaths.auditRecord(node));
	}

	private Optional<byte[]> readBytes(String path) {
		try {
			return Optional.of(this.client.getData().forPath(path));
		}
		catch (KeeperException.NoNodeException ex) {
			return Optional.empty();
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	private <T> Optional<T> read(String path, Class<T> type) {
		try {
			return Optional.of(ClusterJson.read(this.client.getData().forPath(path), type));
		}
		catch (KeeperException.NoNodeException ex) {
			return Optional.empty();
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	private List<String> children(String path) {
		try {
			List<String> children = new ArrayList<>(this.client.getChildren().forPath(path));
			children.sort(null);
			return children;
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	private void delete(String path) {
		try {
			this.client.delete().quietly().deletingChildrenIfNeeded().forPath(path);
		}
		catch (Exception ex) {
			throw unavailable(ex);
		}
	}

	/**
	 * A live container's registration.
	 *
	 * @param attributes what the container says about itself
	 * @param session the ZooKeeper session that owns its registration node: allocations are written for it
	 */
	public record Registration(ContainerAttributes attributes, long session) {
	}

	/** This admin is no longer the leader it was when it began what it was writing. */
	public static final class LeadershipLostException extends RuntimeException {

		LeadershipLostException(String leaderNode) {
			super("This admin's leader node " + leaderNode + " is gone: it is no longer the leader");
		}
	}

	private static AdminException unavailable(Exception ex) {
		if (ex instanceof AdminException admin) {
			return admin;
		}
		return new AdminException(503, "ClusterUnavailableException",
				"The cluster state in ZooKeeper could not be read or written: " + ex.getClass().getSimpleName(), ex);
	}
}
