package io.xd.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.xd.bus.Transport;
import io.xd.core.BindingKeys;
import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.internal.ModuleRegistry;
import io.xd.server.security.CredentialsFile;

/**
 * What every XD process needs: the ZooKeeper connection (singlenode may start an embedded server; an admin or a
 * container must be given one), the module registry and the web server's settings.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ ZooKeeperProperties.class, HostAccessProperties.class })
public class XdConfiguration {

	@Bean(destroyMethod = "close")
	public ClusterConnection clusterConnection(ZooKeeperProperties properties, Environment environment,
			@Value("${xd.data.dir}") Path dataDirectory) throws Exception {
		boolean singlenode = environment.matchesProfiles(XdMode.SINGLENODE.profile());
		String connect = properties.getClient().getConnect();
		if (!singlenode && (connect == null || connect.isBlank())) {
			throw new IllegalStateException("A separate admin or container needs a ZooKeeper ensemble: set "
					+ "zk.client.connect (in servers.yml or --zk.client.connect=host:2181); bin/zookeeper-local start "
					+ "runs one on 127.0.0.1:2181");
		}
		// the data directory holds credentials and the stream store: only the server's user may enter it
		CredentialsFile.createOwnerOnlyDirectories(dataDirectory);
		return new ClusterConnection(properties, dataDirectory);
	}

	@Bean
	public CuratorFramework curatorFramework(ClusterConnection connection) {
		return connection.client();
	}

	/**
	 * Lets a path with an encoded '/' (say {@code /streams/definitions/a%2Fb}) reach the REST API, which answers it
	 * with its usual JSON 404, rather than Tomcat refusing it with an HTML page.
	 */
	@Bean
	public TomcatConnectorCustomizer encodedSlashPassThrough() {
		return connector -> connector.setEncodedSolidusHandling("passthrough");
	}

	/** The binding properties that the configured transport's bus accepts, for the admin's deployment checks. */
	@Bean
	public BindingKeys bindingKeys(@Value("${xd.transport:local}") String transport) {
		return Transport.of(transport).bindingKeys();
	}

	@Bean
	public ModuleRegistry moduleRegistry() {
		return ModuleRegistry.fromClassPath();
	}

	/**
	 * What stream definitions may reach on the host: the admin checks definitions with it, containers modules. XD's own
	 * ports (the web server's, the management server's, the embedded ZooKeeper's) are read at each check, since the
	 * web server may pick its port at start.
	 */
	@Bean
	public HostAccess hostAccess(HostAccessProperties properties, @Value("${xd.data.dir}") Path dataDirectory,
			Environment environment, ClusterConnection connection) {
		return properties.toHostAccess(dataDirectory.toAbsolutePath().normalize(), () -> {
			List<Integer> ports = new ArrayList<>();
			for (String key : List.of("local.server.port", "server.port", "local.management.port",
					"management.server.port")) {
				Integer port = environment.getProperty(key, Integer.class);
				if (port != null && port > 0) {
					ports.add(port);
				}
			}
			connection.embeddedPort().ifPresent(ports::add);
			return ports;
		}, dataSources(environment), connections(environment));
	}

	/** The servers the operator declares for connector modules as {@code xd.connections.<name>.host}, ... */
	private static Map<String, Connection> connections(Environment environment) {
		Map<String, HostAccessProperties.ConnectionProperties> declared = Binder.get(environment)
			.bind("xd.connections", Bindable.mapOf(String.class, HostAccessProperties.ConnectionProperties.class))
			.orElse(Map.of());
		Map<String, Connection> connections = new LinkedHashMap<>();
		declared.forEach((name, connection) -> connections.put(name, connection.toConnection(name)));
		return connections;
	}

	/** The databases the operator declares as {@code xd.datasources.<name>.url}, {@code .username}, {@code .password}. */
	private static Map<String, HostAccess.DataSource> dataSources(Environment environment) {
		Map<String, HostAccessProperties.DataSourceProperties> declared = Binder.get(environment)
			.bind("xd.datasources", Bindable.mapOf(String.class, HostAccessProperties.DataSourceProperties.class))
			.orElse(Map.of());
		Map<String, HostAccess.DataSource> dataSources = new LinkedHashMap<>();
		declared.forEach((name, dataSource) -> {
			if (dataSource.getUrl() == null || dataSource.getUrl().isBlank()) {
				throw new IllegalStateException("The data source xd.datasources." + name + " has no url");
			}
			dataSources.put(name, new HostAccess.DataSource(dataSource.getUrl(), dataSource.getUsername(),
					dataSource.getPassword()));
		});
		return dataSources;
	}
}
