package io.xd.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Profile;

import io.xd.admin.AdminConfiguration;
import io.xd.container.ContainerConfiguration;

/**
 * An XD process: {@code java -jar xd.jar [singlenode|admin|container] [--key=value ...]}.
 * <ul>
 * <li>{@code singlenode} (the default): the admin (REST API on 127.0.0.1:9393 unless configured), one container and
 * an embedded ZooKeeper in one JVM, with the local message bus, so that neighbouring modules are directly bound, or
 * with the Kafka bus ({@code --transport kafka});</li>
 * <li>{@code admin}: the admin server alone, on the ZooKeeper of {@code zk.client.connect};</li>
 * <li>{@code container}: a container alone, on that ZooKeeper, with the transport the admins' streams need (Kafka,
 * for modules in different processes);</li>
 * <li>{@code zookeeper}: a standalone ZooKeeper server for the above, see {@link StandaloneZooKeeper}.</li>
 * </ul>
 * Configuration comes from {@code application.yml} in the jar, then {@code config/servers.yml} (Spring XD's file)
 * in the directory named by {@code XD_CONFIG_LOCATION} or the working directory, then the command line
 * ({@code --server.port=9494}, {@code --xd.data.dir=...}).
 */
@SpringBootApplication
public class XdApplication {

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("zookeeper")) {
			StandaloneZooKeeper.run(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		XdMode mode = (args.length > 0) ? XdMode.of(args[0]) : null;
		String[] rest = (mode == null) ? args : Arrays.copyOfRange(args, 1, args.length);
		SpringApplication application = new SpringApplication(XdApplication.class);
		application.setAdditionalProfiles((mode == null) ? XdMode.SINGLENODE.profile() : mode.profile());
		application.run(withShortcuts(rest));
	}

	/** The admin's parts, in singlenode and in an admin process. */
	@Configuration(proxyBeanMethods = false)
	@Profile({ "singlenode", "admin" })
	@Import(AdminConfiguration.class)
	static class AdminParts {

	}

	/** The container's parts, in singlenode and in a container process. */
	@Configuration(proxyBeanMethods = false)
	@Profile({ "singlenode", "container" })
	@Import(ContainerConfiguration.class)
	static class ContainerParts {

	}

	/** Spring XD's command-line shortcuts and the properties they set. */
	private static final Map<String, String> SHORTCUTS = Map.of("--transport", "xd.transport", "--groups",
			"xd.container.groups");

	/**
	 * Spring XD's singlenode took {@code --transport kafka} and {@code --groups a,b}; they become
	 * {@code --xd.transport=kafka} and {@code --xd.container.groups=a,b}, as do {@code --transport=kafka} and
	 * {@code --groups=a,b}. Every other argument is left as it is.
	 */
	static String[] withShortcuts(String[] args) {
		List<String> result = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			int equals = arg.indexOf('=');
			String name = (equals > 0) ? arg.substring(0, equals) : arg;
			String property = SHORTCUTS.get(name);
			if (property != null && equals > 0) {
				result.add("--" + property + "=" + arg.substring(equals + 1));
			}
			else if (property != null && i + 1 < args.length) {
				result.add("--" + property + "=" + args[++i]);
			}
			else {
				result.add(arg);
			}
		}
		return result.toArray(String[]::new);
	}
}
