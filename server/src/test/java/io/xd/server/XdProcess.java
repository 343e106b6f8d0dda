package io.xd.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.xd.core.ServerLaunch;

/**
 * An XD process forked from the built jar ({@code target/xd.jar}, made in the package phase before the integration
 * tests run, extracted with its class data sharing archive as {@link ServerLaunch} says): {@code java -jar xd.jar
 * <mode> <args>}, its output in a log file.
 */
final class XdProcess implements AutoCloseable {

	private static final Path JAR = Path.of("target", "xd.jar").toAbsolutePath();

	private final String name;

	private final Process process;

	private final Path log;

	private XdProcess(String name, Process process, Path log) {
		this.name = name;
		this.process = process;
		this.log = log;
	}

	static XdProcess start(Path logDirectory, String name, String mode, List<String> args) {
		return start(logDirectory, name, mode, args, false);
	}

	/**
	 * As {@link #start(Path, String, String, List)}; with {@code packed}, from {@code xd.jar} itself (the form that
	 * ships, its libraries nested) rather than its extracted form.
	 */
	static XdProcess start(Path logDirectory, String name, String mode, List<String> args, boolean packed) {
		if (!Files.isRegularFile(JAR)) {
			throw new IllegalStateException(JAR + " is missing: the integration tests run after the package phase");
		}
		List<String> command = new ArrayList<>(List.of(java(), "-Xms256m", "-Xmx256m", "-XX:TieredStopAtLevel=1",
				"-XX:+UseSerialGC"));
		command.addAll(packed ? List.of("-jar", JAR.toString()) : ServerLaunch.jarArguments(JAR.getParent()));
		command.add(mode);
		command.addAll(args);
		return fork(logDirectory, name, command);
	}

	/**
	 * A process running {@code mainClass} of the tests' own class path (a Kafka broker, say), with {@code jvmOptions}.
	 */
	static XdProcess startClass(Path logDirectory, String name, List<String> jvmOptions, String mainClass,
			List<String> args) {
		List<String> command = new ArrayList<>(List.of(java()));
		command.addAll(jvmOptions);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
		command.addAll(args);
		return fork(logDirectory, name, command);
	}

	private static XdProcess fork(Path logDirectory, String name, List<String> command) {
		try {
			Files.createDirectories(logDirectory);
			Path log = logDirectory.resolve(name + ".log");
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			return new XdProcess(name, process, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Waits until the process ends and returns its exit code; fails when it runs past {@code timeout}. */
	int awaitExit(Duration timeout) {
		try {
			if (!this.process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
				this.process.destroyForcibly();
				throw new IllegalStateException(this.name + " did not end within " + timeout + ":\n" + tail());
			}
			return this.process.exitValue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static String java() {
		return ProcessHandle.current().info().command().orElse("java");
	}

	/** Waits until the log contains {@code text}; fails with the log's end when the process dies or time runs out. */
	XdProcess awaitLog(String text, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (log().contains(text)) {
				return this;
			}
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.name + " exited with " + this.process.exitValue()
						+ " before logging '" + text + "':\n" + tail());
			}
			sleep(100);
		}
		throw new IllegalStateException(this.name + " did not log '" + text + "' within " + timeout + ":\n" + tail());
	}

	String log() {
		try {
			return Files.readString(this.log, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			return "";
		}
	}

	String tail() {
		String all = log();
		return all.substring(Math.max(0, all.length() - 4000));
	}

	/** SIGKILL: no shutdown hook runs, the ZooKeeper session is left to expire. */
	void kill() {
		this.process.destroyForcibly();
		waitFor();
	}

	String name() {
		return this.name;
	}

	long pid() {
		return this.process.pid();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** SIGTERM, then SIGKILL after 20 s. */
	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroy();
			try {
				if (!this.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
					this.process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.process.destroyForcibly();
			}
		}
	}

	private void waitFor() {
		try {
			this.process.waitFor();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** {@code common} followed by {@code more}: the arguments of one process among several that share most. */
	static List<String> with(List<String> common, String... more) {
		List<String> all = new ArrayList<>(common);
		all.addAll(List.of(more));
		return all;
	}

	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Sleeps, turning an interrupt into a failure of the test (with the interrupt status kept). */
	static void pause(Duration duration) {
		sleep(duration.toMillis());
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}
}
