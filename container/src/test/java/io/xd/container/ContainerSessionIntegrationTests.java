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
 * have moved to another container meanwhile; it runs what is allocated to its new registration.
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

	private CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.connect)
			.namespace("xd")
			.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
			.connectionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(200, 3))
			.build();
		client.start();
		this.closeables.add(client);
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private ContainerServer container(String id, CuratorFramework client) throws Exception {
		LocalMessageBus bus = new LocalMessageBus();
		this.closeables.add(bus);
		ModuleRunner runner = new ModuleRunner(ModuleRegistry.fromClassPath(), bus, new SimpleMeterRegistry(),
				this.data.resolve(id));
		ContainerServer container = new ContainerServer(client,
				new ContainerAttributes(id, "localhost", "127.0.0.1", "1", "", Map.of()), runner);
		container.start();
		this.closeables.add(container);
		return container;
	}
}
