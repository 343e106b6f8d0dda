package io.xd.modules.builtin;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;

/**
 * The server a connector module ({@code rabbit}, {@code mqtt}, {@code redis}, {@code mail}, {@code sftp}, {@code tcp})
 * reaches, from its options: either a connection the operator declared ({@code --connection=<name>}, credentials, TLS
 * and properties included), or a literal host option ({@code --host} and {@code --port}, Spring XD's
 * {@code --hostname}, or a list such as {@code --addresses} and {@code --url}) naming hosts of the operator's
 * {@code xd.modules.connect.allowed-hosts}, reached without credentials: a connection's credentials never go to a host
 * the definition names. A definition never carries credentials ({@code --password}, a private key...): those options
 * are declared, so that a Spring XD definition gets a clear answer, and refused. Giving both a connection and a
 * literal host is refused, and so are the options that only go with a literal host ({@code --port}, a user, a virtual
 * host...) beside a connection: the connection says where and as whom. A module declares these rules once, as
 * {@link ServerOptions}, and {@linkplain ServerOptions#resolve resolves} its server with them when the stream is
 * created and again as it connects.
 *
 * @param addresses the servers to connect to, at least one: the connection's, or the literal hosts with their ports
 * @param connection the declared connection, or a connection to the (first) literal host without credentials or
 * properties
 * @param shown how messages name the server: {@code connection 'mail' (smtp.example.com:25)} or {@code host:port,...}
 * @param hostOption the option that named literal hosts, or null for a declared connection
 */
public record ConnectorServer(List<Address> addresses, Connection connection, String shown, String hostOption) {

	/** The text of the {@code password} option: a definition carries no password. */
	private static final String NO_PASSWORD = "not accepted: a definition carries no password; the operator declares "
			+ "it with the connection (xd.connections.<name>.password)";

	public ConnectorServer {
		addresses = List.copyOf(addresses);
		if (addresses.isEmpty()) {
			throw new IllegalArgumentException("A connector server needs an address");
		}
	}

	/**
	 * One server to connect to.
	 * @param host a host name or IP literal (an IPv6 literal as its option gave it, bracketed in a URL)
	 * @param port the port
	 * @param tls whether the module talks TLS to it
	 */
	public record Address(String host, int port, boolean tls) {

		@Override
		public String toString() {
			return this.host + ":" + this.port;
		}
	}

	/** The port a server gets when its option or its connection gives none, which may depend on TLS. */
	@FunctionalInterface
	public interface DefaultPort {

		/** The port for a definition's options, over TLS or not. */
		int port(ModuleOptions options, boolean tls);

		/** The same port with and without TLS. */
		static DefaultPort of(int port) {
			return of(port, port);
		}

		/** {@code plain}, or {@code tls} over TLS. */
		static DefaultPort of(int plain, int tls) {
			return (options, overTls) -> overTls ? tls : plain;
		}
	}

	/**
	 * A module's server options and the rules between them; immutable, built once per module with
	 * {@link #singleHost} or {@link #hostList}.
	 * @param module the module's name, for messages
	 * @param connectionOption the {@code connection} option; without a default, the literal host is used unless it is
	 * given
	 * @param hostOption the literal host option
	 * @param literalHosts the literal hosts a definition names (called when it names them)
	 * @param defaultPort the port of a connection that gives none
	 * @param literalOnly options refused beside a connection
	 * @param credentials options refused in every definition
	 * @param credentialsDeclared where the operator declares the credentials instead, for the message
	 */
	public record ServerOptions(String module, ModuleOption<String> connectionOption, ModuleOption<?> hostOption,
			Function<ModuleOptions, List<Address>> literalHosts, DefaultPort defaultPort,
			List<ModuleOption<?>> literalOnly, List<ModuleOption<?>> credentials, String credentialsDeclared) {

		/** These rules, also refusing {@code options} in every definition ({@code where}: where they are declared). */
		public ServerOptions refusing(String where, ModuleOption<?>... options) {
			List<ModuleOption<?>> all = new ArrayList<>(this.credentials);
			all.addAll(Arrays.asList(options));
			return new ServerOptions(this.module, this.connectionOption, this.hostOption, this.literalHosts,
					this.defaultPort, this.literalOnly, List.copyOf(all), where);
		}

		/** These rules, also refusing {@code options} beside a connection (they go with a literal host only). */
		public ServerOptions withLiteralOnly(ModuleOption<?>... options) {
			List<ModuleOption<?>> all = new ArrayList<>(this.literalOnly);
			all.addAll(Arrays.asList(options));
			return new ServerOptions(this.module, this.connectionOption, this.hostOption, this.literalHosts,
					this.defaultPort, List.copyOf(all), this.credentials, this.credentialsDeclared);
		}

		/**
		 * Checks and resolves the server of a definition: refuses credentials, a connection beside a literal host, and
		 * literal-host options beside a connection; checks every literal host against the operator's allowed hosts;
		 * looks the connection up.
		 * @throws ModuleOptionException naming the option and why
		 */
		public ConnectorServer resolve(ModuleOptions options, HostAccess access) {
			refuseCredentials(options);
			String name = options.get(this.connectionOption);
			if (name == null || options.isGiven(this.hostOption)) {
				if (options.isGiven(this.connectionOption)) {
					throw refused("options '" + this.connectionOption.name() + "' and '" + this.hostOption.name()
							+ "' are refused together: name a declared connection, or an allowed host that is reached "
							+ "without credentials");
				}
				List<Address> addresses = this.literalHosts.apply(options);
				for (Address address : addresses) {
					access.checkConnectHost(this.hostOption.name(), address.host(), address.port());
				}
				Address first = addresses.get(0);
				return new ConnectorServer(addresses, Connection.of(first.host(), first.port()),
						addresses.stream().map(Address::toString).collect(Collectors.joining(",")),
						this.hostOption.name());
			}
			for (ModuleOption<?> option : this.literalOnly) {
				if (options.isGiven(option)) {
					throw refused("option '" + option.name() + "' is refused with a connection: the connection '" + name
							+ "' says where and as whom (xd.connections." + name + ".*; give --"
							+ this.hostOption.name() + " to name a host instead)");
				}
			}
			Connection connection = access.connection(this.connectionOption.name(), name);
			Address address = new Address(connection.host(),
					connection.portOr(this.defaultPort.port(options, connection.tls())), connection.tls());
			return new ConnectorServer(List.of(address), connection, "connection '" + name + "' (" + address + ")",
					null);
		}

		/** {@link #resolve}, for a provider's access check. */
		public void check(ModuleOptions options, HostAccess access) {
			resolve(options, access);
		}

		private void refuseCredentials(ModuleOptions options) {
			List<String> problems = new ArrayList<>();
			for (ModuleOption<?> option : this.credentials) {
				if (options.isGiven(option)) {
					problems.add("option '" + option.name() + "' is refused: a definition carries no credentials; the "
							+ "operator declares them with a connection (" + this.credentialsDeclared
							+ "), and --connection=<name> uses it");
				}
			}
			if (!problems.isEmpty()) {
				throw new ModuleOptionException(this.module, problems);
			}
		}

		private ModuleOptionException refused(String problem) {
			return new ModuleOptionException(this.module, List.of(problem));
		}
	}

	/**
	 * The server options of a module that names one literal host and its port ({@code --host}, {@code --port}); the
	 * port option goes with the host only.
	 * @param defaultPort the port of a literal host without {@code --port} (asked without TLS), and of a connection
	 * that gives none
	 */
	public static ServerOptions singleHost(String module, ModuleOption<String> connectionOption,
			ModuleOption<String> hostOption, ModuleOption<Integer> portOption, DefaultPort defaultPort) {
		Function<ModuleOptions, List<Address>> literal = options -> {
			Integer port = options.get(portOption);
			int actual = (port == null) ? defaultPort.port(options, false) : port;
			return List.of(new Address(options.get(hostOption), actual, false));
		};
		return new ServerOptions(module, connectionOption, hostOption, literal, defaultPort, List.of(portOption),
				List.of(), "");
	}

	/**
	 * The server options of a module whose host option is a list of hosts, each with its port and TLS flag (Spring
	 * XD's {@code --addresses} of {@code rabbit}, {@code --url} of {@code mqtt}).
	 * @param literalHosts the hosts a definition's option names, with their ports (an option rule has checked it)
	 * @param defaultPort the port of a connection that gives none
	 */
	public static ServerOptions hostList(String module, ModuleOption<String> connectionOption,
			ModuleOption<String> hostOption, Function<ModuleOptions, List<Address>> literalHosts,
			DefaultPort defaultPort) {
		return new ServerOptions(module, connectionOption, hostOption, literalHosts, defaultPort, List.of(), List.of(),
				"");
	}

	/**
	 * The {@code connection} option, naming a declared server.
	 * @param defaultName the connection used when no host is given, or null: then the literal host is used unless a
	 * connection is given
	 * @param settings what the operator declares for it, e.g. {@code host, port, username, password, tls}
	 * @param hostOptions the literal host options it stands instead of, e.g. {@code host and port}
	 */
	public static ModuleOption<String> connectionOption(String defaultName, String settings, String hostOptions) {
		ModuleOption<String> option = ModuleOption.ofString("connection")
			.withRule(name -> !name.isBlank(), "be the name of a declared connection")
			.withDescription("the name of a server the operator declared (xd.connections.<name>: " + settings + "); "
					+ ((defaultName == null) ? "instead of " + hostOptions
							: "used unless " + hostOptions + " is given"));
		return (defaultName == null) ? option : option.withDefault(defaultName);
	}

	/**
	 * A literal host option, without default.
	 * @param reachedWithout what the host is reached without, e.g. {@code credentials or TLS}
	 */
	public static ModuleOption<String> hostOption(String name, String reachedWithout) {
		return ModuleOption.ofString(name)
			.withDescription("instead of a connection, a host of the operator's xd.modules.connect.allowed-hosts, "
					+ "reached without " + reachedWithout);
	}

	/**
	 * The {@code port} option of a literal host, without default.
	 * @param whenNotGiven the port used without it, e.g. {@code 25}
	 */
	public static ModuleOption<Integer> portOption(String hostOption, String whenNotGiven) {
		return ModuleOption.ofInt("port")
			.withMin(1)
			.withMax(65535)
			.withDescription("the port of " + hostOption + " (" + whenNotGiven + " when not given); a connection gives "
					+ "its own");
	}

	/** Spring XD's {@code password} option, declared to be refused ({@link ServerOptions#refusing}). */
	public static ModuleOption<String> passwordOption() {
		return ModuleOption.ofString("password").withDescription(NO_PASSWORD);
	}

	/**
	 * The servers of a list of URLs {@code scheme://host[:port]} (no user, path, query or fragment), each with its
	 * port: its scheme's default when it has none. Spring XD's host lists are such lists, or lists of
	 * {@code host[:port]} that read as URLs once a scheme is put in front.
	 * @param defaultPorts the schemes accepted, with their default ports
	 * @throws IllegalArgumentException naming the first item that is not such a URL
	 */
	public static List<URI> urls(List<String> items, Map<String, Integer> defaultPorts) {
		List<URI> urls = new ArrayList<>();
		for (String item : items) {
			URI uri;
			try {
				uri = new URI(item);
			}
			catch (URISyntaxException ex) {
				throw new IllegalArgumentException(item, ex);
			}
			Integer defaultPort = (uri.getScheme() == null) ? null : defaultPorts.get(uri.getScheme());
			if (defaultPort == null || uri.getHost() == null || uri.getUserInfo() != null
					|| !(uri.getRawPath() == null || uri.getRawPath().isEmpty()) || uri.getRawQuery() != null
					|| uri.getRawFragment() != null) {
				throw new IllegalArgumentException(item);
			}
			urls.add(url(uri.getScheme(), uri.getHost(), (uri.getPort() == -1) ? defaultPort : uri.getPort()));
		}
		return urls;
	}

	/** The URL {@code scheme://host:port} (an IPv6 literal in brackets). */
	public static URI url(String scheme, String host, int port) {
		try {
			return new URI(scheme, null, host, port, null, null, null);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException(host, ex);
		}
	}

	/** Whether the definition named literal hosts (else a declared connection). */
	public boolean isLiteral() {
		return this.hostOption != null;
	}

	/** The (first) host. */
	public String host() {
		return this.addresses.get(0).host();
	}

	/** The (first) port: the option's, the connection's, or the default one. */
	public int port() {
		return this.addresses.get(0).port();
	}

	/** Whether the module talks TLS to the (first) server. */
	public boolean tls() {
		return this.addresses.get(0).tls();
	}

	/**
	 * Checks the literal hosts again as the module connects: the operator's list may have changed, and the names may
	 * resolve elsewhere now (the client resolves them once more, so a name that changes within milliseconds is not
	 * caught: allow names you control). A declared connection needs no check.
	 * @throws ModuleOptionException naming the host option when a host is no longer allowed
	 */
	public void checkStillAllowed(HostAccess access) {
		if (this.hostOption != null) {
			for (Address address : this.addresses) {
				access.checkConnectHost(this.hostOption, address.host(), address.port());
			}
		}
	}

	/** The connection's properties (empty for a literal host). */
	public Map<String, String> properties() {
		return this.connection.properties();
	}

	/** The user of the connection, or null (always for a literal host). */
	public String username() {
		return this.connection.username();
	}

	/** The password of the connection, or null (always for a literal host). */
	public String password() {
		return this.connection.password();
	}
}
