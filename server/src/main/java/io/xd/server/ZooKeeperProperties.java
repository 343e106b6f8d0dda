package io.xd.server;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How XD reaches ZooKeeper ({@code zk.*}, Spring XD's keys).
 */
@ConfigurationProperties("zk")
public class ZooKeeperProperties {

	/** The namespace (root node) under which XD keeps its state. */
	private String namespace = "xd";

	/** Session timeout: how soon a crashed container's modules are redeployed elsewhere. */
	private Duration sessionTimeout = Duration.ofSeconds(6);

	/** How long to wait for a connection before giving up at start-up. */
	private Duration connectionTimeout = Duration.ofSeconds(30);

	private final Client client = new Client();

	private final Embedded embedded = new Embedded();

	private final Auth auth = new Auth();

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	public Client getClient() {
		return this.client;
	}

	public Embedded getEmbedded() {
		return this.embedded;
	}

	public Auth getAuth() {
		return this.auth;
	}

	/**
	 * The digest credentials XD authenticates with and protects its znodes by ({@code zk.auth.*}, or
	 * {@code ZK_AUTH_USERNAME} and {@code ZK_AUTH_PASSWORD}): every znode XD creates gives all permissions to this
	 * identity and none to anyone else. Every admin and container of a cluster needs the same ones.
	 */
	public static class Auth {

		/** The user name; empty means none (open znodes on an external ensemble, generated ones when embedded). */
		private String username = "";

		/** The password; never printed or logged. */
		private String password = "";

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = (username == null) ? "" : username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = (password == null) ? "" : password;
		}

		/** Whether a user name or a password is set. */
		public boolean isConfigured() {
			return !this.username.isEmpty() || !this.password.isEmpty();
		}

		@Override
		public String toString() {
			return "Auth[username=" + this.username + ", password=" + (this.password.isEmpty() ? "none" : "[hidden]")
					+ "]";
		}
	}

	/** The ZooKeeper ensemble to join. */
	public static class Client {

		/** {@code host:port[,host:port...]}; empty means singlenode's embedded server. */
		private String connect = "";

		public String getConnect() {
			return this.connect;
		}

		public void setConnect(String connect) {
			this.connect = connect;
		}
	}

	/** Singlenode's embedded ZooKeeper server. */
	public static class Embedded {

		/** The port of the embedded server, on 127.0.0.1; 0 picks a free one. */
		private int serverPort = 0;

		public int getServerPort() {
			return this.serverPort;
		}

		public void setServerPort(int serverPort) {
			this.serverPort = serverPort;
		}
	}
}
