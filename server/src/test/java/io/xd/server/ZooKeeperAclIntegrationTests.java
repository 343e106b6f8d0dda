package io.xd.server;

import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * XD's znodes carry digest ACLs on a real ZooKeeper: singlenode's embedded server with credentials it generates, and
 * an ensemble with configured {@code zk.auth.*}. A client without them can neither read, list, create nor delete
 * under XD's namespace; a process with other credentials does not start.
 */
class ZooKeeperAclIntegrationTests {

	@TempDir
	Path data;

	@Test
	void singlenodeProtectsItsZnodesWithGeneratedCredentialsThatOutliveARestart() throws Exception {
		int port = freePort();
		Path directory = this.data.resolve("node");
		String connect = "127.0.0.1:" + port;
		try (SingleNode node = new SingleNode(directory, "--zk.embedded.server-port=" + port)) {
			assertThat(node.createStream("guarded", "time | log", false).status()).isEqualTo(201);
			Path file = directory.resolve(ClusterConnection.EMBEDDED_CREDENTIALS_FILE);
			assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
			Properties generated = new Properties();
			try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
				generated.load(reader);
			}
			String identity = generated.getProperty("username") + ":" + generated.getProperty("password");

			try (CuratorFramework anonymous = client(connect, null);
					CuratorFramework guessing = client(connect, "xd:guess")) {
				for (CuratorFramework intruder : List.of(anonymous, guessing)) {
					assertNoAuth(() -> intruder.getData().forPath("/xd/streams"));
					assertNoAuth(() -> intruder.getData().forPath("/xd/streams/guarded"));
					assertNoAuth(() -> intruder.getChildren().forPath("/xd/streams"));
					assertNoAuth(() -> intruder.create().forPath("/xd/streams/intruder", new byte[0]));
					assertNoAuth(() -> intruder.delete().forPath("/xd/streams/guarded"));
					assertNoAuth(() -> intruder.setData().forPath("/xd/streams/guarded", new byte[0]));
					// ZooKeeper 3.9 asks for READ on exists() too: whether a stream is there is not told
					assertNoAuth(() -> intruder.checkExists().forPath("/xd/streams/guarded"));
				}
			}
			List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL,
					new Id("digest", DigestAuthenticationProvider.generateDigest(identity))));
			try (CuratorFramework owner = client(connect, identity)) {
				assertThat(owner.getACL().forPath("/xd")).as("the namespace node").isEqualTo(expected);
				assertThat(owner.getACL().forPath("/xd/streams")).as("a parent made on the way").isEqualTo(expected);
				assertThat(owner.getACL().forPath("/xd/streams/guarded")).isEqualTo(expected);
				assertThat(new String(owner.getData().forPath("/xd/streams/guarded"), StandardCharsets.UTF_8))
					.contains("time | log");
			}

			assertThatThrownBy(() -> new SingleNode(this.data.resolve("other"), "--zk.client.connect=" + connect,
					"--zk.auth.username=xd", "--zk.auth.password=not-" + generated.getProperty("password"),
					"--zk.connection-timeout=10s"))
				.hasStackTraceContaining("ZooKeeper at " + connect + " refused user 'xd' access to XD's znodes under /xd")
				.hasStackTraceContaining("give every admin and container the same zk.auth.username and "
						+ "zk.auth.password")
				.satisfies(failure -> assertThat(stackTrace(failure))
					.doesNotContain(generated.getProperty("password")));
		}
		try (SingleNode again = new SingleNode(directory, "--zk.embedded.server-port=" + port)) {
			assertThat(again.get("/streams/definitions/guarded").status()).isEqualTo(200);
		}
	}

	@Test
	void configuredCredentialsSecureOpenZnodesOfAnEarlierStartAndOthersAreRefused() throws Exception {
		Logger logger = (Logger) LoggerFactory.getLogger(ClusterConnection.class);
		ListAppender<ILoggingEvent> logged = new ListAppender<>();
		logged.start();
		logger.addAppender(logged);
		try (EmbeddedZooKeeper server = new EmbeddedZooKeeper(this.data.resolve("zookeeper"), 0)) {
			String connect = server.connectString();
			ZooKeeperProperties properties = new ZooKeeperProperties();
			properties.getClient().setConnect(connect);
			properties.setConnectionTimeout(Duration.ofSeconds(10));
			// an XD without credentials writes open znodes, and says so once
			try (ClusterConnection open = new ClusterConnection(properties, this.data)) {
				open.client().create().creatingParentContainersIfNeeded().forPath("/streams/old", new byte[] { 1 });
			}
			assertThat(logged.list).filteredOn(event -> event.getLevel() == Level.WARN)
				.singleElement()
				.extracting(ILoggingEvent::getFormattedMessage)
				.asString()
				.contains("readable and writable by anyone", "zk.auth.username and zk.auth.password");

			properties.getAuth().setUsername("ops");
			properties.getAuth().setPassword("pa\"ss:word");
			try (ClusterConnection secured = new ClusterConnection(properties, this.data)) {
				secured.client().create().creatingParentContainersIfNeeded().forPath("/deployments/a/b");
				assertThat(secured.client().getData().forPath("/streams/old")).containsExactly(1);
			}
			try (CuratorFramework anonymous = client(connect, null)) {
				for (String path : List.of("/xd", "/xd/streams", "/xd/streams/old", "/xd/deployments",
						"/xd/deployments/a", "/xd/deployments/a/b")) {
					assertNoAuth(() -> anonymous.getData().forPath(path));
				}
			}

			properties.getAuth().setPassword("wrong-password");
			assertThatIllegalStateException().isThrownBy(() -> new ClusterConnection(properties, this.data))
				.withMessageContaining("refused user 'ops' access to XD's znodes under /xd")
				.withMessageNotContaining("wrong-password");
			properties.getAuth().setUsername("");
			properties.getAuth().setPassword("");
			assertThatIllegalStateException().isThrownBy(() -> new ClusterConnection(properties, this.data))
				.withMessageContaining("refused an unauthenticated client access to XD's znodes under /xd")
				.withMessageContaining("set zk.auth.username and zk.auth.password");
		}
		finally {
			logger.detachAppender(logged);
		}
		assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
			.noneMatch(message -> message.contains("pa\"ss:word") || message.contains("wrong-password"));
	}

	private static void assertNoAuth(ThrowingCallable call) {
		assertThatExceptionOfType(KeeperException.NoAuthException.class).isThrownBy(call);
	}

	/** A plain Curator client on the whole tree (no namespace), authenticated when {@code identity} is given. */
	private static CuratorFramework client(String connect, String identity) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connect)
			.retryPolicy(new RetryOneTime(100));
		if (identity != null) {
			builder.authorization("digest", identity.getBytes(StandardCharsets.UTF_8));
		}
		CuratorFramework client = builder.build();
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private static String stackTrace(Throwable failure) {
		StringWriter text = new StringWriter();
		failure.printStackTrace(new PrintWriter(text));
		return text.toString();
	}

	private static int freePort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}
}
