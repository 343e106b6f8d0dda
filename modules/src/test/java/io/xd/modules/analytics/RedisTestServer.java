package io.xd.modules.analytics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real {@code redis-server} (Debian's package) started on a free port of 127.0.0.1 with a temporary directory and
 * no persistence, for the tests of the Redis analytics store; {@link #close()} stops it.
 */
public final class RedisTestServer implements AutoCloseable {

	private static final Path BINARY = Path.of("/usr/bin/redis-server");

	private final Process process;

	private final int port;

	private RedisTestServer(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts a server and waits until it accepts connections.
	 * @throws AssertionError when {@code redis-server} is not installed, saying what installs it
	 */
	public static RedisTestServer start(Path directory) {
		if (!Files.isExecutable(BINARY)) {
			throw new AssertionError("This test needs " + BINARY + ": build-support/install-test-servers installs it "
					+ "(apt-get install -y redis-server)");
		}
		int port = freePort();
		try {
			Files.createDirectories(directory);
			Process process = new ProcessBuilder(List.of(BINARY.toString(), "--port", Integer.toString(port), "--bind",
					"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.toString()))
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("redis.log").toFile())
				.start();
			RedisTestServer server = new RedisTestServer(process, port);
			server.awaitListening(Duration.ofSeconds(20), directory.resolve("redis.log"));
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + BINARY, ex);
		}
	}

	public int port() {
		return this.port;
	}

	private void awaitListening(Duration timeout, Path log) throws IOException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("redis-server exited: " + Files.readString(log));
			}
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
				return;
			}
			catch (IOException notYet) {
				sleep();
			}
		}
		close();
		throw new IllegalStateException("redis-server did not listen on port " + this.port + " within " + timeout);
	}

	private static void sleep() {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
