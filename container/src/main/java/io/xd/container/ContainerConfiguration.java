package io.xd.container;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.xd.bus.MessageBus;
import io.xd.bus.Transport;
import io.xd.bus.kafka.KafkaBusProperties;
import io.xd.bus.kafka.KafkaMessageBus;
import io.xd.bus.local.LocalMessageBus;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleServices;
import io.xd.modules.internal.ModuleRegistry;

/**
 * The container's parts, in singlenode and in a container process: the message bus, the module runner and the server.
 * Needs a started {@link CuratorFramework} bean, connected to the cluster's ZooKeeper and namespace, the
 * {@link ModuleRegistry} of the modules it may run and a {@link MeterRegistry} for the module meters.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ContainerProperties.class)
public class ContainerConfiguration {

	/** The Spring profile of a singlenode process, whose container keeps its id across restarts. */
	private static final String SINGLENODE_PROFILE = "singlenode";

	/** The Kafka bus settings, Spring XD's {@code xd.messagebus.kafka.*} keys; used when the transport is kafka. */
	@Bean
	@ConfigurationProperties("xd.messagebus.kafka")
	public KafkaBusProperties kafkaBusProperties() {
		return new KafkaBusProperties();
	}

	@Bean(destroyMethod = "close")
	public MessageBus messageBus(@Value("${xd.transport:local}") String transport,
			@Value("${xd.messagebus.local.queueSize:" + LocalMessageBus.DEFAULT_QUEUE_CAPACITY + "}") int queueSize,
			KafkaBusProperties kafka) {
		return switch (Transport.of(transport)) {
			case LOCAL -> new LocalMessageBus(queueSize);
			case KAFKA -> new KafkaMessageBus(kafka);
		};
	}

	@Bean(initMethod = "start", destroyMethod = "close")
	public ContainerServer containerServer(CuratorFramework client, ModuleRegistry registry, MessageBus bus,
			MeterRegistry meters, HostAccess hostAccess, ObjectProvider<ModuleServices> services,
			ContainerProperties properties, Environment environment, @Value("${xd.data.dir}") Path dataDirectory,
			@Value("${xd.container.rateInterval:5s}") Duration rateInterval) throws IOException {
		// singlenode keeps its container id across restarts; a container process is a new member each time it starts,
		// as in Spring XD (several may share a host and a data directory)
		String id = !properties.getId().isBlank() ? properties.getId()
				: environment.matchesProfiles(SINGLENODE_PROFILE) ? persistentId(dataDirectory)
						: UUID.randomUUID().toString();
		InetAddress local = InetAddress.getLocalHost();
		ContainerAttributes attributes = new ContainerAttributes(id,
				properties.getHost().isBlank() ? local.getHostName() : properties.getHost(),
				properties.getIp().isBlank() ? local.getHostAddress() : properties.getIp(),
				Long.toString(ManagementFactory.getRuntimeMXBean().getPid()), properties.getGroups(),
				properties.getAttributes());
		ModuleLocator modules = new CustomModuleFetcher(client, registry, dataDirectory.resolve("module-cache"));
		return new ContainerServer(client, attributes, new ModuleRunner(modules, bus, meters, dataDirectory, hostAccess,
				services.getIfAvailable(() -> ModuleServices.NONE)),
				rateInterval, properties.getLeaseFraction());
	}

	/**
	 * The container id kept in the data directory, so that after a restart the modules allocated to it before are
	 * allocated to it again (to its new registration, see {@link io.xd.core.cluster.Allocation}).
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
