package io.xd.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;

/**
 * What stream definitions may reach on the host, as the operator declares it ({@code xd.modules.*}): the admin checks
 * definitions against it when they are created, every container again when it runs their modules. A definition is
 * written by a user with a role, not by the operator; see docs/security.md, "What a stream definition can reach".
 */
@ConfigurationProperties("xd.modules")
public class HostAccessProperties {

	/** Files: where file options may point. */
	private final File file = new File();

	/** Network sources: where they may listen. */
	private final Network network = new Network();

	/** The http-client processor: which hosts it may reach. */
	private final HttpClient httpClient = new HttpClient();

	/** JDBC modules: which literal URLs definitions may give. */
	private final Jdbc jdbc = new Jdbc();

	/** Connector modules (rabbit, mqtt, redis, mail, sftp, the tcp sink): which hosts their host options may name. */
	private final Connect connect = new Connect();

	public File getFile() {
		return this.file;
	}

	public Network getNetwork() {
		return this.network;
	}

	public HttpClient getHttpClient() {
		return this.httpClient;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public Connect getConnect() {
		return this.connect;
	}

	/**
	 * The host access these settings declare, for a server whose data directory is {@code dataDirectory} and whose own
	 * ports are {@code reservedPorts} (asked at each check: some are picked at start).
	 */
	public HostAccess toHostAccess(Path dataDirectory, Supplier<? extends Collection<Integer>> reservedPorts,
			Map<String, HostAccess.DataSource> dataSources, Map<String, Connection> connections) {
		List<Path> roots = this.file.getRoots().isEmpty()
				? List.of(dataDirectory.resolve(HostAccess.DEFAULT_FILE_ROOT))
				: this.file.getRoots().stream().map(root -> root.toAbsolutePath().normalize()).toList();
		return new HostAccess(roots, dataDirectory).withBindAddresses(this.network.getBindAddresses())
			.withAllowedHosts(this.httpClient.getAllowedHosts())
			.withReservedPorts(reservedPorts)
			.withAllowedJdbcUrls(this.jdbc.getAllowedUrls())
			.withDataSources(dataSources)
			.withConnections(connections)
			.withConnectHosts(this.connect.getAllowedHosts());
	}

	/** Which hosts connector modules may name in their host options (they name declared connections otherwise). */
	public static class Connect {

		/**
		 * Host names and IP literals that the host options of connector modules (rabbit --addresses, mqtt --url, redis
		 * --hostname, mail --host, sftp --host, tcp --host) may name, matched exactly. Empty: none; definitions name a
		 * connection the operator declared (xd.connections.&lt;name&gt;) instead. Link-local and cloud metadata
		 * addresses, and XD's own ports, are refused whatever this says.
		 */
		private List<String> allowedHosts = new ArrayList<>();

		public List<String> getAllowedHosts() {
			return this.allowedHosts;
		}

		public void setAllowedHosts(List<String> allowedHosts) {
			this.allowedHosts = allowedHosts;
		}
	}

	/** One server the operator declares for connector modules ({@code xd.connections.<name>}). */
	public static class ConnectionProperties {

		/** The server's host name or IP literal. */
		private String host;

		/** The server's port; 0: the protocol's default. */
		private int port;

		/** The user. */
		private String username;

		/** The password; never shown. */
		private String password;

		/** Whether modules connect over TLS. */
		private boolean tls;

		/** Further settings by name, such as a RabbitMQ virtual-host. */
		private Map<String, String> properties = new LinkedHashMap<>();

		public String getHost() {
			return this.host;
		}

		public void setHost(String host) {
			this.host = host;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public boolean isTls() {
			return this.tls;
		}

		public void setTls(boolean tls) {
			this.tls = tls;
		}

		public Map<String, String> getProperties() {
			return this.properties;
		}

		public void setProperties(Map<String, String> properties) {
			this.properties = properties;
		}

		Connection toConnection(String name) {
			if (this.host == null || this.host.isBlank()) {
				throw new IllegalStateException("The connection xd.connections." + name + " has no host");
			}
			return new Connection(this.host, this.port, this.username, this.password, this.tls, this.properties);
		}
	}

	/** Which literal JDBC URLs definitions may give (they name a declared data source otherwise). */
	public static class Jdbc {

		/**
		 * Patterns of JDBC URLs a definition may give literally, matched against the URL as its driver reads it,
		 * without parameters ({@code *}: any characters but / ? ;), such as jdbc:postgresql://db.internal:5432/*.
		 * Empty: none; definitions name data sources (xd.datasources.&lt;name&gt;) instead.
		 */
		private List<String> allowedUrls = new ArrayList<>();

		public List<String> getAllowedUrls() {
			return this.allowedUrls;
		}

		public void setAllowedUrls(List<String> allowedUrls) {
			this.allowedUrls = allowedUrls;
		}
	}

	/** One database the operator declares ({@code xd.datasources.<name>}). */
	public static class DataSourceProperties {

		/** The JDBC URL. */
		private String url;

		/** The user. */
		private String username;

		/** The password; never shown. */
		private String password;

		public String getUrl() {
			return this.url;
		}

		public void setUrl(String url) {
			this.url = url;
		}

		public String getUsername() {
			return this.username;
		}

		public void setUsername(String username) {
			this.username = username;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}
	}

	/** Where network sources (http, tcp, syslog-udp, syslog-tcp) may listen. */
	public static class Network {

		/**
		 * Addresses network sources may listen on besides loopback ones, such as a LAN address, or 0.0.0.0 for every
		 * interface. Empty: loopback only.
		 */
		private List<String> bindAddresses = new ArrayList<>();

		public List<String> getBindAddresses() {
			return this.bindAddresses;
		}

		public void setBindAddresses(List<String> bindAddresses) {
			this.bindAddresses = bindAddresses;
		}
	}

	/** Which hosts the http-client processor may reach. */
	public static class HttpClient {

		/**
		 * Host names and IP literals that http-client URLs may name, matched exactly. Empty: none. Link-local and cloud
		 * metadata addresses, and XD's own ports, are refused whatever this says.
		 */
		private List<String> allowedHosts = new ArrayList<>();

		public List<String> getAllowedHosts() {
			return this.allowedHosts;
		}

		public void setAllowedHosts(List<String> allowedHosts) {
			this.allowedHosts = allowedHosts;
		}
	}

	/** Where file options may point. */
	public static class File {

		/**
		 * The folders that the options of file modules (file source and sink, and every module that opens a path) may
		 * name, each with everything under it; a relative path in a definition resolves under the first. Empty: the
		 * folder files of the data directory. A root may not contain the data directory, nor be under /proc, /sys or
		 * /dev.
		 */
		private List<Path> roots = new ArrayList<>();

		public List<Path> getRoots() {
			return this.roots;
		}

		public void setRoots(List<Path> roots) {
			this.roots = roots;
		}
	}
}
