package io.xd.admin.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;

import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

import io.xd.core.cluster.AdminAddress;
import io.xd.core.cluster.ClusterJson;
import io.xd.core.cluster.ClusterPaths;

/**
 * Publishes this admin's REST address in ZooKeeper ({@link ClusterPaths#admin(String)}, an ephemeral node that
 * Curator re-creates after a session loss) once the web server listens, so that containers can fetch custom module
 * jars. The address is {@code xd.admin.url} when set, else {@code http://<server.address>:<port>}, with this host's
 * address in place of a wildcard or missing {@code server.address}, and a random token, which a request for a module
 * jar must carry ({@link #accepts}).
 */
public final class AdminAddressPublisher implements ApplicationListener<WebServerInitializedEvent>, AutoCloseable {

	private final CuratorFramework client;

	private final String adminId;

	private final String configuredUrl;

	private final String serverAddress;

	private final String token;

	private PersistentNode node;

	/**
	 * @param configuredUrl {@code xd.admin.url}, or blank
	 * @param serverAddress {@code server.address}, or blank
	 */
	public AdminAddressPublisher(CuratorFramework client, String adminId, String configuredUrl, String serverAddress) {
		this.client = client;
		this.adminId = adminId;
		this.configuredUrl = configuredUrl;
		this.serverAddress = serverAddress;
		byte[] secret = new byte[32];
		new SecureRandom().nextBytes(secret);
		this.token = HexFormat.of().formatHex(secret);
	}

	/** Whether {@code token} is the one this admin published, compared in constant time. */
	public boolean accepts(String token) {
		return token != null && MessageDigest.isEqual(this.token.getBytes(StandardCharsets.US_ASCII),
				token.getBytes(StandardCharsets.US_ASCII));
	}

	@Override
	public synchronized void onApplicationEvent(WebServerInitializedEvent event) {
		if (this.node != null || event.getApplicationContext().getParent() != null) {
			return;
		}
		String url = !this.configuredUrl.isBlank() ? this.configuredUrl
				: "http://" + host() + ":" + event.getWebServer().getPort();
		this.node = new PersistentNode(this.client, CreateMode.EPHEMERAL, false, ClusterPaths.admin(this.adminId),
				ClusterJson.write(new AdminAddress(url, this.token)));
		this.node.start();
	}

	private String host() {
		boolean wildcard = this.serverAddress.isBlank() || this.serverAddress.equals("0.0.0.0")
				|| this.serverAddress.equals("::");
		if (!wildcard) {
			return this.serverAddress.contains(":") ? "[" + this.serverAddress + "]" : this.serverAddress;
		}
		try {
			return InetAddress.getLocalHost().getHostAddress();
		}
		catch (UnknownHostException ex) {
			return "127.0.0.1";
		}
	}

	/** Removes the address; quietly when ZooKeeper is gone already (the node is ephemeral and goes anyway). */
	@Override
	public synchronized void close() {
		if (this.node != null) {
			try {
				this.node.close();
			}
			catch (IOException ex) {
				// the session ends with the process, and the ephemeral node with it
			}
		}
	}
}
