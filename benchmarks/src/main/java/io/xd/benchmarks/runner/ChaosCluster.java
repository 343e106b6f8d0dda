package io.xd.benchmarks.runner;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.common.Uuid;

/**
 * The {@code chaos} suite's cluster, each server a process of its own on 127.0.0.1: a ZooKeeper server ({@code xd.jar
 * zookeeper}), one or three Kafka brokers ({@code bin/kafka-local} with ports and a directory of their own; three form
 * one KRaft quorum, each broker and controller, with topics of three replicas and {@code min.insync.replicas} 2), two
 * admins and three containers on the Kafka transport. Each broker's data directory is a small tmpfs of its own when
 * this process may mount one (the suite's full-disk faults fill it); otherwise a plain directory, and those faults are
 * skipped. Every server keeps its port and data directory across restarts; each start of an
 * XD server logs to a file of its own ({@code <name>-<n>.log}).
 */
final class ChaosCluster implements AutoCloseable {

	/** The JVM options of the admins and containers: small heaps, for eight JVMs on a small machine. */
	static final List<String> SERVER_JAVA_OPTIONS = List.of("-Xms64m", "-Xmx320m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1", "-Xss512k", "-XX:+ExitOnOutOfMemoryError");

	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);

	/** The size of each broker's data directory (a tmpfs), which a full-disk fault fills. */
	static final String BROKER_DISK_SIZE = "160m";

	/** What a broker's log says when it shuts itself down: its only log directory failed, or a fatal fault. */
	static final List<String> BROKER_GAVE_UP = List.of("because all log dirs in", "Encountered fatal fault");

	/**
	 * Whether a broker's log, from {@code mark} on, says it is shutting down on its own ({@link #BROKER_GAVE_UP}): every
	 * log directory failed (a full disk does that to a broker with one), or a fatal fault. Such a broker is still
	 * alive for some seconds.
	 */
	static boolean gaveUp(Path log, long mark) {
		try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
			long length = file.length();
			if (length <= mark) {
				return false;
			}
			file.seek(mark);
			byte[] tail = new byte[(int) Math.min(length - mark, 64L << 20)];
			file.readFully(tail);
			String text = new String(tail, StandardCharsets.UTF_8);
			return BROKER_GAVE_UP.stream().anyMatch(text::contains);
		}
		catch (IOException ex) {
			return false;
		}
	}

	private final Bench bench;

	private final Path work;

	final ZooKeeperNode zooKeeper;

	final List<BrokerNode> brokerNodes = new ArrayList<>();

	/** Why the brokers' data directories are not tmpfs mounts of their own (full-disk faults skipped); null if they are. */
	volatile String noDiskFaults;

	final List<XdNode> admins = new ArrayList<>();

	final List<XdNode> containers = new ArrayList<>();

	/** The KRaft cluster id every broker is formatted with. */
	private final String clusterId = Uuid.randomUuid().toString();

	/** The properties of three brokers: every topic, internal ones too, with three replicas, two in sync. */
	private Path replicatedProperties() throws IOException {
		Path file = this.work.resolve("replicated-broker.properties");
		if (!Files.exists(file)) {
			Files.writeString(file, String.join("\n", "offsets.topic.replication.factor=3",
					"transaction.state.log.replication.factor=3", "transaction.state.log.min.isr=2",
					"share.coordinator.state.topic.replication.factor=3", "share.coordinator.state.topic.min.isr=2",
					"default.replication.factor=3", "min.insync.replicas=2", ""));
		}
		return file;
	}

	/** Stops the cluster when the runner is interrupted (Ctrl-C, SIGTERM). */
	private final Thread stopOnExit = new Thread(this::stopAll, "stop-chaos-cluster");

	ChaosCluster(Bench bench, Path work, int brokers) {
		this.bench = bench;
		this.work = work;
		this.zooKeeper = new ZooKeeperNode(Net.freePort(12181));
		int brokerPort = 19092;
		int controllerPort = 19192;
		for (int i = 1; i <= brokers; i++) {
			brokerPort = Net.freePort(brokerPort);
			controllerPort = Net.freePort(controllerPort);
			this.brokerNodes.add(new BrokerNode((brokers == 1) ? "broker" : "broker" + i, i, brokerPort++,
					controllerPort++));
		}
		int port = 19393;
		for (int i = 1; i <= 2; i++) {
			port = Net.freePort(port) ;
			this.admins.add(new XdNode("admin" + i, "admin", port++));
		}
		int proxyPort = 12281;
		for (int i = 1; i <= ChaosSchedule.CONTAINERS; i++) {
			port = Net.freePort(port);
			proxyPort = Net.freePort(proxyPort);
			XdNode container = new XdNode("c" + i, "container", port++);
			container.zooKeeperPort = proxyPort++;
			this.containers.add(container);
		}
		Runtime.getRuntime().addShutdownHook(this.stopOnExit);
	}

	/** The bootstrap servers: every broker. */
	String brokers() {
		return this.brokerNodes.stream().map(broker -> "127.0.0.1:" + broker.port).collect(Collectors.joining(","));
	}

	/** The replicas of each topic: three with three brokers. */
	short replicas() {
		return (short) ((this.brokerNodes.size() >= 3) ? 3 : 1);
	}

	/** Starts every server, ZooKeeper and the broker first, the containers last (each through its ZooKeeper proxy). */
	void start() throws IOException, InterruptedException {
		for (XdNode container : this.containers) {
			container.zooKeeperProxy = new CuttableProxy(container.zooKeeperPort, this.zooKeeper.port);
		}
		this.bench.progress("chaos: starting ZooKeeper on 127.0.0.1:" + this.zooKeeper.port + " and "
				+ this.brokerNodes.size() + " Kafka broker(s) on " + brokers());
		this.zooKeeper.start();
		mountBrokerDisks();
		// a quorum of three answers only once two of its controllers are up: the brokers start together
		together(this.brokerNodes, Node::start);
		this.bench.progress("chaos: starting the admins and the containers together");
		List<Node> servers = new ArrayList<>(this.admins);
		servers.addAll(this.containers);
		together(servers, Node::start);
		for (XdNode node : this.admins) {
			this.bench.progress("chaos: " + node.name + " on 127.0.0.1:" + node.port + " (pid " + node.pid() + ")");
		}
		for (XdNode node : this.containers) {
			this.bench.progress("chaos: container " + node.name + " on 127.0.0.1:" + node.port + " (pid " + node.pid()
					+ ")");
		}
	}

	/** What to do to a node. */
	private interface Action {

		void apply(Node node) throws IOException, InterruptedException;

	}

	/** Applies {@code action} to every node, each in a thread of its own; fails with the first failure. */
	private static void together(List<? extends Node> nodes, Action action) throws IOException, InterruptedException {
		List<Thread> threads = new ArrayList<>();
		List<Exception> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
		for (Node node : nodes) {
			Thread thread = new Thread(() -> {
				try {
					action.apply(node);
				}
				catch (IOException | RuntimeException ex) {
					failures.add(ex);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}, "chaos-" + node.name);
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join();
		}
		if (!failures.isEmpty()) {
			Exception first = failures.get(0);
			throw (first instanceof IOException io) ? io : new IOException(first.getMessage(), first);
		}
	}

	/**
	 * Mounts a tmpfs of {@value #BROKER_DISK_SIZE} on each broker's data directory, so that a fault can fill it; when
	 * the mount is refused (not root, no such capability), says why in {@link #noDiskFaults}.
	 */
	private void mountBrokerDisks() throws IOException, InterruptedException {
		for (BrokerNode broker : this.brokerNodes) {
			Path data = broker.data();
			Files.createDirectories(data);
			String refused = command("mount", "-t", "tmpfs", "-o", "size=" + BROKER_DISK_SIZE, "tmpfs",
					data.toString());
			if (refused != null) {
				this.noDiskFaults = "mount -t tmpfs on " + data + " was refused: " + refused;
				this.bench.progress("chaos: full-disk faults are skipped: " + this.noDiskFaults);
				return;
			}
			broker.mounted = true;
		}
		this.bench.progress("chaos: each broker's data directory is a tmpfs of " + BROKER_DISK_SIZE);
	}

	/** Runs a command; null when it succeeded, else what it printed (or its status). */
	private static String command(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		if (!process.waitFor(30, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			return "no answer within 30 s";
		}
		return (process.exitValue() == 0) ? null
				: output.isEmpty() ? "status " + process.exitValue() : output.lines().findFirst().orElse(output);
	}

	List<Node> all() {
		List<Node> all = new ArrayList<>();
		all.add(this.zooKeeper);
		all.addAll(this.brokerNodes);
		all.addAll(this.admins);
		all.addAll(this.containers);
		return all;
	}

	/**
	 * The admin that leads: the live one whose log's last leadership line says it became the leader (it logs "is
	 * now the leader" and "is no longer the leader").
	 */
	Optional<XdNode> leader() {
		for (XdNode admin : this.admins) {
			if (admin.state() == State.UP && admin.leads()) {
				return Optional.of(admin);
			}
		}
		return Optional.empty();
	}

	/** An admin whose REST API answers, for the suite's requests. */
	Singlenode anyAdmin() {
		for (XdNode admin : this.admins) {
			Singlenode server = admin.server;
			if (admin.state() == State.UP && server != null && server.isAlive()) {
				return server;
			}
		}
		throw new IllegalStateException("no admin is up");
	}

	/** Stops every server: the containers and admins together, then the broker, then ZooKeeper. */
	@Override
	public void close() {
		try {
			Runtime.getRuntime().removeShutdownHook(this.stopOnExit);
		}
		catch (IllegalStateException ex) {
			return; // shutting down: the hook stops the cluster
		}
		stopAll();
	}

	private void stopAll() {
		List<Node> servers = new ArrayList<>(this.containers);
		servers.addAll(this.admins);
		try {
			together(servers, ChaosCluster::stopQuietly);
			together(this.brokerNodes, ChaosCluster::stopQuietly);
			stopQuietly(this.zooKeeper);
			for (BrokerNode broker : this.brokerNodes) {
				if (broker.mounted) {
					broker.freeDisk();
					String refused = command("umount", broker.data().toString());
					if (refused != null) {
						System.err.println("Could not unmount " + broker.data() + ": " + refused);
					}
				}
			}
			for (XdNode container : this.containers) {
				if (container.zooKeeperProxy != null) {
					container.zooKeeperProxy.close();
				}
			}
		}
		catch (IOException ex) {
			System.err.println("Could not stop the chaos cluster: " + ex.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void stopQuietly(Node node) throws InterruptedException {
		try {
			node.signal("CONT");
			node.stop();
		}
		catch (IOException | RuntimeException ex) {
			System.err.println("Could not stop " + node.name + ": " + ex.getMessage());
		}
	}

	/** Where a server is. */
	enum State {
		UP, DOWN, PAUSED, STARTING, CUT_OFF, DISK_FULL
	}

	/** One server of the cluster: started, signalled, started again. */
	abstract static class Node {

		final String name;

		final int port;

		private State state = State.DOWN;

		/** The number of times it was started. */
		int starts;

		Node(String name, int port) {
			this.name = name;
			this.port = port;
		}

		synchronized State state() {
			return this.state;
		}

		synchronized void state(State state) {
			this.state = state;
		}

		/** Moves to {@code to} only from {@code from}; whether it did. */
		synchronized boolean take(State from, State to) {
			if (this.state != from) {
				return false;
			}
			this.state = to;
			return true;
		}

		/** The process id of the running server, or -1. */
		abstract long pid();

		/** Starts the server and returns once it answers; its state is then {@link State#UP}. */
		final void start() throws IOException, InterruptedException {
			this.starts++;
			doStart();
			state(State.UP);
		}

		abstract void doStart() throws IOException, InterruptedException;

		/** Whether its process is alive. */
		boolean alive() {
			long pid = pid();
			return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
		}

		/** Sends {@code SIG<signal>} to the server's process (no-op when it has none). */
		void signal(String signal) throws IOException, InterruptedException {
			long pid = pid();
			if (pid <= 0 || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
				return;
			}
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
				.start();
			kill.getInputStream().readAllBytes();
			kill.waitFor(10, TimeUnit.SECONDS);
		}

		/** Waits up to {@code timeout} for the process to exit, then kills it; returns the time it took. */
		Duration awaitExit(Duration timeout) throws IOException, InterruptedException {
			long started = System.nanoTime();
			long pid = pid();
			Optional<ProcessHandle> handle = (pid > 0) ? ProcessHandle.of(pid) : Optional.empty();
			if (handle.isPresent()) {
				long deadline = started + timeout.toNanos();
				while (handle.get().isAlive() && System.nanoTime() < deadline) {
					Thread.sleep(100);
				}
				if (handle.get().isAlive()) {
					signal("KILL");
					while (handle.get().isAlive()) {
						Thread.sleep(100);
					}
				}
			}
			return Duration.ofNanos(System.nanoTime() - started);
		}

		/** Stops the server for good (SIGTERM, SIGKILL after 30 s). */
		void stop() throws IOException, InterruptedException {
			signal("TERM");
			awaitExit(Duration.ofSeconds(30));
			state(State.DOWN);
		}
	}

	/** The ZooKeeper server, {@code java -jar xd.jar zookeeper}. */
	final class ZooKeeperNode extends Node {

		private volatile Process process;

		ZooKeeperNode(int port) {
			super("zookeeper", port);
		}

		@Override
		long pid() {
			Process current = this.process;
			return (current == null) ? -1 : current.pid();
		}

		@Override
		void doStart() throws IOException, InterruptedException {
			Path log = ChaosCluster.this.work.resolve("zookeeper.log");
			List<String> command = new ArrayList<>(List.of(Bench.javaCommand(), "-Xms64m", "-Xmx256m",
					"-XX:+UseSerialGC"));
			command.addAll(ChaosCluster.this.bench.serverJar());
			command.addAll(List.of("zookeeper", "--port=" + this.port,
					"--dir=" + ChaosCluster.this.work.resolve("zookeeper-data")));
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (!Net.isOpen("127.0.0.1", this.port)) {
				if (!this.process.isAlive() || System.nanoTime() > deadline) {
					this.process.destroyForcibly();
					throw new IOException("ZooKeeper did not start; see " + log);
				}
				Thread.sleep(100);
			}
		}
	}

	/** A Kafka broker, through {@code bin/kafka-local} (a KRaft node that is broker and controller). */
	final class BrokerNode extends Node {

		private final int nodeId;

		private final int controllerPort;

		private final Path dir;

		/** Whether its data directory is a tmpfs of its own, which a fault may fill. */
		volatile boolean mounted;

		BrokerNode(String name, int nodeId, int port, int controllerPort) {
			super(name, port);
			this.nodeId = nodeId;
			this.controllerPort = controllerPort;
			this.dir = ChaosCluster.this.work.resolve((nodeId == 1) ? "kafka" : "kafka-" + nodeId);
		}

		/** The broker's data directory (its log.dirs). */
		Path data() {
			return this.dir.resolve("data");
		}

		private Path filler() {
			return data().resolve("chaos-filler");
		}

		/** Fills its data directory with a file of the suite's until no byte is left; returns the bytes written. */
		long fillDisk() throws IOException {
			long written = 0;
			byte[] block = new byte[1 << 20];
			try (java.io.OutputStream out = Files.newOutputStream(filler())) {
				while (true) {
					out.write(block);
					written += block.length;
				}
			}
			catch (IOException ex) {
				if (written == 0 && !Files.exists(filler())) {
					throw ex;
				}
				// no space left: full
			}
			return written;
		}

		/** Removes the filler file. */
		void freeDisk() throws IOException {
			Files.deleteIfExists(filler());
		}

		/** Where its log ends now: what {@link #gaveUpSince} reads from. */
		long logMark() {
			try {
				return Files.size(log());
			}
			catch (IOException ex) {
				return 0;
			}
		}

		/** Whether its log, from {@code mark} on, says it is shutting down on its own ({@link #gaveUp}). */
		boolean gaveUpSince(long mark) {
			return gaveUp(log(), mark);
		}

		private Path log() {
			return this.dir.resolve("broker.log");
		}

		@Override
		long pid() {
			try {
				return Long.parseLong(Files.readString(this.dir.resolve("broker.pid")).strip());
			}
			catch (IOException | NumberFormatException ex) {
				return -1;
			}
		}

		@Override
		void doStart() throws IOException, InterruptedException {
			int status = script("start");
			if (status != 0) {
				throw new IOException("bin/kafka-local start failed with status " + status + "; see " + this.dir);
			}
		}

		@Override
		void stop() throws IOException, InterruptedException {
			script("stop");
			state(State.DOWN);
		}

		private int script(String command) throws IOException, InterruptedException {
			ProcessBuilder builder = new ProcessBuilder(
					ChaosCluster.this.bench.home().resolve("bin/kafka-local").toString(), command)
				.directory(ChaosCluster.this.bench.home().toFile())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(ChaosCluster.this.work.resolve("kafka-local.out")
					.toFile()));
			Map<String, String> env = builder.environment();
			env.put("KAFKA_PORT", Integer.toString(this.port));
			env.put("KAFKA_CONTROLLER_PORT", Integer.toString(this.controllerPort));
			env.put("XD_KAFKA_DIR", this.dir.toString());
			int brokers = ChaosCluster.this.brokerNodes.size();
			String heap = (brokers == 1) ? "-Xms512m -Xmx512m" : "-Xms256m -Xmx384m";
			env.put("KAFKA_BROKER_JAVA_OPTS", heap + " -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true");
			if (brokers > 1) {
				env.put("KAFKA_NODE_ID", Integer.toString(this.nodeId));
				env.put("KAFKA_QUORUM_VOTERS", ChaosCluster.this.brokerNodes.stream()
					.map(broker -> broker.nodeId + "@127.0.0.1:" + broker.controllerPort)
					.collect(Collectors.joining(",")));
				env.put("KAFKA_CLUSTER_ID", ChaosCluster.this.clusterId);
				env.put("KAFKA_EXTRA_PROPERTIES", ChaosCluster.this.replicatedProperties().toString());
			}
			return builder.start().waitFor();
		}
	}

	/** An admin or a container, {@code java -jar xd.jar admin|container}. */
	final class XdNode extends Node {

		private final String mode;

		volatile Singlenode server;

		private volatile Path log;

		/** The port a container reaches ZooKeeper on: its own proxy's ({@link CuttableProxy}); ZooKeeper's for an admin. */
		int zooKeeperPort;

		/** The container's ZooKeeper proxy; null for an admin. */
		volatile CuttableProxy zooKeeperProxy;

		XdNode(String name, String mode, int port) {
			super(name, port);
			this.mode = mode;
		}

		@Override
		long pid() {
			Singlenode current = this.server;
			return (current == null) ? -1 : current.pid();
		}

		@Override
		void doStart() throws IOException, InterruptedException {
			List<String> args = new ArrayList<>(Singlenode.CLUSTER_USER);
			int zooKeeper = (this.zooKeeperProxy != null) ? this.zooKeeperPort : ChaosCluster.this.zooKeeper.port;
			args.addAll(List.of("--zk.client.connect=127.0.0.1:" + zooKeeper,
					"--zk.sessionTimeout=" + SESSION_TIMEOUT.toSeconds() + "s", "--transport=kafka",
					"--xd.messagebus.kafka.brokers=" + brokers(), "--logging.level.org.apache.kafka=WARN"));
			if (replicas() > 1) {
				args.add("--xd.messagebus.kafka.default.replicationFactor=" + replicas());
			}
			if (this.mode.equals("container")) {
				args.add("--xd.container.id=" + this.name);
			}
			String logName = this.name + "-" + this.starts + ".log";
			this.log = ChaosCluster.this.work.resolve(logName);
			Singlenode previous = this.server;
			if (previous != null) {
				previous.close();
			}
			this.server = Singlenode.start(ChaosCluster.this.bench, ChaosCluster.this.work, this.name, logName,
					this.mode, this.port, SERVER_JAVA_OPTIONS, args.toArray(String[]::new));
		}

		@Override
		void stop() throws IOException, InterruptedException {
			Singlenode current = this.server;
			if (current != null) {
				signal("CONT");
				current.close();
			}
			state(State.DOWN);
		}

		/** Whether this admin's log says it leads: its last leadership line. */
		boolean leads() {
			Path current = this.log;
			if (current == null) {
				return false;
			}
			try {
				String text = Files.readString(current, StandardCharsets.UTF_8);
				return text.lastIndexOf("is now the leader") > text.lastIndexOf("is no longer the leader");
			}
			catch (IOException ex) {
				return false;
			}
		}
	}
}
