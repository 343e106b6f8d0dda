package io.xd.modules;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A server that the operator declared for connector modules ({@code rabbit}, {@code mqtt}, {@code redis},
 * {@code mail}, {@code sftp}, ...) under a name, as {@code xd.connections.<name>.host}, {@code .port},
 * {@code .username}, {@code .password}, {@code .tls} and free {@code .properties.*} (a RabbitMQ virtual host, an MQTT
 * client setting). A definition names it ({@code --connection=<name>}); it never carries the password, which is never
 * shown ({@link #toString()} masks it).
 *
 * @param host the server's host name or IP literal
 * @param port the server's port, or 0 for the protocol's default
 * @param username the user, or null
 * @param password the password, or null
 * @param tls whether the module connects over TLS
 * @param properties further settings of the connection, by name (never secrets: they may be shown)
 */
public record Connection(String host, int port, String username, String password, boolean tls,
		Map<String, String> properties) {

	public Connection {
		Objects.requireNonNull(host, "host");
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException("The port " + port + " of connection host " + host + " is not 0-65535");
		}
		properties = (properties == null) ? Map.of() : Map.copyOf(properties);
	}

	/** A connection to {@code host:port} without credentials, TLS or properties. */
	public static Connection of(String host, int port) {
		return new Connection(host, port, null, null, false, Map.of());
	}

	/** The port, or {@code defaultPort} when the connection gives none. */
	public int portOr(int defaultPort) {
		return (this.port == 0) ? defaultPort : this.port;
	}

	/** A property of the connection, or {@code defaultValue}. */
	public String property(String name, String defaultValue) {
		return this.properties.getOrDefault(name, defaultValue);
	}

	@Override
	public String toString() {
		return "Connection[host=" + this.host + ", port=" + this.port + ", username=" + this.username + ", password="
				+ ((this.password == null) ? "none" : ModuleOption.MASK) + ", tls=" + this.tls + ", properties="
				+ new TreeMap<>(this.properties) + "]";
	}
}
