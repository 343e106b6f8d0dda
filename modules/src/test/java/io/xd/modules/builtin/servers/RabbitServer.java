package io.xd.modules.builtin.servers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A RabbitMQ broker (Debian package {@code rabbitmq-server}) run in the foreground as a node of its own,
 * {@code xdtest-<random>@localhost}, with AMQP on a free port of 127.0.0.1, its own Erlang distribution and epmd ports
 * (so it neither meets nor disturbs another node on the machine), its cookie, database, logs and configuration in a
 * temporary folder, and no plugins. The user {@code guest} (password {@code guest}) may connect from 127.0.0.1. It
 * starts in a few seconds: start one per test class.
 */
public final class RabbitServer extends TestServer {

	private final int port;

	private final int epmdPort;

	private RabbitServer() {
		super("rabbitmq");
		this.port = freePort();
		this.epmdPort = freePort();
		write("enabled_plugins", "[].\n");
		write("rabbitmq.conf", "listeners.tcp.default = 127.0.0.1:" + this.port + "\n");
		Map<String, String> environment = environment();
		Path server = executable("rabbitmq-server", "/usr/lib/rabbitmq/bin/rabbitmq-server", "rabbitmq-server");
		launch(List.of(server.toString()), environment, this.port, Duration.ofSeconds(60));
	}

	private Map<String, String> environment() {
		Path dir = directory();
		return Map.ofEntries(Map.entry("HOME", dir.toString()),
				Map.entry("RABBITMQ_NODENAME", "xdtest-" + UUID.randomUUID().toString().substring(0, 8) + "@localhost"),
				Map.entry("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"),
				Map.entry("RABBITMQ_NODE_PORT", Integer.toString(this.port)),
				Map.entry("RABBITMQ_DIST_PORT", Integer.toString(freePort())),
				Map.entry("ERL_EPMD_PORT", Integer.toString(this.epmdPort)),
				Map.entry("ERL_EPMD_ADDRESS", "127.0.0.1"),
				Map.entry("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString()),
				Map.entry("RABBITMQ_LOG_BASE", dir.resolve("log").toString()),
				Map.entry("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq").toString()),
				Map.entry("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString()),
				Map.entry("RABBITMQ_PID_FILE", dir.resolve("rabbitmq.pid").toString()));
	}

	/** Starts a broker. */
	public static RabbitServer start() {
		return new RabbitServer();
	}

	/** The AMQP port on 127.0.0.1. */
	public int port() {
		return this.port;
	}

	/** The node's own epmd (Erlang's port mapper) ends with it. */
	@Override
	protected void afterStop() {
		try {
			Path epmd = executable("erlang-base", "epmd", "/usr/bin/epmd");
			run(List.of(epmd.toString(), "-port", Integer.toString(this.epmdPort), "-kill"), Map.of());
		}
		catch (IllegalStateException ex) {
			// an epmd that is not on the PATH, or already gone, is left as it is
		}
	}
}
