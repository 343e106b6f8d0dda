package io.xd.admin.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.admin.cluster.ClusterStore.LeadershipLostException;
import io.xd.admin.cluster.ClusterStore.Registration;
import io.xd.admin.cluster.ModulePlacement.Placement;
import io.xd.admin.stream.CriteriaEvaluator;
import io.xd.admin.stream.DeploymentProperties;
import io.xd.admin.stream.StreamPlan;
import io.xd.admin.stream.StreamPlanner;
import io.xd.core.cluster.Allocation;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.DeploymentRequest;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.StreamRecord;

/**
 * Makes the modules running in the cluster match the streams meant to be deployed. Every admin runs one; only the
 * leader (a Curator {@link LeaderLatch}) acts.
 * <p>
 * The leader reconciles on a single thread whenever deployment requests or containers change, and every
 * {@code reconcileInterval} besides:
 * <ol>
 * <li>allocations written for an earlier registration of a container that is registered again under a new
 * ZooKeeper session are dropped at once (that container stopped them when it lost its session and never takes
 * them up again, see {@link Allocation}), so their modules are allocated afresh below;</li>
 * <li>allocations on containers that left (missing for longer than {@code departureGracePeriod}) are dropped, so
 * their modules are deployed elsewhere below;</li>
 * <li>modules of streams no longer meant to run, or meant to run otherwise (deployed again with other properties,
 * or on a container their criteria no longer match), are removed first module first, each waiting until its
 * container has stopped it, so producers stop before their consumers;</li>
 * <li>for each requested stream, last module first, each module gets instances on matching containers up to its
 * {@code count} (0: every matching container), on the least loaded containers that lack one; the leader waits
 * for the container's report on each new instance before going upstream, so consumers are bound before their
 * producers start.</li>
 * </ol>
 * A module short of its count stays so until a matching container joins; then the next reconciliation fills it.
 * <p>
 * Each allocation names the container registration it is for, and is written in a ZooKeeper transaction that
 * checks that this admin's leader latch node still exists: an admin that lost its leadership in the middle of a
 * reconciliation stops there instead of allocating a module the new leader may have placed elsewhere.
 */
public final class DeploymentSupervisor implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(DeploymentSupervisor.class);

	private static final long POLL_MILLIS = 25;

	/** How many status polls between two checks that the container is still registered as it was (about 1 s). */
	private static final int REGISTRATION_CHECK_POLLS = 40;

	private final ClusterStore store;

	private final StreamPlanner planner;

	private final Duration deploymentTimeout;

	private final Duration reconcileInterval;

	private final LeaderLatch latch;

	private final ScheduledExecutorService executor;

	private final AtomicBoolean pending = new AtomicBoolean();

	private final List<CuratorCache> caches = new ArrayList<>();

	private final DepartedContainers departures;

	private volatile boolean closed;

	/** The leader latch node this reconciliation runs under (used by the reconciling thread only). */
	private String leaderNode;

	/** The live containers' registration sessions as this reconciliation read them (reconciling thread only). */
	private Map<String, Long> sessions = Map.of();

	public DeploymentSupervisor(ClusterStore store, StreamPlanner planner, String adminId, Duration deploymentTimeout,
			Duration reconcileInterval, Duration departureGracePeriod) {
		this.departures = new DepartedContainers(departureGracePeriod);
		this.store = store;
		this.planner = planner;
		this.deploymentTimeout = deploymentTimeout;
		this.reconcileInterval = reconcileInterval;
		this.latch = new LeaderLatch(store.client(), ClusterPaths.LEADER, adminId);
		this.executor = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "xd-admin-supervisor");
			thread.setDaemon(true);
			return thread;
		});
	}

	public void start() throws Exception {
		this.latch.addListener(new LeaderLatchListener() {

			@Override
			public void isLeader() {
				logger.info("This admin ({}) is now the leader", DeploymentSupervisor.this.latch.getId());
				trigger();
			}

			@Override
			public void notLeader() {
				logger.info("This admin ({}) is no longer the leader", DeploymentSupervisor.this.latch.getId());
			}
		});
		this.latch.start();
		for (String path : List.of(ClusterPaths.DEPLOYMENTS, ClusterPaths.CONTAINERS)) {
			CuratorCache cache = CuratorCache.build(this.store.client(), path);
			cache.listenable().addListener(CuratorCacheListener.builder().forAll((type, before, after) -> trigger()).build());
			cache.start();
			this.caches.add(cache);
		}
		this.executor.scheduleWithFixedDelay(this::trigger, this.reconcileInterval.toMillis(),
				this.reconcileInterval.toMillis(), TimeUnit.MILLISECONDS);
	}

	public boolean isLeader() {
		return this.latch.hasLeadership();
	}

	/** Asks for a reconciliation soon; requests made while one is pending are merged into it. */
	public void trigger() {
		if (this.pending.compareAndSet(false, true)) {
			try {
				this.executor.execute(this::reconcile);
			}
			catch (RuntimeException ex) {
				this.pending.set(false);
			}
		}
	}

	private void reconcile() {
		this.pending.set(false);
		String leading = this.latch.getLastPathIsLeader();
		if (!this.latch.hasLeadership() || leading == null) {
			return;
		}
		try {
			this.leaderNode = leading;
			Map<String, Registration> registrations = this.store.registrations();
			Map<String, ContainerAttributes> containers = new TreeMap<>();
			Map<String, Long> live = new HashMap<>();
			registrations.forEach((id, registration) -> {
				containers.put(id, registration.attributes());
				live.put(id, registration.session());
			});
			this.sessions = live;
			Map<String, Map<String, ModuleDeployment>> allocations = new TreeMap<>();
			this.store.stampedAllocations().forEach((containerId, byId) -> {
				Map<String, ModuleDeployment> modules = new TreeMap<>();
				byId.forEach((moduleId, allocation) -> modules.put(moduleId, allocation.module()));
				allocations.put(containerId, modules);
				dropEarlierRegistration(containerId, byId, modules);
			});
			dropDepartedContainers(containers, allocations);
			// a container missing but still in its grace period: reconcile again as soon as the period ends
			this.departures.nextDeparture(System.nanoTime())
				.ifPresent(wait -> this.executor.schedule(this::trigger, wait.toMillis() + 1, TimeUnit.MILLISECONDS));
			Map<String, DeploymentRequest> requests = new HashMap<>();
			this.store.deployments().forEach(request -> requests.put(request.stream(), request));
			Map<String, List<ModuleDeployment>> plans = new HashMap<>();
			requests.values().forEach(request -> plan(request).ifPresent(modules -> plans.put(request.stream(),
					modules)));
			removeStale(requests, plans, containers, allocations);
			plans.values().forEach(modules -> deploy(modules, containers, allocations));
		}
		catch (LeadershipLostException ex) {
			logger.info("{}; the reconciliation stops here", ex.getMessage());
		}
		catch (RuntimeException ex) {
			if (this.closed || Thread.currentThread().isInterrupted()) {
				logger.debug("Reconciliation stopped by shutdown", ex);
			}
			else {
				logger.error("Reconciling deployments failed; retrying in {}", this.reconcileInterval, ex);
			}
		}
	}

	/**
	 * Drops the allocations of a live container that were written for an earlier registration of it: it stopped
	 * them when it lost that session, before registering again, and will not run them (see {@link Allocation}).
	 * @param byId the container's allocations as read
	 * @param modules the same, as this reconciliation's working copy, from which the dropped ones are removed
	 */
	private void dropEarlierRegistration(String containerId, Map<String, Allocation> byId,
			Map<String, ModuleDeployment> modules) {
		Long session = this.sessions.get(containerId);
		if (session == null) {
			return; // missing: see dropDepartedContainers
		}
		List<String> earlier = byId.entrySet()
			.stream()
			.filter(entry -> entry.getValue().containerSession() != session)
			.map(Map.Entry::getKey)
			.toList();
		if (earlier.isEmpty()) {
			return;
		}
		logger.info("Container {} is registered again as {}; redeploying the modules allocated to its earlier "
				+ "registration {}", containerId, Allocation.sessionText(session), earlier);
		for (String moduleId : earlier) {
			this.store.deallocate(containerId, moduleId);
			modules.remove(moduleId);
		}
	}

	private void dropDepartedContainers(Map<String, ContainerAttributes> containers,
			Map<String, Map<String, ModuleDeployment>> allocations) {
		for (String containerId : this.departures.departed(containers.keySet(), allocations.keySet(),
				System.nanoTime())) {
			Map<String, ModuleDeployment> lost = allocations.remove(containerId);
			if (!lost.isEmpty()) {
				logger.info("Container {} left; redeploying its modules {}", containerId, lost.keySet());
			}
			this.store.deleteAllocations(containerId);
		}
	}

	/**
	 * Handles every allocated instance that should not run as it is. An instance whose stream is no longer requested,
	 * beyond a lowered count, or on a container its criteria no longer match is removed, first module first. An
	 * instance whose module's options or properties changed (an update) is replaced where it runs, one instance at a
	 * time and last module first, each stopped before its successor starts, so that the rest of the stream keeps
	 * flowing. A stream that can no longer be planned keeps what runs.
	 */
	private void removeStale(Map<String, DeploymentRequest> requests, Map<String, List<ModuleDeployment>> plans,
			Map<String, ContainerAttributes> containers, Map<String, Map<String, ModuleDeployment>> allocations) {
		record Allocation(String containerId, ModuleDeployment module, ModuleDeployment successor) {
		}
		List<Allocation> stale = new ArrayList<>();
		allocations.forEach((containerId, byId) -> byId.values().forEach(module -> {
			List<ModuleDeployment> plan = plans.get(module.stream());
			ContainerAttributes container = containers.get(containerId);
			if (ModulePlacement.isStale(module, container, requests.containsKey(module.stream()), plan)) {
				ModuleDeployment successor = (plan == null) ? null : successor(module, plan, container);
				stale.add(new Allocation(containerId, module, successor));
			}
		}));
		List<Allocation> removals = new ArrayList<>(stale.stream().filter(a -> a.successor() == null).toList());
		removals.sort(Comparator.comparing((Allocation a) -> a.module().stream())
			.thenComparingInt(a -> a.module().index()));
		for (Allocation allocation : removals) {
			String moduleId = allocation.module().moduleId();
			logger.info("Removing module {} from container {}", moduleId, allocation.containerId());
			this.store.deallocate(allocation.containerId(), moduleId);
			allocations.get(allocation.containerId()).remove(moduleId);
			awaitStatus(allocation.containerId(), moduleId, false);
		}
		List<Allocation> replacements = new ArrayList<>(stale.stream().filter(a -> a.successor() != null).toList());
		replacements.sort(Comparator.comparing((Allocation a) -> a.module().stream())
			.thenComparing(Comparator.comparingInt((Allocation a) -> a.module().index()).reversed())
			.thenComparingInt(a -> a.module().sequence()));
		for (Allocation allocation : replacements) {
			String moduleId = allocation.module().moduleId();
			logger.info("Replacing module {} on container {} with its new settings", moduleId,
					allocation.containerId());
			this.store.deallocate(allocation.containerId(), moduleId);
			awaitStatus(allocation.containerId(), moduleId, false);
			allocate(allocation.containerId(), allocation.successor());
			allocations.get(allocation.containerId()).put(moduleId, allocation.successor());
			awaitStatus(allocation.containerId(), moduleId, true);
		}
	}

	/**
	 * What replaces a stale instance in place: the planned module with the same label and sequence, when only its
	 * settings changed (it is within the count and its container still matches); otherwise {@code null}.
	 */
	private static ModuleDeployment successor(ModuleDeployment module, List<ModuleDeployment> plan,
			ContainerAttributes container) {
		ModuleDeployment wanted = ModulePlacement.planned(module, plan);
		if (wanted == null || container == null) {
			return null;
		}
		if (ModulePlacement.beyondCount(wanted, module.sequence())
				|| !CriteriaEvaluator.matches(wanted.properties().criteria(), container)) {
			return null;
		}
		return wanted.withSequence(module.sequence());
	}

	private Optional<List<ModuleDeployment>> plan(DeploymentRequest request) {
		Optional<StreamRecord> stream = this.store.findStream(request.stream());
		if (stream.isEmpty()) {
			return Optional.empty();
		}
		try {
			StreamPlan plan = this.planner.plan(stream.get().name(), stream.get().definition(),
					name -> this.store.findStream(name).map(StreamRecord::definition));
			return Optional.of(plan.deployments(DeploymentProperties.of(request.properties())));
		}
		catch (RuntimeException ex) {
			logger.error("Stream '{}' can no longer be deployed: {}", request.stream(), ex.getMessage());
			return Optional.empty();
		}
	}

	private void deploy(List<ModuleDeployment> plan, Map<String, ContainerAttributes> containers,
			Map<String, Map<String, ModuleDeployment>> allocations) {
		List<ModuleDeployment> modules = new ArrayList<>(plan);
		modules.sort(Comparator.comparingInt(ModuleDeployment::index).reversed());
		for (ModuleDeployment module : modules) {
			deployModule(module, containers, allocations);
		}
	}

	private void deployModule(ModuleDeployment module, Map<String, ContainerAttributes> containers,
			Map<String, Map<String, ModuleDeployment>> allocations) {
		if (ModulePlacement.candidates(module, containers).isEmpty()) {
			logger.warn("No container matches module '{}' of stream '{}' (criteria: {})", module.label(),
					module.stream(), module.properties().criteria());
			return;
		}
		List<Placement> placements = ModulePlacement.newInstances(module, containers, allocations);
		for (Placement placement : placements) {
			ModuleDeployment instance = placement.instance();
			allocate(placement.containerId(), instance);
			allocations.computeIfAbsent(placement.containerId(), id -> new TreeMap<>())
				.put(instance.moduleId(), instance);
			logger.info("Allocated module {} to container {}", instance.moduleId(), placement.containerId());
		}
		for (Placement placement : placements) {
			awaitStatus(placement.containerId(), placement.instance().moduleId(), true);
		}
	}

	/** Allocates an instance to the container's registration as this reconciliation read it, if still the leader. */
	private void allocate(String containerId, ModuleDeployment instance) {
		long session = this.sessions.getOrDefault(containerId, 0L);
		this.store.allocate(containerId, new Allocation(instance, session), this.leaderNode);
	}

	/** Waits until the container has reported on a module ({@code present}) or has removed its report. */
	private void awaitStatus(String containerId, String moduleId, boolean present) {
		long deadline = System.nanoTime() + this.deploymentTimeout.toNanos();
		for (int poll = 1; System.nanoTime() < deadline; poll++) {
			if (this.store.status(containerId, moduleId).isPresent() == present) {
				return;
			}
			if (present && poll % REGISTRATION_CHECK_POLLS == 0 && !stillRegistered(containerId)) {
				// the container left or registered again: it will not deploy this allocation; the next
				// reconciliation (already triggered by the change) places the module again
				logger.info("Container {} left or registered again while deploying module {}", containerId, moduleId);
				return;
			}
			try {
				Thread.sleep(POLL_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
		logger.warn("Container {} did not {} module {} within {}", containerId, present ? "deploy" : "undeploy",
				moduleId, this.deploymentTimeout);
	}

	private boolean stillRegistered(String containerId) {
		Long session = this.sessions.get(containerId);
		return this.store.registration(containerId)
			.map(registration -> session != null && registration.session() == session)
			.orElse(false);
	}

	@Override
	public void close() {
		this.closed = true;
		this.caches.forEach(CuratorCache::close);
		this.executor.shutdownNow();
		try {
			this.latch.close();
		}
		catch (Exception ex) {
			logger.debug("Could not leave the leader election cleanly", ex);
		}
	}
}
