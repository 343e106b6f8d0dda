package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The XD processes one test forks from the built jar, each stopped after the test: admins, containers and
 * singlenodes first, the last forked first, then ZooKeeper servers, so that no server spends its shutdown waiting
 * for a ZooKeeper that is already gone. Register it on a field with {@code @RegisterExtension}; the logs go in the
 * given directory, or with {@link #perTest(Path)} in a directory of it named after the test method, so that a
 * failed run can be read afterwards.
 */
final class XdProcesses implements BeforeEachCallback, AfterEachCallback {

	private static final String ZOOKEEPER = "zookeeper";

	private final Path logs;

	private final boolean perTest;

	private final List<XdProcess> servers = new ArrayList<>();

	private final List<XdProcess> zooKeepers = new ArrayList<>();

	private final boolean packed;

	private Path logDirectory;

	XdProcesses(Path logs) {
		this(logs, false, false);
	}

	private XdProcesses(Path logs, boolean perTest, boolean packed) {
		this.logs = logs;
		this.perTest = perTest;
		this.packed = packed;
		this.logDirectory = logs;
	}

	static XdProcesses perTest(Path logs) {
		return new XdProcesses(logs, true, false);
	}

	/** Processes that run {@code xd.jar} itself, as shipped, rather than its extracted fast-start form. */
	static XdProcesses packedJar(Path logs) {
		return new XdProcesses(logs, false, true);
	}

	/** Starts {@code java -jar xd.jar <mode> <args>}, logged to {@code <name>.log}. */
	XdProcess fork(String name, String mode, List<String> args) {
		XdProcess process = XdProcess.start(this.logDirectory, name, mode, args, this.packed);
		(ZOOKEEPER.equals(mode) ? this.zooKeepers : this.servers).add(process);
		return process;
	}

	/** Starts a ZooKeeper server on {@code port}, keeping its data in {@code dir}, and waits until it listens. */
	XdProcess zooKeeper(String name, int port, Path dir) {
		return fork(name, ZOOKEEPER, List.of("--port=" + port, "--dir=" + dir))
			.awaitLog("ZooKeeper listening", Duration.ofSeconds(60));
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		if (this.perTest) {
			this.logDirectory = this.logs.resolve(context.getRequiredTestMethod().getName());
		}
	}

	@Override
	public void afterEach(ExtensionContext context) {
		stopLastFirst(this.servers);
		stopLastFirst(this.zooKeepers);
	}

	private static void stopLastFirst(List<XdProcess> processes) {
		for (int i = processes.size() - 1; i >= 0; i--) {
			processes.get(i).close();
		}
		processes.clear();
	}

}
