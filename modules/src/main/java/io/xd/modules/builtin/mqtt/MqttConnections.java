package io.xd.modules.builtin.mqtt;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttTopic;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

import org.springframework.integration.mqtt.core.DefaultMqttPahoClientFactory;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.builtin.Connectors;
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

	static final ModuleOption<String> CONNECTION = Connectors.connectionOption("mqtt", "url");

	static final ModuleOption<String> URL = ModuleOption.ofString("url")
		.withRule(MqttConnections::isUrlList, "be tcp://host[:port] or ssl://host[:port], comma-separated")
		.withDescription("the broker as tcp://host[:port] (1883) or ssl://host[:port] (8883), several comma-separated, "
				+ "allowed for the operator's xd.modules.connect.allowed-hosts only; prefer connection");

	static final ModuleOption<String> USERNAME = ModuleOption.ofString("username")
		.withDescription("the user, with url (a connection names its own user and password); none by default");

	static final ModuleOption<String> PASSWORD = Connectors.passwordOption();

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

	private MqttConnections() {
	}

	/** Checks what a definition's connection options reach: a declared connection or allowed hosts, no password. */
	static void check(ModuleOptions options, HostAccess access) {
		if (literal(options)) {
			for (URI url : urls(options.get(URL))) {
				access.checkConnectHost(URL.name(), url.getHost(), url.getPort());
			}
		}
		else {
			Connectors.connection(access, options, CONNECTION);
		}
	}

	private static boolean literal(ModuleOptions options) {
		return Connectors.usesLiteralHost("mqtt", options, CONNECTION, PASSWORD, URL, List.of(USERNAME));
	}

	/** The broker a module's options name, checked again against the operator's settings as the module connects. */
	static Target target(ModuleContext context) {
		ModuleOptions options = context.options();
		check(options, context.hostAccess());
		MqttConnectOptions connect = new MqttConnectOptions();
		String shown;
		if (literal(options)) {
			List<String> urls = urls(options.get(URL)).stream().map(URI::toString).toList();
			connect.setServerURIs(urls.toArray(String[]::new));
			if (options.get(USERNAME) != null) {
				connect.setUserName(options.get(USERNAME));
			}
			shown = String.join(",", urls);
		}
		else {
			Connection connection = Connectors.connection(context.hostAccess(), options, CONNECTION);
			String scheme = connection.tls() ? "ssl" : "tcp";
			String url = uri(scheme, connection.host(), connection.portOr(connection.tls() ? TLS_PORT : PORT)).toString();
			connect.setServerURIs(new String[] { url });
			if (connection.username() != null) {
				connect.setUserName(connection.username());
			}
			if (connection.password() != null) {
				connect.setPassword(connection.password().toCharArray());
			}
			shown = "connection '" + options.get(CONNECTION) + "' (" + url + ")";
		}
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

	/** The URLs of {@code --url}, each with its port (the scheme's default when it has none). */
	static List<URI> urls(String text) {
		List<URI> urls = new ArrayList<>();
		for (String item : Connectors.commaList(text)) {
			URI uri;
			try {
				uri = new URI(item);
			}
			catch (URISyntaxException ex) {
				throw new IllegalArgumentException(item, ex);
			}
			String scheme = uri.getScheme();
			if (!("tcp".equals(scheme) || "ssl".equals(scheme)) || uri.getHost() == null || uri.getUserInfo() != null
					|| !(uri.getRawPath() == null || uri.getRawPath().isEmpty()) || uri.getRawQuery() != null
					|| uri.getRawFragment() != null) {
				throw new IllegalArgumentException(item);
			}
			urls.add(uri(scheme, uri.getHost(), (uri.getPort() == -1) ? ("ssl".equals(scheme) ? TLS_PORT : PORT)
					: uri.getPort()));
		}
		return urls;
	}

	private static URI uri(String scheme, String host, int port) {
		try {
			return new URI(scheme, null, host, port, null, null, null);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException(host, ex);
		}
	}
}
