package io.xd.admin.cluster;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.admin.cluster.ClusterStore.LeadershipLostException;
import io.xd.core.cluster.Allocation;
import io.xd.core.cluster.ClusterJson;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The cluster store on a real ZooKeeper server: allocations name the container registration they are for, and only
 * an admin whose leader latch node still exists writes them.
 */
class ClusterStoreIntegrationTests {

	private static final ModuleDeployment LOG = new ModuleDeployment("s", "log", "log", "sink", 1, 1, Map.of(),
			ModuleDeploymentProperties.DEFAULTS, "s.0", null, null);

	@TempDir
	Path data;

	private ZooKeeperServerEmbedded server;

	private CuratorFramework client;

	@BeforeEach
	void start() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = socket.getLocalPort();
		}
		Properties configuration = new Properties();
		configuration.setProperty("clientPort", Integer.toString(port));
		configuration.setProperty("clientPortAddress", "127.0.0.1");
		configuration.setProperty("tickTime", "200");
		configuration.setProperty("admin.enableServer", "false");
		this.server = ZooKeeperServerEmbedded.builder()
			.baseDir(this.data)
			.configuration(configuration)
			.exitHandler(ExitHandler.LOG_ONLY)
			.build();
		this.server.start(30_000);
		this.client = CuratorFrameworkFactory.builder()
			.connectString("127.0.0.1:" + port)
			.namespace("xd")
			.sessionTimeoutMs(4_000)
			.retryPolicy(new ExponentialBackoffRetry(200, 3))
			.build();
		this.client.start();
		assertThat(this.client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
	}

	@AfterEach
	void stop() {
		this.client.close();
		this.server.close();
	}

	@Test
	void aRegistrationCarriesTheSessionThatOwnsIt() throws Exception {
		ContainerAttributes attributes = new ContainerAttributes("c1", "localhost", "127.0.0.1", "1", "", Map.of());
		this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL)
			.forPath(ClusterPaths.container("c1"), ClusterJson.write(attributes));
		ClusterStore store = new ClusterStore(this.client);

		assertThat(store.registrations()).containsExactly(Map.entry("c1", new ClusterStore.Registration(attributes,
				this.client.getZookeeperClient().getZooKeeper().getSessionId())));
		assertThat(store.containers()).containsExactly(Map.entry("c1", attributes));
	}

	@Test
	void anAdminThatLostItsLeadershipAllocatesNothing() throws Exception {
		ClusterStore store = new ClusterStore(this.client);
		LeaderLatch latch = new LeaderLatch(this.client, ClusterPaths.LEADER, "a1");
		latch.start();
		assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		String leaderNode = latch.getLastPathIsLeader();

		store.allocate("c1", new Allocation(LOG, 42), leaderNode);
		store.allocate("c1", new Allocation(LOG, 42), leaderNode); // allocated already: nothing happens
		assertThat(store.stampedAllocations()).containsExactly(Map.entry("c1",
				Map.of(LOG.moduleId(), new Allocation(LOG, 42))));
		assertThat(store.allocations()).containsExactly(Map.entry("c1", Map.of(LOG.moduleId(), LOG)));

		latch.close(); // its node goes, as when the admin's session expires
		ModuleDeployment second = LOG.withSequence(2);
		assertThatExceptionOfType(LeadershipLostException.class)
			.isThrownBy(() -> store.allocate("c2", new Allocation(second, 43), leaderNode));
		assertThat(this.client.checkExists().forPath(ClusterPaths.allocation("c2", second.moduleId()))).isNull();
		assertThat(store.allocations()).doesNotContainKey("c2");
	}

	@Test
	void anAllocationWrittenBeforeRegistrationsWereNamedHasNone() throws Exception {
		this.client.create()
			.creatingParentContainersIfNeeded()
			.forPath(ClusterPaths.allocation("c1", LOG.moduleId()), ClusterJson.write(LOG));

		assertThat(new ClusterStore(this.client).stampedAllocations().get("c1"))
			.containsExactly(Map.entry(LOG.moduleId(), new Allocation(LOG, 0)));
	}
}
