package io.xd.dist;

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

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;

import io.xd.bus.MessageBus;
import io.xd.bus.kafka.KafkaBusProperties;
import io.xd.bus.kafka.KafkaMessageBus;
import io.xd.bus.local.LocalMessageBus;
import io.xd.container.ContainerServer;
import io.xd.container.ModuleRunner;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.modules.ModuleRegistry;

/** The container's parts, in singlenode and in a container process: the message bus, the module runner and the server. */
@Configuration(proxyBeanMethods = false)
@Profile({ "singlenode", "container" })
public class ContainerConfiguration {

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
			MeterRegistry meters,
			ContainerProperties properties, Environment environment, @Value("${xd.data.dir}") Path dataDirectory,
			@Value("${xd.container.rateInterval:5s}") Duration rateInterval) throws IOException {
		// singlenode keeps its container id across restarts; a container process is a new member each time it starts,
		// as in Spring XD (several may share a host and a data directory)
		String id = !properties.getId().isBlank() ? properties.getId()
				: environment.matchesProfiles(XdMode.SINGLENODE.profile()) ? persistentId(dataDirectory)
						: UUID.randomUUID().toString();
		InetAddress local = InetAddress.getLocalHost();
		ContainerAttributes attributes = new ContainerAttributes(id,
				properties.getHost().isBlank() ? local.getHostName() : properties.getHost(),
				properties.getIp().isBlank() ? local.getHostAddress() : properties.getIp(),
				Long.toString(ManagementFactory.getRuntimeMXBean().getPid()), properties.getGroups(),
				properties.getAttributes());
		return new ContainerServer(client, attributes, new ModuleRunner(registry, bus, meters), rateInterval);
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
