package io.xd.server;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A standalone ZooKeeper server for a distributed XD on one machine, for users without an ensemble of their own:
 * {@code java -jar xd.jar zookeeper [--port=2181] [--dir=<data directory>]} ({@code bin/zookeeper-local start}).
 * It listens on 127.0.0.1 only and runs until stopped (SIGTERM or Ctrl-C).
 */
final class StandaloneZooKeeper {

	private StandaloneZooKeeper() {
	}

	static void run(String[] args) throws Exception {
		int port = 2181;
		Path dir = Path.of(System.getProperty("user.home"), ".xd", "zookeeper");
		for (String arg : args) {
			if (arg.startsWith("--port=")) {
				port = Integer.parseInt(arg.substring("--port=".length()));
			}
			else if (arg.startsWith("--dir=")) {
				dir = Path.of(arg.substring("--dir=".length()));
			}
			else {
				System.err.println("Unknown argument: " + arg);
				System.err.println("Usage: java -jar xd.jar zookeeper [--port=2181] [--dir=<data directory>]");
				System.exit(2);
			}
		}
		EmbeddedZooKeeper server = new EmbeddedZooKeeper(dir, port);
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			server.close();
			stopped.countDown();
		}, "zookeeper-shutdown"));
		System.out.println("ZooKeeper listening on " + server.connectString() + ", data in " + dir);
		stopped.await();
	}
}
