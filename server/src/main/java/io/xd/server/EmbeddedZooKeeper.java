package io.xd.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Singlenode's ZooKeeper: a real ZooKeeper server in the same JVM, listening on 127.0.0.1 only, with its data on
 * disk so that stream definitions and deployments survive a restart.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

	private final ZooKeeperServerEmbedded server;

	private final int port;

	public EmbeddedZooKeeper(Path dataDirectory, int port) throws Exception {
		Files.createDirectories(dataDirectory);
		this.port = (port == 0) ? freePort() : port;
		Properties configuration = new Properties();
		configuration.setProperty("clientPort", Integer.toString(this.port));
		configuration.setProperty("clientPortAddress", "127.0.0.1");
		// sessions expire on tick boundaries: a short tick makes a dead container's departure seen promptly
		configuration.setProperty("tickTime", "500");
		configuration.setProperty("minSessionTimeout", "4000");
		configuration.setProperty("initLimit", "10");
		configuration.setProperty("syncLimit", "5");
		// no Jetty admin console on port 8080, no four-letter words beyond the defaults
		configuration.setProperty("admin.enableServer", "false");
		configuration.setProperty("maxSessionTimeout", "600000");
		this.server = ZooKeeperServerEmbedded.builder()
			.baseDir(dataDirectory)
			.configuration(configuration)
			.exitHandler(ExitHandler.LOG_ONLY)
			.build();
		this.server.start(30_000);
		logger.info("Embedded ZooKeeper listening on 127.0.0.1:{}, data in {}", this.port, dataDirectory);
	}

	public String connectString() {
		return "127.0.0.1:" + this.port;
	}

	@Override
	public void close() {
		this.server.close();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}
}
