package io.xd.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

import io.xd.container.ContainerServer;
import io.xd.modules.Module;

/**
 * A singlenode started in this JVM on a free port with its own data directory, and a small REST client for it. For
 * one singlenode shared by every test of a class: {@code @RegisterExtension static final SingleNode node =
 * SingleNode.perClass();}, started before the first test in a temporary data directory and stopped after the last.
 */
final class SingleNode extends AdminApi implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

	private final String[] extraArgs;

	private ConfigurableApplicationContext context;

	private Path dataDirectory;

	SingleNode(Path dataDirectory, String... extraArgs) {
		super(null);
		this.extraArgs = extraArgs;
		start(dataDirectory);
	}

	private SingleNode(String... extraArgs) {
		super(null);
		this.extraArgs = extraArgs;
	}

	/** A singlenode that starts before the first test of the class that registers it and stops after the last. */
	static SingleNode perClass(String... extraArgs) {
		return new SingleNode(extraArgs);
	}

	@Override
	public void beforeAll(ExtensionContext extension) throws IOException {
		start(Files.createTempDirectory("xd-singlenode-"));
	}

	@Override
	public void afterAll(ExtensionContext extension) throws IOException {
		close();
		FileSystemUtils.deleteRecursively(this.dataDirectory);
	}

	/** The data directory of this singlenode. */
	Path dataDirectory() {
		return this.dataDirectory;
	}

	private void start(Path dataDirectory) {
		this.dataDirectory = dataDirectory;
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--xd.data.dir=" + dataDirectory,
				"--xd.admin.reconcile-interval=2s", "--zk.session-timeout=15s"));
		args.addAll(List.of(this.extraArgs));
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
