package io.xd.admin;

import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

import io.xd.admin.audit.AuditMasker;
import io.xd.admin.audit.AuditTrail;
import io.xd.admin.cluster.AdminAddressPublisher;
import io.xd.admin.cluster.ClusterStore;
import io.xd.admin.cluster.DeploymentSupervisor;
import io.xd.admin.modules.MavenModuleResolver;
import io.xd.admin.modules.ModuleRepository;
import io.xd.admin.modules.ModulesProperties;
import io.xd.admin.stream.StreamPlanner;
import io.xd.admin.stream.StreamService;
import io.xd.core.BindingKeys;
import io.xd.core.cluster.StreamRecord;
import io.xd.modules.HostAccess;
import io.xd.modules.internal.ModuleRegistry;

/**
 * The admin server's parts: stream planning and storage, the deployment supervisor and the REST API. Needs a
 * started {@link CuratorFramework} bean, connected to the cluster's ZooKeeper and namespace, and the
 * {@link ModuleRegistry} of the modules streams may use, and the {@link BindingKeys} that the configured transport's
 * message bus declares (the admin checks deployment properties against them without running a bus).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ AdminProperties.class, ModulesProperties.class })
@ComponentScan("io.xd.admin.web")
public class AdminConfiguration {

	@Bean
	public StreamPlanner streamPlanner(ModuleRegistry registry, HostAccess hostAccess) {
		return new StreamPlanner(registry, hostAccess);
	}

	@Bean
	public ClusterStore clusterStore(CuratorFramework client) {
		return new ClusterStore(client);
	}

	/** The custom modules, in {@code <xd.data.dir>/modules}; loaded before the supervisor plans any stream. */
	@Bean(initMethod = "start", destroyMethod = "close")
	public ModuleRepository moduleRepository(@Value("${xd.data.dir}") Path dataDirectory, ClusterStore store,
			ModuleRegistry registry, StreamPlanner planner, ModulesProperties properties) {
		return new ModuleRepository(dataDirectory.resolve("modules"), store, registry, planner, properties);
	}

	@Bean(destroyMethod = "close")
	public MavenModuleResolver mavenModuleResolver(@Value("${xd.data.dir}") Path dataDirectory,
			ModulesProperties properties) {
		ModulesProperties.Maven maven = properties.getMaven();
		Path local = (maven.getLocalRepository() != null) ? maven.getLocalRepository()
				: dataDirectory.resolve("maven-repository");
		return new MavenModuleResolver(local, maven.remoteUrls(), maven.isOffline());
	}

	@Bean(destroyMethod = "close")
	public AdminAddressPublisher adminAddressPublisher(CuratorFramework client, @Value("${xd.admin.url:}") String url,
			@Value("${server.address:}") String serverAddress) {
		return new AdminAddressPublisher(client, "admin-" + UUID.randomUUID(), url, serverAddress);
	}

	/** Starts after the module repository, so that streams using custom modules find them after a restart. */
	@Bean(initMethod = "start", destroyMethod = "close")
	public DeploymentSupervisor deploymentSupervisor(ClusterStore store, StreamPlanner planner,
			AdminProperties properties, ModuleRepository modules) {
		return new DeploymentSupervisor(store, planner, "admin-" + UUID.randomUUID(), properties.getDeploymentTimeout(),
				properties.getReconcileInterval(), properties.getDepartureGracePeriod());
	}

	/** Who changed what through the REST API, kept in ZooKeeper. */
	@Bean
	public AuditTrail auditTrail(ClusterStore store, StreamPlanner planner, AdminProperties properties) {
		AuditMasker masker = new AuditMasker(planner.secrets(),
				stream -> store.findStream(stream).map(StreamRecord::definition));
		return new AuditTrail(store, masker, properties.getAudit().getMaxRecords(), Clock.systemUTC());
	}

	@Bean
	public StreamService streamService(ClusterStore store, StreamPlanner planner, DeploymentSupervisor supervisor,
			BindingKeys bindingKeys, AdminProperties properties) {
		return new StreamService(store, planner, supervisor::trigger, bindingKeys,
				properties.getLimits().toStreamLimits(), properties.getDegradedWindow());
	}
}
