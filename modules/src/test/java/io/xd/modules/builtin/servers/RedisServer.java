package io.xd.modules.builtin.servers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code redis-server} (Debian package {@code redis-server}) on a free port of 127.0.0.1, without persistence, in a
 * temporary folder; optionally requiring a password ({@code requirepass}), to test a connection's credentials.
 */
public final class RedisServer extends TestServer {

	private final int port;

	private RedisServer(String password) {
		super("redis");
		this.port = freePort();
		List<String> command = new ArrayList<>(List.of(executable("redis-server", "redis-server", "/usr/bin/redis-server")
			.toString(), "--port", Integer.toString(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
				"--dir", directory().toString(), "--daemonize", "no"));
		if (password != null) {
			command.addAll(List.of("--requirepass", password));
		}
		launch(command, Map.of(), this.port, Duration.ofSeconds(20));
	}

	/** Starts a server that needs no password. */
	public static RedisServer start() {
		return new RedisServer(null);
	}

	/** Starts a server whose default user needs this password. */
	public static RedisServer startWithPassword(String password) {
		return new RedisServer(password);
	}

	public int port() {
		return this.port;
	}
}
