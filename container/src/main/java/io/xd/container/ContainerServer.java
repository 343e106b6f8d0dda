package io.xd.container;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.container.ModuleRunner.RunningModule;
import io.xd.core.cluster.Allocation;
import io.xd.core.cluster.ClusterJson;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleStatus;

/**
 * A container's presence in the cluster: it registers itself as an ephemeral node, watches the modules the leader
 * admin allocates to it, deploys and undeploys them with a {@link ModuleRunner}, and reports each one's status.
 * <p>
 * All deployments run one at a time on a single thread of the container's own, in the order the allocations
 * appear; allocations that already exist when the container starts (after a restart) are deployed last module
 * first, so that every consumer is bound before its producer starts. {@link #close()} stops the modules first
 * module first, so producers stop before their consumers.
 * <p>
 * A module runs only on an allocation written for the container's current registration (its ZooKeeper session, see
 * {@link Allocation}). When the session is lost, the container stops every module before anything else and, under
 * its new session, registers again without taking up what is still allocated under its id: the leader drops those
 * allocations and allocates the modules afresh, so a module the leader has meanwhile moved to another container
 * never starts here again.
 * <p>
 * A container does not wait for ZooKeeper to tell it that its session is gone: it keeps a lease on the session
 * ({@link SessionLease}, {@code xd.container.leaseFraction} of the session timeout, renewed by a read of its
 * registration every quarter of that). When the lease runs out (ZooKeeper cut off, or this process paused), the
 * container stops every module at once, before ZooKeeper may expire the session and the leader move the modules:
 * their bus inputs hand nothing over from that instant ({@link ModuleRunner#fence}), and the stops are waited for at
 * most until the session may expire. If ZooKeeper answers again in the same session, the container deploys again
 * what is allocated to that registration; if the session is lost, it registers again as above.
 */
public final class ContainerServer implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ContainerServer.class);

	/** The part of the session timeout a container runs its modules without hearing from ZooKeeper, by default. */
	public static final double DEFAULT_LEASE_FRACTION = 0.66;

	/** How often the lease is checked. */
	private static final Duration LEASE_CHECK = Duration.ofMillis(50);

	private final CuratorFramework client;

	private final ContainerAttributes attributes;

	private final ModuleRunner runner;

	private final ExecutorService worker;

	/**
	 * Stops the modules when the session is lost, at once rather than behind deployments queued on the worker (one
	 * may be waiting for a broker); the worker registers again only once the stop is done.
	 */
	private final ExecutorService stopper;

	private volatile Future<?> stopping = CompletableFuture.completedFuture(null);

	/**
	 * The ZooKeeper session that owns this container's registration node; 0 from the moment the session is known to
	 * be lost until the container has registered again. Only allocations written for it are deployed.
	 */
	private volatile long registration;

	private final ScheduledExecutorService rates;

	private final Duration rateInterval;

	private final Map<String, RunningModule> modules = new LinkedHashMap<>();

	private final SessionLease lease;

	/** Renews and checks the lease, on a thread of its own that nothing else blocks. */
	private final ScheduledExecutorService leaseKeeper;

	/** Stops modules side by side, so that one that takes long (a commit waiting for a broker) delays no other. */
	private final ExecutorService moduleStops;

	/** Stops under way, by module id: a module is deployed again only once its earlier instance has stopped. */
	private final Map<String, CompletableFuture<Void>> stoppingModules = new ConcurrentHashMap<>();

	/** Whether the modules were stopped because the lease ran out, to be deployed again when it is renewed. */
	private volatile boolean fenced;

	/** Whether an allocation was not deployed because the lease had run out, to be deployed when it is renewed. */
	private volatile boolean missed;

	private final Map<String, ModuleStatus> statuses = new LinkedHashMap<>();

	private final List<Allocation> initial = new ArrayList<>();

	private CuratorCache allocations;

	private volatile boolean initialized;

	public ContainerServer(CuratorFramework client, ContainerAttributes attributes, ModuleRunner runner) {
		this(client, attributes, runner, Duration.ofSeconds(5));
	}

	/**
	 * @param rateInterval how often each module's message rate is measured and reported with its status
	 */
	public ContainerServer(CuratorFramework client, ContainerAttributes attributes, ModuleRunner runner,
			Duration rateInterval) {
		this(client, attributes, runner, rateInterval, DEFAULT_LEASE_FRACTION);
	}

	/**
	 * @param rateInterval how often each module's message rate is measured and reported with its status
	 * @param leaseFraction the part of the ZooKeeper session timeout the container runs its modules without hearing
	 * from ZooKeeper ({@code xd.container.leaseFraction}), above 0 and at most 1
	 */
	public ContainerServer(CuratorFramework client, ContainerAttributes attributes, ModuleRunner runner,
			Duration rateInterval, double leaseFraction) {
		this.lease = new SessionLease(leaseFraction);
		this.leaseKeeper = Executors.newSingleThreadScheduledExecutor(daemon("xd-container-lease"));
		this.moduleStops = Executors.newCachedThreadPool(daemon("xd-container-module-stop"));
		this.rateInterval = rateInterval;
		this.rates = Executors.newSingleThreadScheduledExecutor(daemon("xd-container-rates"));
		this.client = client;
		this.attributes = attributes;
		this.runner = runner;
		this.worker = Executors.newSingleThreadExecutor(daemon("xd-container-deployer"));
		this.stopper = Executors.newSingleThreadExecutor(daemon("xd-container-stopper"));
	}

	/** Daemon threads of one name, so that none of the container's executors keeps the JVM alive. */
	private static ThreadFactory daemon(String name) {
		return task -> {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	public String id() {
		return this.attributes.id();
	}

	/** Registers the container and starts watching its allocations. */
	public void start() throws Exception {
		String allocationsPath = ClusterPaths.allocations(id());
		clearRuntimeNodes();
		this.runner.fence(this.lease::valid);
		register();
		if (this.client.checkExists().forPath(allocationsPath) == null) {
			this.client.create().creatingParentContainersIfNeeded().forPath(allocationsPath);
		}
		this.client.getConnectionStateListenable().addListener((curator, state) -> {
			if (state == ConnectionState.LOST) {
				// refuse every allocation from now on, even one whose deployment is queued or under way
				this.registration = 0;
				this.lease.end();
				this.fenced = false;
				this.missed = false;
				this.stopping = this.stopper.submit(this::stopAfterSessionLoss);
			}
			else if (state == ConnectionState.RECONNECTED) {
				this.worker.execute(this::reregister);
			}
		});
		this.allocations = CuratorCache.build(this.client, allocationsPath);
		this.allocations.listenable()
			.addListener(CuratorCacheListener.builder()
				.forCreates(node -> onAllocated(allocationsPath, node))
				// a node dropped and written again for a new registration may be seen as changed after a reconnection
				.forChanges((before, after) -> onAllocated(allocationsPath, after))
				.forDeletes(node -> onRemoved(allocationsPath, node))
				.forInitialized(this::onInitialized)
				.build());
		this.allocations.start();
		this.rates.scheduleWithFixedDelay(this::reportRates, this.rateInterval.toMillis(),
				this.rateInterval.toMillis(), TimeUnit.MILLISECONDS);
		long renewal = Math.max(50, (long) (sessionTimeoutMillis() * this.lease.fraction() / 4));
		this.leaseKeeper.scheduleWithFixedDelay(this::renewLease, renewal, renewal, TimeUnit.MILLISECONDS);
		this.leaseKeeper.scheduleWithFixedDelay(this::checkLease, LEASE_CHECK.toMillis(), LEASE_CHECK.toMillis(),
				TimeUnit.MILLISECONDS);
		logger.info("Container {} started with attributes {}", id(), this.attributes.asMap());
	}

	/** The modules running here, by module id. */
	public synchronized Map<String, ModuleDeployment> deployedModules() {
		Map<String, ModuleDeployment> deployed = new LinkedHashMap<>();
		this.modules.forEach((id, module) -> deployed.put(id, module.deployment()));
		return deployed;
	}

	/** The running module with this id, or {@code null}. */
	public synchronized RunningModule module(String moduleId) {
		return this.modules.get(moduleId);
	}

	private void onAllocated(String root, ChildData node) {
		if (!isChild(root, node)) {
			return;
		}
		Allocation allocation = Allocation.of(node.getData());
		synchronized (this.initial) {
			if (!this.initialized) {
				this.initial.add(allocation);
				return;
			}
		}
		this.worker.execute(() -> deploy(allocation));
	}

	private void onInitialized() {
		List<Allocation> existing;
		synchronized (this.initial) {
			this.initialized = true;
			existing = new ArrayList<>(this.initial);
			this.initial.clear();
		}
		sortForDeployment(existing);
		existing.forEach(allocation -> this.worker.execute(() -> deploy(allocation)));
	}

	/** Each stream's modules last first, so that every consumer is bound before its producer starts. */
	private static void sortForDeployment(List<Allocation> allocations) {
		allocations.sort(Comparator.comparing((Allocation allocation) -> allocation.module().stream())
			.thenComparing(Comparator.comparingInt((Allocation allocation) -> allocation.module().index()).reversed()));
	}

	/** The lease is renewed after it ran out: what is allocated to this registration is deployed again. */
	private void takeUpAllocations() {
		String root = ClusterPaths.allocations(id());
		List<Allocation> allocated = new ArrayList<>();
		this.allocations.stream()
			.filter(node -> isChild(root, node) && node.getData() != null && node.getData().length > 0)
			.forEach(node -> allocated.add(Allocation.of(node.getData())));
		sortForDeployment(allocated);
		allocated.forEach(this::deploy);
	}

	private void onRemoved(String root, ChildData node) {
		if (!isChild(root, node)) {
			return;
		}
		String moduleId = ZKPaths.getNodeFromPath(node.getPath());
		this.worker.execute(() -> undeploy(moduleId));
	}

	private void deploy(Allocation allocation) {
		ModuleDeployment deployment = allocation.module();
		String moduleId = deployment.moduleId();
		long current = this.registration;
		if (allocation.containerSession() != current) {
			// written for an earlier registration (or this one is lost): the leader may have moved the module away
			logger.info("Not deploying module {}: it is allocated to registration {} of container {}, which is "
					+ "registered as {}; the leader allocates it again", moduleId,
					Allocation.sessionText(allocation.containerSession()), id(),
					(current == 0) ? "nothing (session lost)" : Allocation.sessionText(current));
			return;
		}
		if (!this.lease.validOn(current)) {
			this.missed = true;
			logger.info("Not deploying module {} now: container {} has not heard from ZooKeeper within its lease; it "
					+ "deploys it if ZooKeeper answers again in the same session", moduleId, id());
			return;
		}
		synchronized (this) {
			if (this.modules.containsKey(moduleId)) {
				return;
			}
		}
		awaitStopped(moduleId);
		ModuleStatus status;
		try {
			RunningModule running = this.runner.deploy(deployment,
					cause -> this.worker.execute(() -> failed(moduleId, cause)));
			boolean registered;
			synchronized (this) {
				// the session may have been lost while the module started: then the stop did not see it
				registered = this.registration == allocation.containerSession() && !this.fenced;
				if (registered) {
					this.modules.put(moduleId, running);
				}
			}
			if (!registered) {
				logger.info("Container {} lost its ZooKeeper session or its lease on it while deploying module {}: "
						+ "stopping it", id(), moduleId);
				this.missed = true;
				running.undeploy();
				return;
			}
			status = ModuleStatus.deployed();
		}
		catch (Throwable ex) {
			// an Error too (an OutOfMemoryError while starting): the module failed, the container goes on
			logger.error("Could not deploy module {}", moduleId, ex);
			status = ModuleStatus.failed(reason(ex));
		}
		synchronized (this) {
			this.statuses.put(moduleId, status);
		}
		writeStatus(moduleId, status);
	}

	/**
	 * A deployed module reported that it can no longer work (a thread of its died): it is stopped and unbound, so
	 * that it holds nothing, and its status says {@code failed} with the reason until the admin moves or withdraws it.
	 */
	private void failed(String moduleId, Throwable cause) {
		RunningModule running;
		ModuleStatus status = ModuleStatus.failed(reason(cause));
		synchronized (this) {
			ModuleStatus current = this.statuses.get(moduleId);
			running = this.modules.remove(moduleId);
			if (running == null || current == null || !current.isDeployed()) {
				return; // undeployed meanwhile, or already failed
			}
			this.statuses.put(moduleId, status);
		}
		logger.error("Module {} failed; it is stopped and unbound", moduleId, cause);
		try {
			running.undeploy();
		}
		catch (Throwable ex) {
			logger.warn("Module {} did not stop cleanly after failing", moduleId, ex);
		}
		writeStatus(moduleId, status);
	}

	/** The longest failure reason a status carries; the container's log has the whole exception. */
	static final int MAX_REASON_LENGTH = 300;

	/**
	 * The reason a status shows every user who may view streams: the first line of the message, at most
	 * {@value #MAX_REASON_LENGTH} characters. Messages of drivers and libraries can quote what they read (a file's
	 * lines, a server's answer) on later lines or at length; the container's log keeps them whole for the operator.
	 */
	static String reason(Throwable cause) {
		String message = cause.getMessage();
		String text = (cause instanceof Error || message == null || message.isBlank())
				? cause.getClass().getSimpleName() + ((message == null || message.isBlank()) ? "" : ": " + message)
				: message;
		int newline = text.indexOf('\n');
		boolean cut = newline >= 0 || text.length() > MAX_REASON_LENGTH;
		String first = (newline >= 0) ? text.substring(0, newline).stripTrailing() : text;
		if (first.length() > MAX_REASON_LENGTH) {
			first = first.substring(0, MAX_REASON_LENGTH);
		}
		return cut ? first + " ... (the rest is in the container's log)" : first;
	}

	private void undeploy(String moduleId) {
		RunningModule running;
		synchronized (this) {
			running = this.modules.remove(moduleId);
			this.statuses.remove(moduleId);
		}
		if (running != null) {
			running.undeploy();
		}
		try {
			this.client.delete().quietly().forPath(ClusterPaths.runtime(id(), moduleId));
		}
		catch (Exception ex) {
			logger.warn("Could not remove the status of module {}", moduleId, ex);
		}
	}

	private void writeStatus(String moduleId, ModuleStatus status) {
		String path = ClusterPaths.runtime(id(), moduleId);
		try {
			this.client.delete().quietly().forPath(path);
			this.client.create()
				.creatingParentContainersIfNeeded()
				.withMode(CreateMode.EPHEMERAL)
				.forPath(path, ClusterJson.write(status));
		}
		catch (Exception ex) {
			logger.error("Could not report the status of module {}", moduleId, ex);
		}
	}

	/** The status with the module's latest rates, failure counts and last failure. */
	private static ModuleStatus measured(ModuleStatus status, ModuleMeters meters) {
		ModuleMeters.Rates rates = meters.rates();
		ModuleMeters.Failure last = meters.lastError();
		return status.withMeasurement(rates.messages(), rates.errors(), meters.errors(), meters.deadLetters(),
				(last == null) ? null : new ModuleStatus.LastError(last.time(), reason(last.cause())));
	}

	/** Measures each deployed module's message and error rates and updates its status node with them. */
	private void reportRates() {
		Map<String, RunningModule> running;
		synchronized (this) {
			running = new LinkedHashMap<>(this.modules);
		}
		running.forEach((moduleId, module) -> {
			ModuleStatus updated;
			synchronized (this) {
				ModuleStatus status = this.statuses.get(moduleId);
				if (status == null || !status.isDeployed()) {
					return;
				}
				updated = measured(status, module.meters());
				this.statuses.put(moduleId, updated);
			}
			try {
				this.client.setData().forPath(ClusterPaths.runtime(id(), moduleId), ClusterJson.write(updated));
			}
			catch (KeeperException.NoNodeException ex) {
				// undeployed meanwhile
			}
			catch (Exception ex) {
				logger.debug("Could not report the message rate of module {}", moduleId, ex);
			}
		});
	}

	private void register() throws Exception {
		String path = ClusterPaths.container(id());
		long sentAt = System.nanoTime();
		// a node left by this container's previous process lives until that session expires: replace it
		this.client.delete().quietly().forPath(path);
		this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL)
			.forPath(path, ClusterJson.write(this.attributes));
		Stat stat = this.client.checkExists().forPath(path);
		if (stat != null) {
			this.lease.renewed(stat.getEphemeralOwner(), sentAt, sessionTimeoutMillis());
		}
		this.registration = (stat == null) ? 0 : stat.getEphemeralOwner();
	}

	/** The session timeout ZooKeeper granted; the one asked for while there is no session. */
	private long sessionTimeoutMillis() {
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			int timeout = zooKeeper.getSessionTimeout();
			return (timeout > 0) ? timeout : this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		}
		catch (Exception ex) {
			return this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		}
	}

	/**
	 * Reads the registration node without waiting: when ZooKeeper answers in the registration's session, the lease
	 * lasts from the moment the read was sent.
	 */
	private void renewLease() {
		long session = this.registration;
		if (session == 0) {
			return;
		}
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			if (zooKeeper.getSessionId() != session || !zooKeeper.getState().isConnected()) {
				return;
			}
			long sentAt = System.nanoTime();
			String path = ZKPaths.fixForNamespace(this.client.getNamespace(), ClusterPaths.container(id()));
			zooKeeper.exists(path, false, (code, node, context, stat) -> {
				if (code == KeeperException.Code.OK.intValue() && stat != null && stat.getEphemeralOwner() == session) {
					this.lease.renewed(session, sentAt, zooKeeper.getSessionTimeout());
				}
			}, null);
		}
		catch (Exception ex) {
			logger.debug("Could not renew the lease of container {}", id(), ex);
		}
	}

	/**
	 * Stops the modules when the lease ran out, and deploys again what is allocated when it is renewed in the same
	 * session. After the session is lost, {@link #stopAfterSessionLoss()} and the new registration do the rest.
	 */
	private void checkLease() {
		if (this.registration == 0) {
			return;
		}
		if (this.lease.valid()) {
			if (this.fenced || this.missed) {
				this.fenced = false;
				this.missed = false;
				logger.info("Container {} hears from ZooKeeper again in the same session: it deploys what is "
						+ "allocated to it", id());
				this.worker.execute(this::takeUpAllocations);
			}
			return;
		}
		if (!this.fenced) {
			this.fenced = true;
			long timeout = sessionTimeoutMillis();
			logger.error("Container {} has not heard from ZooKeeper for {} ms ({} of its {} ms session timeout, "
					+ "xd.container.leaseFraction): stopping its modules before its session may expire and the admin "
					+ "deploys them elsewhere", id(), this.lease.millisSinceRenewed(timeout), this.lease.fraction(),
					timeout);
			this.stopper.execute(this::stopOnLeaseExpiry);
		}
	}

	/**
	 * The lease ran out: every module is stopped, their inputs already handing nothing over (the bus's fence); the
	 * stops are waited for until the session may expire at most, and go on in the background after that.
	 */
	private void stopOnLeaseExpiry() {
		Map<String, RunningModule> running;
		synchronized (this) {
			running = new LinkedHashMap<>(this.modules);
			this.modules.clear();
			this.statuses.clear();
		}
		if (running.isEmpty()) {
			return;
		}
		long started = System.nanoTime();
		CompletableFuture<Void> all = stopEach(running);
		try {
			all.get(Math.max(1, this.lease.nanosUntilSessionMayExpire()), TimeUnit.NANOSECONDS);
			logger.info("Container {} stopped its {} modules in {} ms after its lease ran out", id(), running.size(),
					(System.nanoTime() - started) / 1_000_000);
		}
		catch (TimeoutException ex) {
			logger.warn("Container {} is still stopping modules {} {} ms after its lease ran out; their inputs hand "
					+ "nothing over", id(), this.stoppingModules.keySet(), (System.nanoTime() - started) / 1_000_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			logger.warn("Container {} could not stop every module", id(), ex.getCause());
		}
	}

	/** Stops each module on a thread of its own; the future completes when all have stopped. */
	private CompletableFuture<Void> stopEach(Map<String, RunningModule> running) {
		List<CompletableFuture<Void>> stops = new ArrayList<>();
		running.forEach((moduleId, module) -> {
			CompletableFuture<Void> stop = CompletableFuture.runAsync(() -> {
				try {
					module.undeploy();
				}
				catch (Throwable ex) {
					logger.warn("Module {} did not stop cleanly", moduleId, ex);
				}
			}, this.moduleStops);
			this.stoppingModules.put(moduleId, stop);
			stop.whenComplete((done, failure) -> this.stoppingModules.remove(moduleId, stop));
			stops.add(stop);
		});
		return CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new));
	}

	/** Waits until an earlier instance of the module, stopping after the lease ran out, has stopped. */
	private void awaitStopped(String moduleId) {
		CompletableFuture<Void> stop = this.stoppingModules.get(moduleId);
		if (stop != null) {
			stop.join();
		}
	}

	/**
	 * The ZooKeeper session is gone: the admin sees this container as departed and deploys its modules elsewhere, so
	 * they must not keep running here beside their replacements. They are stopped (without touching ZooKeeper, which
	 * cannot be reached). What they were allocated is not taken up again: the container registers anew (only once
	 * they are stopped) and runs what the leader allocates to that registration.
	 */
	private void stopAfterSessionLoss() {
		Map<String, RunningModule> running;
		synchronized (this) {
			running = new LinkedHashMap<>(this.modules);
			this.modules.clear();
			this.statuses.clear();
		}
		logger.error("Container {} lost its ZooKeeper session: stopping its {} modules, which the admin deploys "
				+ "elsewhere", id(), running.size());
		stopEach(running);
		// never registered again while a module of the lost registration may still run, stopped here or earlier
		this.stoppingModules.values().forEach(CompletableFuture::join);
	}

	private void reregister() {
		try {
			// never registered again while a module of the lost registration may still run
			this.stopping.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		catch (ExecutionException ex) {
			logger.warn("Container {} could not stop every module after losing its session", id(), ex.getCause());
		}
		try {
			if (!registeredInThisSession() || this.registration == 0) {
				// missing, or left by the session that expired: a ZooKeeper server restarted after a long outage
				// restores that session for its timeout, then deletes its nodes, so this one must be recreated now
				register();
				Map<String, ModuleStatus> current;
				synchronized (this) {
					current = new LinkedHashMap<>(this.statuses);
				}
				current.forEach(this::writeStatus);
				logger.info("Container {} registered again after losing its ZooKeeper session, as {}; it runs what "
						+ "the leader allocates to this registration", id(), Allocation.sessionText(this.registration));
			}
		}
		catch (Exception ex) {
			logger.error("Container {} could not register again", id(), ex);
		}
	}

	private boolean registeredInThisSession() throws Exception {
		Stat stat = this.client.checkExists().forPath(ClusterPaths.container(id()));
		return stat != null
				&& stat.getEphemeralOwner() == this.client.getZookeeperClient().getZooKeeper().getSessionId();
	}

	private void clearRuntimeNodes() throws Exception {
		try {
			this.client.delete().deletingChildrenIfNeeded().forPath(ClusterPaths.runtime(id()));
		}
		catch (KeeperException.NoNodeException ex) {
			// nothing left from an earlier run
		}
	}

	private static boolean isChild(String root, ChildData node) {
		return root.equals(ZKPaths.getPathAndNode(node.getPath()).getPath());
	}

	/** Stops every module (first module of each stream first) and leaves the cluster. */
	@Override
	public void close() {
		if (this.allocations != null) {
			this.allocations.close();
		}
		this.rates.shutdownNow();
		this.leaseKeeper.shutdownNow();
		this.stopper.shutdown();
		this.worker.shutdown();
		try {
			this.worker.awaitTermination(30, TimeUnit.SECONDS);
			this.stopper.awaitTermination(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		List<RunningModule> running;
		synchronized (this) {
			running = new ArrayList<>(this.modules.values());
			this.modules.clear();
		}
		running.sort(Comparator.comparing((RunningModule module) -> module.deployment().stream())
			.thenComparingInt(module -> module.deployment().index()));
		running.forEach(RunningModule::undeploy);
		this.stoppingModules.values().forEach(CompletableFuture::join);
		this.moduleStops.shutdown();
		try {
			this.client.delete().quietly().forPath(ClusterPaths.container(id()));
			this.client.delete().quietly().deletingChildrenIfNeeded().forPath(ClusterPaths.runtime(id()));
		}
		catch (Exception ex) {
			logger.debug("Could not remove the container's nodes; they vanish with its session", ex);
		}
		logger.info("Container {} stopped", id());
	}
}
