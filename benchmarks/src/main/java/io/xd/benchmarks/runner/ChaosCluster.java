package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code chaos} suite's cluster, each server a process of its own on 127.0.0.1: a ZooKeeper server ({@code xd.jar
 * zookeeper}), one Kafka broker ({@code bin/kafka-local} with a port and directory of its own), two admins and three
 * containers on the Kafka transport. Every server keeps its port and data directory across restarts; each start of an
 * XD server logs to a file of its own ({@code <name>-<n>.log}).
 */
final class ChaosCluster implements AutoCloseable {

	/** The JVM options of the admins and containers: small heaps, for eight JVMs on a small machine. */
	static final List<String> SERVER_JAVA_OPTIONS = List.of("-Xms64m", "-Xmx320m", "-XX:+UseSerialGC",
			"-XX:TieredStopAtLevel=1", "-Xss512k", "-XX:+ExitOnOutOfMemoryError");

	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);

	private final Bench bench;

	private final Path work;

	final ZooKeeperNode zooKeeper;

	final BrokerNode broker;

	final List<XdNode> admins = new ArrayList<>();

	final List<XdNode> containers = new ArrayList<>();

	/** Stops the cluster when the runner is interrupted (Ctrl-C, SIGTERM). */
	private final Thread stopOnExit = new Thread(this::stopAll, "stop-chaos-cluster");

	ChaosCluster(Bench bench, Path work) {
		this.bench = bench;
		this.work = work;
		this.zooKeeper = new ZooKeeperNode(Net.freePort(12181));
		this.broker = new BrokerNode(Net.freePort(19092), Net.freePort(19192));
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

	String brokers() {
		return "127.0.0.1:" + this.broker.port;
	}

	/** Starts every server, ZooKeeper and the broker first, the containers last (each through its ZooKeeper proxy). */
	void start() throws IOException, InterruptedException {
		for (XdNode container : this.containers) {
			container.zooKeeperProxy = new CuttableProxy(container.zooKeeperPort, this.zooKeeper.port);
		}
		this.bench.progress("chaos: starting ZooKeeper on 127.0.0.1:" + this.zooKeeper.port + " and a Kafka broker on "
				+ brokers());
		this.zooKeeper.start();
		this.broker.start();
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

	List<Node> all() {
		List<Node> all = new ArrayList<>();
		all.add(this.zooKeeper);
		all.add(this.broker);
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
			stopQuietly(this.broker);
			stopQuietly(this.zooKeeper);
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
		UP, DOWN, PAUSED, STARTING, CUT_OFF
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
			List<String> command = List.of(Bench.javaCommand(), "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-jar",
					ChaosCluster.this.bench.home().resolve("server/target/xd.jar").toString(), "zookeeper",
					"--port=" + this.port, "--dir=" + ChaosCluster.this.work.resolve("zookeeper-data"));
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

	/** The Kafka broker, through {@code bin/kafka-local} (a KRaft node that is broker and controller). */
	final class BrokerNode extends Node {

		private final int controllerPort;

		private final Path dir;

		BrokerNode(int port, int controllerPort) {
			super("broker", port);
			this.controllerPort = controllerPort;
			this.dir = ChaosCluster.this.work.resolve("kafka");
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
			env.put("KAFKA_BROKER_JAVA_OPTS", "-Xms512m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 "
					+ "-Djava.awt.headless=true");
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
