package io.xd.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.xd.container.ContainerServer;
import io.xd.modules.Module;

/** A singlenode started in this JVM on a free port with its own data directory, and a small REST client for it. */
final class SingleNode extends AdminApi implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	SingleNode(Path dataDirectory, String... extraArgs) {
		super(null);
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--xd.data.dir=" + dataDirectory,
				"--xd.admin.reconcile-interval=2s", "--zk.session-timeout=15s"));
		args.addAll(List.of(extraArgs));
		if (args.stream().noneMatch(arg -> arg.startsWith("--spring.config.import="))) {
			// no servers.yml from the working directory: each test says what it configures
			args.add("--spring.config.import=");
		}
		this.context = new SpringApplicationBuilder(XdApplication.class).profiles("singlenode")
			.run(XdApplication.withShortcuts(args.toArray(String[]::new)));
		setBaseUri("http://127.0.0.1:" + this.context.getEnvironment().getProperty("local.server.port"));
		if (args.stream().noneMatch(arg -> arg.startsWith("--xd.security."))) {
			// no users configured: the server created its administrator
			asAdministratorOf(dataDirectory);
		}
	}

	/**
	 * Writes {@code yaml} as {@code servers.yml} in a {@code config} directory under {@code directory}.
	 * @return the argument that makes a node read it
	 */
	static String serversYml(Path directory, String yaml) throws IOException {
		Path config = Files.createDirectories(directory.resolve("config"));
		Files.writeString(config.resolve("servers.yml"), yaml);
		return "--spring.config.import=optional:file:" + config.resolve("servers.yml");
	}

	/** The application context of this singlenode. */
	ConfigurableApplicationContext context() {
		return this.context;
	}

	/** The running module with this id in the singlenode's container, or null. */
	Module module(String moduleId) {
		ContainerServer container = this.context.getBean(ContainerServer.class);
		var running = container.module(moduleId);
		return (running == null) ? null : running.module();
	}

	@Override
	public void close() {
		this.context.close();
	}
}
