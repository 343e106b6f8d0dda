package io.xd.modules.builtin.mqtt;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttTopic;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

import org.springframework.integration.mqtt.core.DefaultMqttPahoClientFactory;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.Address;
import io.xd.modules.builtin.ConnectorServer.DefaultPort;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The connection options the {@code mqtt} source and sink share, Spring XD's names: a declared connection
 * ({@code --connection}, default {@code mqtt}, with its user, password and TLS flag), or {@code --url} of allowed hosts
 * with {@code --username} and no password. The Eclipse Paho v3 client connects, through Spring Integration's client
 * factory, reconnecting by itself when the connection is lost.
 */
final class MqttConnections {

	private static final int PORT = 1883;

	private static final int TLS_PORT = 8883;

	static final ModuleOption<String> CONNECTION = ConnectorServer.connectionOption("mqtt",
			"host, port, username, password, tls", "url");

	static final ModuleOption<String> URL = ModuleOption.ofString("url")
		.withRule(MqttConnections::isUrlList, "be tcp://host[:port] or ssl://host[:port], comma-separated")
		.withDescription("the broker as tcp://host[:port] (1883) or ssl://host[:port] (8883), several comma-separated, "
				+ "allowed for the operator's xd.modules.connect.allowed-hosts only; prefer connection");

	static final ModuleOption<String> USERNAME = ModuleOption.ofString("username")
		.withDescription("the user, with url (a connection names its own user and password); none by default");

	static final ModuleOption<String> PASSWORD = ConnectorServer.passwordOption();

	static final ModuleOption<Boolean> CLEAN_SESSION = ModuleOption.ofBoolean("cleanSession")
		.withDefault(true)
		.withDescription("start a new session at each connection; false keeps the client's subscriptions and "
				+ "unacknowledged QoS 1 and 2 messages at the broker between connections");

	static final ModuleOption<Integer> CONNECTION_TIMEOUT = ModuleOption.ofInt("connectionTimeout")
		.withDefault(30)
		.withMin(1)
		.withMax(300)
		.withDescription("the seconds a connection attempt may take");

	static final ModuleOption<Integer> KEEP_ALIVE_INTERVAL = ModuleOption.ofInt("keepAliveInterval")
		.withDefault(60)
		.withMin(0)
		.withMax(65535)
		.withDescription("the seconds between keep-alive pings (0: none)");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(ModuleSupport::isCharset, "be a character set this JVM supports")
		.withDescription("the character set between text payloads and MQTT's bytes");

	static final List<ModuleOption<?>> OPTIONS = List.of(CONNECTION, URL, USERNAME, PASSWORD, CLEAN_SESSION,
			CONNECTION_TIMEOUT, KEEP_ALIVE_INTERVAL, CHARSET);

	/** A declared connection, or URLs of allowed hosts with their own user and no password. */
	static final ServerOptions SERVER = ConnectorServer
		.hostList("mqtt", CONNECTION, URL, MqttConnections::literalAddresses, DefaultPort.of(PORT, TLS_PORT))
		.refusing("xd.connections.<name>.host, .port, .username, .password", PASSWORD)
		.withLiteralOnly(USERNAME);

	private MqttConnections() {
	}

	/** The broker a module's options name, checked again against the operator's settings as the module connects. */
	static Target target(ModuleContext context) {
		ModuleOptions options = context.options();
		ConnectorServer server = SERVER.resolve(options, context.hostAccess());
		MqttConnectOptions connect = new MqttConnectOptions();
		List<String> urls = server.addresses().stream()
			.map(address -> ConnectorServer.url(address.tls() ? "ssl" : "tcp", address.host(), address.port()))
			.map(URI::toString)
			.toList();
		connect.setServerURIs(urls.toArray(String[]::new));
		String user = server.isLiteral() ? options.get(USERNAME) : server.username();
		if (user != null) {
			connect.setUserName(user);
		}
		if (server.password() != null) {
			connect.setPassword(server.password().toCharArray());
		}
		String shown = server.isLiteral() ? String.join(",", urls)
				: "connection '" + options.get(CONNECTION) + "' (" + urls.get(0) + ")";
		connect.setCleanSession(options.get(CLEAN_SESSION));
		connect.setConnectionTimeout(options.get(CONNECTION_TIMEOUT));
		connect.setKeepAliveInterval(options.get(KEEP_ALIVE_INTERVAL));
		connect.setHttpsHostnameVerificationEnabled(true);
		connect.setAutomaticReconnect(true);
		return new Target(connect, shown, options.get(CONNECTION_TIMEOUT) * 1000L);
	}

	/**
	 * A broker to connect to: Paho's connection options (credentials included) and how to name the broker in messages
	 * (never with the password).
	 */
	record Target(MqttConnectOptions options, String shown, long timeoutMillis) {

		/** Spring Integration's client factory for these options. */
		DefaultMqttPahoClientFactory clientFactory() {
			DefaultMqttPahoClientFactory factory = new DefaultMqttPahoClientFactory();
			factory.setConnectionOptions(this.options);
			return factory;
		}

		/**
		 * Connects once with a client id of its own and a clean session, and disconnects, so that a wrong broker or
		 * wrong credentials fail the module's start with the broker's reason rather than a reconnecting loop.
		 */
		void probe(String module) {
			MqttConnectOptions once = copy(this.options);
			try {
				MqttClient client = new MqttClient(this.options.getServerURIs()[0], MqttClient.generateClientId(),
						new MemoryPersistence());
				try {
					client.connect(once);
					client.disconnect();
				}
				finally {
					client.close();
				}
			}
			catch (MqttException ex) {
				throw new IllegalStateException("The mqtt " + module + " cannot connect to " + this.shown + ": "
						+ ex.getMessage() + " (reason code " + ex.getReasonCode() + ")", ex);
			}
		}

		private static MqttConnectOptions copy(MqttConnectOptions options) {
			MqttConnectOptions once = new MqttConnectOptions();
			once.setServerURIs(options.getServerURIs());
			once.setUserName(options.getUserName());
			if (options.getPassword() != null) {
				once.setPassword(options.getPassword());
			}
			once.setConnectionTimeout(options.getConnectionTimeout());
			once.setHttpsHostnameVerificationEnabled(options.isHttpsHostnameVerificationEnabled());
			once.setCleanSession(true);
			once.setAutomaticReconnect(false);
			return once;
		}
	}

	/** Whether a text is a valid MQTT topic name (no wildcards) or, with {@code filter}, topic filter. */
	static boolean isTopic(String topic, boolean filter) {
		try {
			MqttTopic.validate(topic, filter);
			return !topic.isEmpty();
		}
		catch (IllegalArgumentException | IllegalStateException ex) {
			return false;
		}
	}

	private static boolean isUrlList(String text) {
		try {
			return !urls(text).isEmpty();
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static List<Address> literalAddresses(ModuleOptions options) {
		return urls(options.get(URL)).stream()
			.map(url -> new Address(url.getHost(), url.getPort(), "ssl".equals(url.getScheme())))
			.toList();
	}

	/** The URLs of {@code --url}, each with its port (the scheme's default when it has none). */
	static List<URI> urls(String text) {
		return ConnectorServer.urls(ModuleSupport.commaList(text), Map.of("tcp", PORT, "ssl", TLS_PORT));
	}
}
