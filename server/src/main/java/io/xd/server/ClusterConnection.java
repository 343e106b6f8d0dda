package io.xd.server;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The ZooKeeper connection of an XD process: a Curator client on {@code zk.client.connect}, or, when that is
 * empty, on an embedded server started here (singlenode). Closing it closes the client, then the server.
 */
public final class ClusterConnection implements AutoCloseable {

	private final EmbeddedZooKeeper embedded;

	private final CuratorFramework client;

	public ClusterConnection(ZooKeeperProperties properties, Path dataDirectory) throws Exception {
		String connect = properties.getClient().getConnect();
		if (connect == null || connect.isBlank()) {
			this.embedded = new EmbeddedZooKeeper(dataDirectory.resolve("zookeeper"),
					properties.getEmbedded().getServerPort());
			connect = this.embedded.connectString();
		}
		else {
			this.embedded = null;
		}
		this.client = CuratorFrameworkFactory.builder()
			.connectString(connect)
			.namespace(properties.getNamespace())
			.sessionTimeoutMs((int) properties.getSessionTimeout().toMillis())
			.connectionTimeoutMs((int) properties.getConnectionTimeout().toMillis())
			.retryPolicy(new ExponentialBackoffRetry(1000, 3))
			.build();
		this.client.start();
		if (!this.client.blockUntilConnected((int) properties.getConnectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
			this.client.close();
			if (this.embedded != null) {
				this.embedded.close();
			}
			throw new IllegalStateException("Could not connect to ZooKeeper at " + connect + " within "
					+ properties.getConnectionTimeout());
		}
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
}
