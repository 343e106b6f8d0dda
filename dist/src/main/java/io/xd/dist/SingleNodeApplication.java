package io.xd.dist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

import io.xd.admin.AdminConfiguration;

/**
 * Singlenode: the admin (REST API on 127.0.0.1:9393 unless configured), one container and an embedded ZooKeeper
 * in one JVM, with the local message bus, so that neighbouring modules are directly bound, or with the Kafka bus
 * ({@code --transport kafka}).
 * <p>
 * Configuration comes from {@code application.yml} in the jar, then {@code config/servers.yml} (Spring XD's file)
 * in the directory named by {@code XD_CONFIG_LOCATION} or the working directory, then the command line
 * ({@code --server.port=9494}, {@code --xd.data.dir=...}).
 */
@SpringBootApplication
@Import(AdminConfiguration.class)
public class SingleNodeApplication {

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(SingleNodeApplication.class);
		application.setAdditionalProfiles("singlenode");
		application.run(withShortcuts(args));
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
