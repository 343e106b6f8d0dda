package io.xd.dist;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.xd.bus.MessageBus;
import io.xd.bus.kafka.KafkaBusProperties;
import io.xd.bus.kafka.KafkaMessageBus;
import io.xd.bus.local.LocalMessageBus;
import io.xd.container.ContainerServer;
import io.xd.container.ModuleRunner;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.modules.ModuleRegistry;

/**
 * What every XD process needs (the ZooKeeper connection and the module registry) and the container's parts (the
 * message bus, the module runner and the container server).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ ZooKeeperProperties.class, ContainerProperties.class })
public class XdConfiguration {

	@Bean(destroyMethod = "close")
	public ClusterConnection clusterConnection(ZooKeeperProperties properties,
			@Value("${xd.data.dir}") Path dataDirectory) throws Exception {
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

	@Bean
	public ModuleRegistry moduleRegistry() {
		return ModuleRegistry.fromClassPath();
	}

	/** The Kafka bus settings, Spring XD's {@code xd.messagebus.kafka.*} keys; used when the transport is kafka. */
	@Bean
	@ConfigurationProperties("xd.messagebus.kafka")
	public KafkaBusProperties kafkaBusProperties() {
		return new KafkaBusProperties();
	}

	@Bean(destroyMethod = "close")
	public MessageBus messageBus(@Value("${xd.transport:local}") String transport,
			@Value("${xd.messagebus.local.queueSize:10000}") int queueSize, KafkaBusProperties kafka) {
		return switch (transport) {
			case "local" -> new LocalMessageBus(queueSize);
			case "kafka" -> new KafkaMessageBus(kafka);
			default -> throw new IllegalStateException("xd.transport must be 'local' or 'kafka', but was '"
					+ transport + "'");
		};
	}

	@Bean(initMethod = "start", destroyMethod = "close")
	public ContainerServer containerServer(CuratorFramework client, ModuleRegistry registry, MessageBus bus,
			ContainerProperties properties, @Value("${xd.data.dir}") Path dataDirectory) throws IOException {
		String id = properties.getId().isBlank() ? persistentId(dataDirectory) : properties.getId();
		InetAddress local = InetAddress.getLocalHost();
		ContainerAttributes attributes = new ContainerAttributes(id,
				properties.getHost().isBlank() ? local.getHostName() : properties.getHost(),
				properties.getIp().isBlank() ? local.getHostAddress() : properties.getIp(),
				Long.toString(ManagementFactory.getRuntimeMXBean().getPid()), properties.getGroups(),
				properties.getAttributes());
		return new ContainerServer(client, attributes, new ModuleRunner(registry, bus));
	}

	/**
	 * The container id kept in the data directory, so that after a restart the container takes up the modules
	 * allocated to it before.
	 */
	private static String persistentId(Path dataDirectory) throws IOException {
		Path file = dataDirectory.resolve("container.id");
		if (Files.exists(file)) {
			String id = Files.readString(file, StandardCharsets.UTF_8).trim();
			if (!id.isEmpty()) {
				return id;
			}
		}
		Files.createDirectories(dataDirectory);
		String id = UUID.randomUUID().toString();
		Files.writeString(file, id, StandardCharsets.UTF_8);
		return id;
	}
}
