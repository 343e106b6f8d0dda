package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import io.xd.core.ServerLaunch;

/**
 * What every suite of one run shares: where the project and the results are, the JVM to start servers with, the
 * machine description and the run's date, the progress lines on standard error, and the local Kafka broker.
 */
final class Bench implements AutoCloseable {

	/** JVM options of a server when {@code XD_SERVER_JAVA_OPTS} is not set (see {@code bin/lib/common.sh}). */
	static final String DEFAULT_SERVER_JAVA_OPTS = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:MaxTenuringThreshold=1";

	static final String BROKER = "127.0.0.1:9092";

	final JsonMapper mapper = JsonMapper.builder().build();

	private final Path home;

	private final Path out;

	private final String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();

	private final long started = System.nanoTime();

	private final String label;

	private boolean startedBroker;

	/** Whether a suite of this run used the local broker: its topics are deleted when the run ends. */
	private boolean usedBroker;

	/** Stops the broker this run started when the runner is interrupted (Ctrl-C, SIGTERM). */
	private final Thread stopBrokerOnExit = new Thread(this::stopBroker, "stop-kafka-local");

	Bench(Path home, String label) {
		this.home = home;
		this.out = home.resolve("target").resolve("bench");
		this.label = label;
	}

	/**
	 * What a command-line entry point runs once its arguments are parsed.
	 *
	 * @param <T> the options
	 */
	interface Command<T> {

		void run(Bench bench, T options) throws Exception;

	}

	/**
	 * The body of a {@code main} method: parses the arguments (exit status 2 with the parser's message when they
	 * are bad), prints {@code usage} when help was asked for, else runs {@code command} and exits with status 1 and
	 * the failure's message when it fails (and its stack trace when it is a runtime exception: a fault of the runner).
	 */
	static <T> void main(String label, String usage, String[] args, Function<String[], T> parse, Predicate<T> help,
			Command<T> command) {
		T options;
		try {
			options = parse.apply(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(2);
			return;
		}
		if (help.test(options)) {
			System.out.println(usage);
			return;
		}
		try (Bench bench = new Bench(projectHome(), label)) {
			command.run(bench, options);
		}
		catch (Exception ex) {
			System.err.println(label + ": " + ex.getMessage());
			if (ex instanceof RuntimeException) {
				// a fault of the runner itself, not of what it measured: where it happened is what to fix
				ex.printStackTrace();
			}
			System.exit(1);
		}
	}

	/** The project directory: {@code XD_HOME}, else the working directory. */
	static Path projectHome() {
		String home = System.getenv("XD_HOME");
		return Path.of(home != null && !home.isBlank() ? home : ".").toAbsolutePath().normalize();
	}

	Path home() {
		return this.home;
	}

	/** What runs the built server after {@code java} and its options: its extracted form when current (fast start). */
	List<String> serverJar() {
		return ServerLaunch.jarArguments(this.home.resolve("server/target"));
	}

	/** {@code target/bench}, created on first use. */
	Path out() throws IOException {
		return Files.createDirectories(this.out);
	}

	/** A fresh work directory under {@code target/bench} (emptied if it existed). */
	Path freshDirectory(String name) throws IOException {
		Path dir = out().resolve(name);
		if (Files.exists(dir)) {
			try (var paths = Files.walk(dir)) {
				for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
					Files.delete(path);
				}
			}
		}
		return Files.createDirectories(dir);
	}

	/**
	 * A suffix that makes this run's stream names, and so their Kafka topics, new on a broker that keeps topics of
	 * earlier runs: letters and digits from the run's start time.
	 */
	String runId() {
		return "t" + Long.toString(Instant.parse(this.date).getEpochSecond() % 10_000_000L, 36);
	}

	String date() {
		return this.date;
	}

	/** The JVM options of a server: {@code XD_SERVER_JAVA_OPTS}, else {@link #DEFAULT_SERVER_JAVA_OPTS}. */
	static List<String> serverJavaOptions() {
		String opts = System.getenv("XD_SERVER_JAVA_OPTS");
		opts = (opts == null || opts.isBlank()) ? DEFAULT_SERVER_JAVA_OPTS : opts;
		return List.of(opts.strip().split("\\s+"));
	}

	/** The JVM options of {@code bin/xd-container --small}, which {@code bin/xd-bench} passes on from common.sh. */
	static List<String> smallJavaOptions() {
		String opts = System.getenv("XD_SMALL_JAVA_OPTS");
		if (opts == null || opts.isBlank()) {
			throw new IllegalStateException("XD_SMALL_JAVA_OPTS is not set: run the benchmarks through bin/xd-bench, "
					+ "which takes it from bin/lib/common.sh");
		}
		return List.of(opts.strip().split("\\s+"));
	}

	/** The java command this runner runs on, for the servers it starts. */
	static String javaCommand() {
		return ProcessHandle.current().info().command().orElse("java");
	}

	/** The {@code machine} object of a suite's JSON: cpus, Java version, operating system. */
	ObjectNode machine() {
		ObjectNode machine = this.mapper.createObjectNode();
		machine.put("cpus", Runtime.getRuntime().availableProcessors());
		machine.put("java", System.getProperty("java.version"));
		machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
		return machine;
	}

	/** A progress line on standard error: {@code [xd-bench 12s] message}. */
	void progress(String message) {
		System.err.printf(Locale.ROOT, "[%s %ds] %s%n", this.label, seconds(), message);
	}

	long seconds() {
		return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - this.started);
	}

	/** Starts {@code bin/kafka-local} unless a broker answers on {@link #BROKER}; {@link #close()} stops it. */
	synchronized void ensureBroker() throws IOException, InterruptedException {
		this.usedBroker = true;
		if (this.startedBroker || Net.isOpen("127.0.0.1", 9092)) {
			return;
		}
		progress("starting the local Kafka broker (bin/kafka-local)");
		int status = script("kafka-local", "start");
		if (status != 0) {
			throw new IOException("bin/kafka-local start failed with status " + status);
		}
		this.startedBroker = true;
		Runtime.getRuntime().addShutdownHook(this.stopBrokerOnExit);
	}

	/** Runs one of the project's scripts in {@code bin/}, its output on standard error; returns its status. */
	int script(String name, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(this.home.resolve("bin").resolve(name).toString());
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).directory(this.home.toFile())
			// appended, not truncated: standard error may be a file that the progress lines also go to
			.redirectOutput(ProcessBuilder.Redirect.appendTo(Path.of("/dev/stderr").toFile()))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		return process.waitFor();
	}

	@Override
	public void close() {
		deleteRunTopics();
		if (this.startedBroker) {
			try {
				Runtime.getRuntime().removeShutdownHook(this.stopBrokerOnExit);
			}
			catch (IllegalStateException ex) {
				return; // shutting down: the hook stops the broker
			}
		}
		stopBroker();
	}

	/**
	 * Deletes the topics of this run's streams and suites from the local broker ({@link #runId()} is in every one of
	 * their names), so that runs do not pile their records up on its disk: the broker keeps a topic a day unless it
	 * is deleted, and a full run writes tens of GB. Best effort: a broker that does not answer keeps them.
	 */
	private void deleteRunTopics() {
		if (!this.usedBroker || !Net.isOpen("127.0.0.1", 9092)) {
			return;
		}
		try (KafkaOffsets offsets = new KafkaOffsets(BROKER)) {
			int deleted = offsets.deleteTopicsNaming(runId());
			if (deleted > 0) {
				progress("deleted this run's " + deleted + " topic(s) from the local broker");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			System.err.println("Could not delete this run's topics from the local broker: " + ex.getMessage());
		}
	}

	private synchronized void stopBroker() {
		if (this.startedBroker) {
			this.startedBroker = false;
			try {
				script("kafka-local", "stop");
			}
			catch (IOException ex) {
				System.err.println("Could not stop the local Kafka broker: " + ex.getMessage());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}
}
