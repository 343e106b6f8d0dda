package io.xd.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.server.security.CredentialsFile;

/**
 * The ZooKeeper connection of an XD process: a Curator client on {@code zk.client.connect}, or, when that is
 * empty, on an embedded server started here (singlenode). Closing it closes the client, then the server.
 * <p>
 * With credentials ({@code zk.auth.*}; singlenode's embedded server generates them when none are configured) the
 * client authenticates with ZooKeeper's {@code digest} scheme and every znode XD creates, the namespace node and the
 * parents made on the way included, is readable and writable by that identity only. Znodes of the namespace that are
 * still open to anyone (made before credentials were configured) are given that ACL at start-up. Without
 * credentials, on an external ensemble, znodes are open to anyone, as before, and a warning says so.
 */
public final class ClusterConnection implements AutoCloseable {

	/** Where, under {@code xd.data.dir}, singlenode keeps the credentials it generated for its embedded ZooKeeper. */
	public static final String EMBEDDED_CREDENTIALS_FILE = "zookeeper-credentials.properties";

	private static final Logger logger = LoggerFactory.getLogger(ClusterConnection.class);

	private final EmbeddedZooKeeper embedded;

	private final CuratorFramework client;

	public ClusterConnection(ZooKeeperProperties properties, Path dataDirectory) throws Exception {
		String connect = properties.getClient().getConnect();
		ZooKeeperCredentials credentials = configuredCredentials(properties);
		if (connect == null || connect.isBlank()) {
			if (credentials == null) {
				credentials = generatedCredentials(dataDirectory);
			}
			this.embedded = new EmbeddedZooKeeper(dataDirectory.resolve("zookeeper"),
					properties.getEmbedded().getServerPort());
			connect = this.embedded.connectString();
		}
		else {
			this.embedded = null;
			if (credentials == null) {
				logger.warn("XD's znodes under /{} on ZooKeeper at {} are readable and writable by anyone who reaches "
						+ "it (open ACL): set zk.auth.username and zk.auth.password (ZK_AUTH_USERNAME, "
						+ "ZK_AUTH_PASSWORD), the same on every admin and container, to protect them",
						properties.getNamespace(), connect);
			}
		}
		this.client = newClient(connect, properties, credentials);
		try {
			this.client.start();
			if (!this.client.blockUntilConnected((int) properties.getConnectionTimeout().toMillis(),
					TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Could not connect to ZooKeeper at " + connect + " within "
						+ properties.getConnectionTimeout());
			}
			requireAccess(connect, properties.getNamespace(), credentials);
		}
		catch (Exception ex) {
			close();
			throw ex;
		}
	}

	/**
	 * A Curator client of XD, not started: on {@code connect}, under the namespace {@code zk.namespace}, with the
	 * session and connection timeouts of {@code zk.*}; with {@code credentials}, authenticated by them and creating
	 * every znode with their ACL. Every ZooKeeper client of an XD process is made here.
	 */
	public static CuratorFramework newClient(String connect, ZooKeeperProperties properties,
			ZooKeeperCredentials credentials) {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connect)
			.namespace(properties.getNamespace())
			.sessionTimeoutMs((int) properties.getSessionTimeout().toMillis())
			.connectionTimeoutMs((int) properties.getConnectionTimeout().toMillis())
			.retryPolicy(new ExponentialBackoffRetry(1000, 3));
		if (credentials != null) {
			List<ACL> acl = credentials.acl();
			builder.authorization(ZooKeeperCredentials.SCHEME, credentials.authorization()).aclProvider(new ACLProvider() {

				@Override
				public List<ACL> getDefaultAcl() {
					return acl;
				}

				@Override
				public List<ACL> getAclForPath(String path) {
					return acl;
				}
			});
		}
		return builder.build();
	}

	/** The port of the embedded ZooKeeper server, when this connection runs one. */
	public OptionalInt embeddedPort() {
		if (this.embedded == null) {
			return OptionalInt.empty();
		}
		String connect = this.embedded.connectString();
		return OptionalInt.of(Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1)));
	}

	public CuratorFramework client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
		if (this.embedded != null) {
			this.embedded.close();
		}
	}

	private static ZooKeeperCredentials configuredCredentials(ZooKeeperProperties properties) {
		ZooKeeperProperties.Auth auth = properties.getAuth();
		return auth.isConfigured() ? new ZooKeeperCredentials(auth.getUsername(), auth.getPassword()) : null;
	}

	private static ZooKeeperCredentials generatedCredentials(Path dataDirectory) {
		// kept with the embedded server's data, which outlives this process: a restart must read its own znodes
		Path file = dataDirectory.resolve(EMBEDDED_CREDENTIALS_FILE);
		try {
			CredentialsFile generated = CredentialsFile.obtain(file, "xd",
					"The credentials of this data directory's embedded ZooKeeper; readable by its owner only");
			return new ZooKeeperCredentials(generated.username(), generated.password());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot keep the embedded ZooKeeper's credentials in " + file, ex);
		}
	}

	/**
	 * Reads the namespace node, which a client whose identity the ACLs do not name may not, and gives the znodes
	 * still open to anyone this client's ACL.
	 */
	private void requireAccess(String connect, String namespace, ZooKeeperCredentials credentials) throws Exception {
		// the namespace node is made here rather than left to Curator, which makes it on the first create only
		CuratorFramework root = this.client.usingNamespace(null);
		String namespacePath = ZKPaths.makePath("/", namespace);
		try {
			if (root.checkExists().forPath(namespacePath) == null) {
				try {
					root.create().creatingParentsIfNeeded().forPath(namespacePath);
				}
				catch (KeeperException.NodeExistsException ex) {
					// made by another process meanwhile
				}
			}
			root.getData().forPath(namespacePath);
			if (credentials != null) {
				int secured = secureOpenNodes("/", credentials.acl());
				if (secured > 0) {
					logger.info("Gave {} znodes under /{} that were open to anyone the ACL of user '{}'", secured,
							namespace, credentials.username());
				}
			}
		}
		catch (KeeperException.NoAuthException ex) {
			String who = (credentials == null) ? "an unauthenticated client"
					: "user '" + credentials.username() + "'";
			String fix = (credentials == null)
					? "they are protected by credentials: set zk.auth.username and zk.auth.password "
							+ "(ZK_AUTH_USERNAME, ZK_AUTH_PASSWORD) to those of the other admins and containers"
					: "they were created with other credentials: give every admin and container the same "
							+ "zk.auth.username and zk.auth.password";
			throw new IllegalStateException("ZooKeeper at " + connect + " refused " + who + " access to XD's znodes "
					+ "under /" + namespace + " (" + ex.getPath() + "): " + fix, ex);
		}
	}

	private int secureOpenNodes(String path, List<ACL> acl) throws Exception {
		int secured = 0;
		try {
			if (this.client.getACL().forPath(path).stream().anyMatch(entry -> entry.getId().equals(
					ZooDefs.Ids.ANYONE_ID_UNSAFE))) {
				this.client.setACL().withACL(acl).forPath(path);
				secured++;
			}
			for (String child : this.client.getChildren().forPath(path)) {
				secured += secureOpenNodes(ZKPaths.makePath(path, child), acl);
			}
		}
		catch (KeeperException.NoNodeException ex) {
			// deleted meanwhile, by another process
		}
		return secured;
	}
}
