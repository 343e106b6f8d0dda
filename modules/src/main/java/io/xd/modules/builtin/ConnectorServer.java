package io.xd.modules.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;

/**
 * The server a connector module ({@code mail}, {@code sftp}) reaches, from its options: either a connection the
 * operator declared ({@code --connection=<name>}, credentials, TLS and properties included), or a literal
 * {@code --host} (and {@code --port}) of the operator's {@code xd.modules.connect.allowed-hosts}, reached without
 * credentials: a connection's credentials never go to a host the definition names. Giving both is refused, and so is
 * {@code --port} with a connection (the connection says where).
 *
 * @param host the host to connect to
 * @param port the port to connect to, or 0 when a connection gives none (the protocol's default, which may depend on
 * the connection's TLS setting: {@link #portOr})
 * @param connection the declared connection, or a connection to the literal host without credentials or properties
 * @param shown how messages name the server: {@code connection 'mail' (smtp.example.com:25)} or {@code host:port}
 * @param hostOption the option that named a literal host, or null for a declared connection
 */
public record ConnectorServer(String host, int port, Connection connection, String shown, String hostOption) {

	/**
	 * Resolves and checks the server of a connector module's options.
	 * @param connectionOption the {@code connection} option, whose default names the module's default connection
	 * @param hostOption the {@code host} option, without default
	 * @param portOption the {@code port} option, without default
	 * @param defaultPort the port of a literal host when {@code --port} is not given
	 * @throws ModuleOptionException for an unknown connection, a host the operator does not allow, or both given
	 */
	public static ConnectorServer resolve(String module, ModuleOptions options, HostAccess access,
			ModuleOption<String> connectionOption, ModuleOption<String> hostOption, ModuleOption<Integer> portOption,
			int defaultPort) {
		String host = options.get(hostOption);
		Integer port = options.get(portOption);
		if (host != null) {
			if (options.isGiven(connectionOption)) {
				throw new ModuleOptionException(module, List.of("options '" + hostOption.name() + "' and '"
						+ connectionOption.name() + "' are refused together: name a declared connection, or an "
						+ "allowed host that is reached without credentials"));
			}
			int actualPort = (port == null) ? defaultPort : port;
			access.checkConnectHost(hostOption.name(), host, actualPort);
			return new ConnectorServer(host, actualPort, Connection.of(host, actualPort), host + ":" + actualPort,
					hostOption.name());
		}
		String name = options.get(connectionOption);
		if (port != null) {
			throw new ModuleOptionException(module, List.of("option '" + portOption.name() + "' is refused with a "
					+ "connection: the connection '" + name + "' gives the port (xd.connections." + name + ".port)"));
		}
		Connection connection = access.connection(connectionOption.name(), name);
		return new ConnectorServer(connection.host(), connection.port(), connection, "connection '" + name + "' ("
				+ connection.host() + ((connection.port() == 0) ? "" : ":" + connection.port()) + ")", null);
	}

	/**
	 * Refuses the credential options a definition gives ({@code --password}, a private key...): credentials are the
	 * operator's, declared with a connection.
	 * @param what names where the operator declares them instead, e.g. {@code xd.connections.<name>.password}
	 * @throws ModuleOptionException naming every credential option given
	 */
	public static void refuseCredentials(String module, ModuleOptions options, String what,
			List<ModuleOption<?>> credentialOptions) {
		List<String> problems = new ArrayList<>();
		for (ModuleOption<?> option : credentialOptions) {
			if (options.isGiven(option)) {
				problems.add("option '" + option.name() + "' is refused: a definition carries no credentials; the "
						+ "operator declares them with a connection (" + what + "), and --connection=<name> uses it");
			}
		}
		if (!problems.isEmpty()) {
			throw new ModuleOptionException(module, problems);
		}
	}

	/**
	 * Checks a literal host again as the module connects: the operator's list may have changed, and the name may
	 * resolve elsewhere now (the client resolves it once more, so a name that changes within milliseconds is not
	 * caught: allow names you control). A declared connection needs no check.
	 * @throws ModuleOptionException naming the host option when the host is no longer allowed
	 */
	public void checkStillAllowed(HostAccess access) {
		if (this.hostOption != null) {
			access.checkConnectHost(this.hostOption, this.host, this.port);
		}
	}

	/** The port, or {@code defaultPort} when a connection gives none. */
	public int portOr(int defaultPort) {
		return (this.port == 0) ? defaultPort : this.port;
	}

	/** The connection's properties (empty for a literal host). */
	public Map<String, String> properties() {
		return this.connection.properties();
	}

	/** The user of the connection, or null. */
	public String username() {
		return this.connection.username();
	}

	/** The password of the connection, or null. */
	public String password() {
		return this.connection.password();
	}
}
