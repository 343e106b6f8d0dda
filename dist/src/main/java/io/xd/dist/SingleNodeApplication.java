package io.xd.dist;

import java.util.ArrayList;
import java.util.List;

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
		application.run(withTransportOption(args));
	}

	/**
	 * Spring XD's singlenode took {@code --transport kafka}; it becomes {@code --xd.transport=kafka}, as does
	 * {@code --transport=kafka}.
	 */
	static String[] withTransportOption(String[] args) {
		List<String> result = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			if (args[i].equals("--transport") && i + 1 < args.length) {
				result.add("--xd.transport=" + args[++i]);
			}
			else if (args[i].startsWith("--transport=")) {
				result.add("--xd.transport=" + args[i].substring("--transport=".length()));
			}
			else {
				result.add(args[i]);
			}
		}
		return result.toArray(String[]::new);
	}
}
