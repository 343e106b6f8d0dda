package io.xd.container;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
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
 */
public final class ContainerServer implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ContainerServer.class);

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
		this.rateInterval = rateInterval;
		this.rates = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "xd-container-rates");
			thread.setDaemon(true);
			return thread;
		});
		this.client = client;
		this.attributes = attributes;
		this.runner = runner;
		this.worker = Executors.newSingleThreadExecutor(task -> {
			Thread thread = new Thread(task, "xd-container-deployer");
			thread.setDaemon(true);
			return thread;
		});
		this.stopper = Executors.newSingleThreadExecutor(task -> {
			Thread thread = new Thread(task, "xd-container-stopper");
			thread.setDaemon(true);
			return thread;
		});
	}

	public String id() {
		return this.attributes.id();
	}

	/** Registers the container and starts watching its allocations. */
	public void start() throws Exception {
		String allocationsPath = ClusterPaths.allocations(id());
		clearRuntimeNodes();
		register();
		if (this.client.checkExists().forPath(allocationsPath) == null) {
			this.client.create().creatingParentContainersIfNeeded().forPath(allocationsPath);
		}
		this.client.getConnectionStateListenable().addListener((curator, state) -> {
			if (state == ConnectionState.LOST) {
				// refuse every allocation from now on, even one whose deployment is queued or under way
				this.registration = 0;
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
		existing.sort(Comparator.comparing((Allocation allocation) -> allocation.module().stream())
			.thenComparing(Comparator.comparingInt((Allocation allocation) -> allocation.module().index()).reversed()));
		existing.forEach(allocation -> this.worker.execute(() -> deploy(allocation)));
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
		synchronized (this) {
			if (this.modules.containsKey(moduleId)) {
				return;
			}
		}
		ModuleStatus status;
		try {
			RunningModule running = this.runner.deploy(deployment,
					cause -> this.worker.execute(() -> failed(moduleId, cause)));
			boolean registered;
			synchronized (this) {
				// the session may have been lost while the module started: then the stop did not see it
				registered = this.registration == allocation.containerSession();
				if (registered) {
					this.modules.put(moduleId, running);
				}
			}
			if (!registered) {
				logger.info("Container {} lost its ZooKeeper session while deploying module {}: stopping it", id(),
						moduleId);
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
		// a node left by this container's previous process lives until that session expires: replace it
		this.client.delete().quietly().forPath(path);
		this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL)
			.forPath(path, ClusterJson.write(this.attributes));
		Stat stat = this.client.checkExists().forPath(path);
		this.registration = (stat == null) ? 0 : stat.getEphemeralOwner();
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
		running.forEach((moduleId, module) -> {
			try {
				module.undeploy();
			}
			catch (Throwable ex) {
				logger.warn("Module {} did not stop cleanly", moduleId, ex);
			}
		});
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
