package io.xd.container;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.bus.local.LocalMessageBus;
import io.xd.core.cluster.Allocation;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Containers in this JVM on a real ZooKeeper server, with the test writing allocations as the leader admin would: a
 * container whose ZooKeeper session expires (as after a pause or a cut beyond the session timeout) and that registers
 * again under a new session never starts again a module allocated to its earlier registration, which the leader may
 * have moved to another container meanwhile; it runs what is allocated to its new registration. And a container cut
 * off from ZooKeeper (a proxy holding its packets) stops its modules when its lease on the session runs out, before
 * ZooKeeper may expire the session and the leader move them, and deploys them again when ZooKeeper answers again in
 * the same session.
 */
class ContainerSessionIntegrationTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(2);

	private static final ModuleDeployment LOG = new ModuleDeployment("twice", "log", "log", "sink", 1, 1, Map.of(),
			ModuleDeploymentProperties.DEFAULTS, "twice.0", null, null);

	@TempDir
	Path data;

	private ZooKeeperServerEmbedded server;

	private String connect;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@BeforeEach
	void startZooKeeper() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		Properties configuration = new Properties();
		configuration.setProperty("clientPort", Integer.toString(port));
		configuration.setProperty("clientPortAddress", "127.0.0.1");
		configuration.setProperty("tickTime", "200");
		configuration.setProperty("minSessionTimeout", "1000");
		configuration.setProperty("maxSessionTimeout", "10000");
		configuration.setProperty("admin.enableServer", "false");
		Path directory = Files.createDirectories(this.data.resolve("zookeeper"));
		this.server = ZooKeeperServerEmbedded.builder()
			.baseDir(directory)
			.configuration(configuration)
			.exitHandler(ExitHandler.LOG_ONLY)
			.build();
		this.server.start(30_000);
		this.connect = "127.0.0.1:" + port;
	}

	@AfterEach
	void stop() throws Exception {
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
		this.server.close();
	}

	@Test
	void aContainerRegisteredAgainAfterLosingItsSessionDoesNotTakeUpWhatWasAllocatedToItsEarlierRegistration()
			throws Exception {
		CuratorFramework leader = client();
		ContainerServer c1 = container("c1", client());
		CuratorFramework c2Client = client();
		ContainerServer c2 = container("c2", c2Client);
		String moduleId = LOG.moduleId();

		allocate(leader, "c2", LOG);
		await().atMost(Duration.ofSeconds(10)).until(() -> c2.deployedModules().containsKey(moduleId));
		long earlier = session(leader, "c2");

		// ZooKeeper ends c2's session, as it does when c2 was paused or cut off beyond the session timeout: its
		// registration vanishes; c2 stops the module when it learns, and registers again under a new session
		expire(c2Client);
		await().atMost(Duration.ofSeconds(15)).until(() -> {
			long now = session(leader, "c2");
			return now != 0 && now != earlier;
		});

		// meanwhile the leader moves the module to c1; its allocation under c2 is still there (the leader drops it
		// in the same reconciliation, after reading it; an admin that lost its leadership may still write)
		allocate(leader, "c1", LOG);
		await().atMost(Duration.ofSeconds(10)).until(() -> c1.deployedModules().containsKey(moduleId));
		long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
		while (System.nanoTime() < until) {
			assertThat(c2.deployedModules()).as("the module runs on c1; c2 must not run it as well")
				.doesNotContainKey(moduleId);
			Thread.sleep(50);
		}

		// the leader drops the allocation of the earlier registration and allocates to the new one: c2 runs that
		leader.delete().forPath(ClusterPaths.allocation("c2", moduleId));
		ModuleDeployment second = LOG.withSequence(2);
		allocate(leader, "c2", second);
		await().atMost(Duration.ofSeconds(10)).until(() -> c2.deployedModules().containsKey(second.moduleId()));
		assertThat(c2.deployedModules()).doesNotContainKey(moduleId);
		assertThat(c1.deployedModules()).containsKey(moduleId);
	}

	@Test
	void aContainerCutOffFromZooKeeperStopsItsModulesBeforeItsSessionCanExpireAndTheLeaderMovesThem()
			throws Exception {
		Duration sessionTimeout = Duration.ofSeconds(4);
		CuratorFramework leader = client();
		ContainerServer c1 = container("c1", client());
		HoldingProxy proxy = new HoldingProxy(port());
		this.closeables.add(proxy);
		ContainerServer c2 = container("c2", client("127.0.0.1:" + proxy.port(), sessionTimeout),
				ContainerServer.DEFAULT_LEASE_FRACTION);
		String moduleId = LOG.moduleId();
		allocate(leader, "c2", LOG);
		await().atMost(Duration.ofSeconds(10)).until(() -> c2.deployedModules().containsKey(moduleId));

		// every 5 ms: does c1 or c2 hold the module, both at once?
		AtomicInteger both = new AtomicInteger();
		AtomicLong c2Stopped = new AtomicLong();
		AtomicBoolean watching = new AtomicBoolean(true);
		Thread watcher = new Thread(() -> {
			while (watching.get()) {
				boolean onC2 = c2.deployedModules().containsKey(moduleId);
				if (onC2 && c1.deployedModules().containsKey(moduleId)) {
					both.incrementAndGet();
				}
				if (!onC2 && c2Stopped.get() == 0) {
					c2Stopped.set(System.nanoTime());
				}
				try {
					Thread.sleep(5);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		watcher.start();

		long cut = System.nanoTime();
		proxy.hold();
		long earlier = session(leader, "c2");
		// the leader sees c2 leave when ZooKeeper expires its session, and moves the module at once (no grace period)
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
			.until(() -> session(leader, "c2") != earlier);
		long expired = System.nanoTime();
		allocate(leader, "c1", LOG);
		await().atMost(Duration.ofSeconds(10)).until(() -> c1.deployedModules().containsKey(moduleId));
		Thread.sleep(500);
		watching.set(false);
		watcher.join();

		long stoppedAfter = (c2Stopped.get() - cut) / 1_000_000;
		long expiredAfter = (expired - cut) / 1_000_000;
		System.out.printf("Cut off from ZooKeeper: c2 stopped the module %d ms after the cut; its session expired "
				+ "%d ms after it (session timeout %d ms)%n", stoppedAfter, expiredAfter, sessionTimeout.toMillis());
		assertThat(c2Stopped.get()).as("c2 stopped the module").isNotZero();
		assertThat(stoppedAfter).as("c2 stopped the module before its session expired")
			.isLessThan(expiredAfter)
			.isLessThanOrEqualTo((long) (sessionTimeout.toMillis() * ContainerServer.DEFAULT_LEASE_FRACTION) + 500);
		assertThat(both.get()).as("samples with the module on c1 and c2 at once").isZero();
		proxy.release();
	}

	@Test
	void aContainerThatHearsFromZooKeeperAgainInTheSameSessionDeploysItsModulesAgain() throws Exception {
		Duration sessionTimeout = Duration.ofSeconds(6);
		CuratorFramework leader = client();
		HoldingProxy proxy = new HoldingProxy(port());
		this.closeables.add(proxy);
		// a lease of 2.4 s: held for 3 s, c2 stops its module, but its client does not give up the connection (4 s)
		ContainerServer c2 = container("c2", client("127.0.0.1:" + proxy.port(), sessionTimeout), 0.4);
		String moduleId = LOG.moduleId();
		allocate(leader, "c2", LOG);
		await().atMost(Duration.ofSeconds(10)).until(() -> c2.deployedModules().containsKey(moduleId));
		long registration = session(leader, "c2");

		long cut = System.nanoTime();
		proxy.hold();
		await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(5))
			.until(() -> c2.deployedModules().isEmpty());
		long stoppedAfter = (System.nanoTime() - cut) / 1_000_000;
		Thread.sleep(Math.max(0, 3000 - stoppedAfter));
		proxy.release();
		await().atMost(Duration.ofSeconds(10)).until(() -> c2.deployedModules().containsKey(moduleId));
		System.out.printf("Held for 3 s: c2 stopped the module %d ms after the cut and runs it again %d ms after "
				+ "it%n", stoppedAfter, (System.nanoTime() - cut) / 1_000_000);
		assertThat(stoppedAfter).isLessThanOrEqualTo(2400 + 500);
		assertThat(session(leader, "c2")).as("the same registration").isEqualTo(registration);
	}

	/** What the leader does: allocates a module to the container's registration as it reads it now. */
	private static void allocate(CuratorFramework leader, String containerId, ModuleDeployment module)
			throws Exception {
		leader.create()
			.creatingParentContainersIfNeeded()
			.forPath(ClusterPaths.allocation(containerId, module.moduleId()),
					new Allocation(module, session(leader, containerId)).toBytes());
	}

	/** The session that owns the container's registration node; 0 when it is not registered. */
	private static long session(CuratorFramework client, String containerId) throws Exception {
		Stat stat = client.checkExists().forPath(ClusterPaths.container(containerId));
		return (stat == null) ? 0 : stat.getEphemeralOwner();
	}

	/** Closes the client's session from another connection: ZooKeeper expires it as if its timeout had passed. */
	private void expire(CuratorFramework client) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper same = new ZooKeeper(this.connect, (int) SESSION_TIMEOUT.toMillis(), event -> {
			if (event.getState() == KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, zooKeeper.getSessionId(), zooKeeper.getSessionPasswd());
		assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();
		same.close();
	}

	private int port() {
		return Integer.parseInt(this.connect.substring(this.connect.lastIndexOf(':') + 1));
	}

	private CuratorFramework client() throws InterruptedException {
		return client(this.connect, SESSION_TIMEOUT);
	}

	private CuratorFramework client(String connect, Duration sessionTimeout) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connect)
			.namespace("xd")
			.sessionTimeoutMs((int) sessionTimeout.toMillis())
			.connectionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(200, 3))
			.build();
		client.start();
		this.closeables.add(client);
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private ContainerServer container(String id, CuratorFramework client) throws Exception {
		return container(id, client, ContainerServer.DEFAULT_LEASE_FRACTION);
	}

	private ContainerServer container(String id, CuratorFramework client, double leaseFraction) throws Exception {
		LocalMessageBus bus = new LocalMessageBus();
		this.closeables.add(bus);
		ModuleRunner runner = new ModuleRunner(ModuleRegistry.fromClassPath(), bus, new SimpleMeterRegistry(),
				this.data.resolve(id));
		ContainerServer container = new ContainerServer(client,
				new ContainerAttributes(id, "localhost", "127.0.0.1", "1", "", Map.of()), runner, Duration.ofSeconds(5),
				leaseFraction);
		container.start();
		this.closeables.add(container);
		return container;
	}
}
