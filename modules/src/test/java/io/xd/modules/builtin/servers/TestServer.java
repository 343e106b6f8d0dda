package io.xd.modules.builtin.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real server that a test starts as a process of its own, on free ports of 127.0.0.1, with its files in a new
 * temporary folder, and stops (its whole process tree) and deletes on {@link #close()}. Start one per test class
 * ({@code @BeforeAll}), not per test: the servers take from a fraction of a second (Redis, Mosquitto) to several seconds
 * (RabbitMQ) to start. The binaries come from the machine's packages; when one is missing, the start fails with a
 * message saying that {@code build-support/install-test-servers} installs it.
 */
public abstract class TestServer implements AutoCloseable {

	private final Path directory;

	private Process process;

	protected TestServer(String name) {
		try {
			this.directory = Files.createTempDirectory("xd-" + name + "-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The server's folder: configuration, data and its output ({@code server.log}). */
	public Path directory() {
		return this.directory;
	}

	/** A port free on 127.0.0.1 now (another process could take it before the server binds it: rare). */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The first of these executables that exists.
	 * @throws IllegalStateException naming the Debian package and the script that installs it
	 */
	protected static Path executable(String debianPackage, String... candidates) {
		for (String candidate : candidates) {
			Path path = Path.of(candidate);
			if (path.isAbsolute()) {
				if (Files.isExecutable(path)) {
					return path;
				}
				continue;
			}
			Optional<Path> found = Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
				.filter(dir -> !dir.isEmpty())
				.map(dir -> Path.of(dir, candidate))
				.filter(Files::isExecutable)
				.findFirst();
			if (found.isPresent()) {
				return found.get();
			}
		}
		throw new IllegalStateException("This test needs " + String.join(" or ", candidates) + " (Debian package "
				+ debianPackage + "): build-support/install-test-servers installs it");
	}

	/**
	 * Starts the server's process in its folder, its output going to {@code server.log}, and waits until it accepts
	 * connections on {@code port} of 127.0.0.1.
	 * @throws IllegalStateException with the end of the server's output when it exits or does not listen in time
	 */
	protected void launch(List<String> command, Map<String, String> environment, int port, Duration timeout) {
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(this.directory.resolve("server.log").toFile());
		builder.environment().putAll(environment);
		try {
			this.process = builder.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + command.get(0), ex);
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!accepts(port)) {
			if (!this.process.isAlive() || System.nanoTime() > deadline) {
				String log = log();
				close();
				throw new IllegalStateException(command.get(0) + " did not listen on 127.0.0.1:" + port + " within "
						+ timeout + "; its output ends with:\n" + log);
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				close();
				throw new IllegalStateException("Interrupted while starting " + command.get(0), ex);
			}
		}
	}

	/**
	 * Waits until the started server also accepts connections on another port.
	 * @throws IllegalStateException with the end of the server's output when it does not in time
	 */
	protected void awaitListening(int port, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!accepts(port)) {
			if (System.nanoTime() > deadline) {
				String log = log();
				close();
				throw new IllegalStateException("The server did not listen on 127.0.0.1:" + port + " within " + timeout
						+ "; its output ends with:\n" + log);
			}
			Thread.onSpinWait();
		}
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** The last 4000 characters the server wrote. */
	public String log() {
		try {
			String text = Files.readString(this.directory.resolve("server.log"), StandardCharsets.UTF_8);
			return (text.length() > 4000) ? text.substring(text.length() - 4000) : text;
		}
		catch (IOException ex) {
			return "(no output: " + ex.getMessage() + ")";
		}
	}

	/** Writes a file of the server's folder. */
	protected Path write(String name, String content) {
		try {
			return Files.writeString(this.directory.resolve(name), content, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Runs a helper command of the server (a password tool, a control tool) and waits for it. */
	protected void run(List<String> command, Map<String, String> environment) {
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.directory.toFile()).redirectErrorStream(true);
		builder.environment().putAll(environment);
		try {
			Process helper = builder.start();
			String output = new String(helper.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!helper.waitFor(30, TimeUnit.SECONDS) || helper.exitValue() != 0) {
				helper.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted running " + command.get(0), ex);
		}
	}

	/** What a server does after its process tree ended (stop a helper daemon); nothing by default. */
	protected void afterStop() {
	}

	/** Stops the server's process tree (terminate, then kill after 10 s) and deletes its folder. */
	@Override
	public void close() {
		Process started = this.process;
		this.process = null;
		if (started != null) {
			List<ProcessHandle> tree = Stream.concat(started.descendants(), Stream.of(started.toHandle())).toList();
			tree.forEach(ProcessHandle::destroy);
			for (ProcessHandle handle : tree) {
				try {
					handle.onExit().get(10, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					handle.destroyForcibly();
				}
			}
			afterStop();
		}
		deleteRecursively(this.directory);
	}

	private static void deleteRecursively(Path root) {
		if (!Files.exists(root)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
		}
		catch (IOException ex) {
			// a leftover temporary folder is harmless
		}
	}
}
