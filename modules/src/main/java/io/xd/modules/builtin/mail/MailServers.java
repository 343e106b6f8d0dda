package io.xd.modules.builtin.mail;

import java.util.Properties;

import io.xd.modules.ModuleOption;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.DefaultPort;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;

/**
 * What the {@code mail} sink and source share: their connection options and the Jakarta Mail settings of a server.
 * TLS comes from the connection only: {@code xd.connections.<name>.tls=true} connects over TLS from the start (SMTPS,
 * IMAPS), its property {@code starttls=true} upgrades a plain connection and refuses a server that cannot, and its
 * property {@code ssl.trust} (Jakarta Mail's {@code mail.<protocol>.ssl.trust}: hosts separated by spaces, or
 * {@code *}) trusts those hosts' certificates without a trust store, and its property
 * {@code ssl.checkserveridentity=false} accepts a certificate that does not name the host (both for a test server's
 * self-signed certificate). Nothing in a definition weakens TLS.
 */
final class MailServers {

	/** Milliseconds to connect, and to wait for each read or write, before a mail server is given up. */
	static final int TIMEOUT_MILLIS = 30_000;

	static final String STARTTLS_PROPERTY = "starttls";

	static final String SSL_TRUST_PROPERTY = "ssl.trust";

	static final String CHECK_IDENTITY_PROPERTY = "ssl.checkserveridentity";

	private MailServers() {
	}

	/** The {@code connection} option, naming a declared mail server. */
	static ModuleOption<String> connectionOption() {
		return ConnectorServer.connectionOption("mail", "host, port, username, password, tls, properties.starttls, "
				+ "properties.ssl.trust, properties.ssl.checkserveridentity", "host");
	}

	static ModuleOption<String> hostOption() {
		return ConnectorServer.hostOption("host", "credentials or TLS");
	}

	static ModuleOption<String> usernameOption() {
		return ModuleOption.ofString("username")
			.withDescription("not accepted: the connection names the user (xd.connections.<name>.username)");
	}

	/**
	 * The server options of the {@code mail} sink or source: a declared connection, or an allowed host reached without
	 * credentials; {@code --username} and {@code --password} refused.
	 */
	static ServerOptions serverOptions(ModuleOption<String> connection, ModuleOption<String> host,
			ModuleOption<Integer> port, ModuleOption<String> username, ModuleOption<String> password,
			DefaultPort defaultPort) {
		return ConnectorServer.singleHost("mail", connection, host, port, defaultPort)
			.refusing("xd.connections.<name>.username, .password", username, password);
	}

	/**
	 * The Jakarta Mail properties for a protocol ({@code smtp}, {@code smtps}, {@code imap}, {@code imaps}) on a
	 * server: host, port, timeouts, server identity checks, and the connection's STARTTLS and trust settings.
	 */
	static Properties properties(String protocol, ConnectorServer server) {
		Properties properties = new Properties();
		String prefix = "mail." + protocol + ".";
		properties.setProperty(prefix + "host", server.host());
		properties.setProperty(prefix + "port", Integer.toString(server.port()));
		properties.setProperty(prefix + "connectiontimeout", Integer.toString(TIMEOUT_MILLIS));
		properties.setProperty(prefix + "timeout", Integer.toString(TIMEOUT_MILLIS));
		properties.setProperty(prefix + "writetimeout", Integer.toString(TIMEOUT_MILLIS));
		properties.setProperty(prefix + "ssl.checkserveridentity",
				Boolean.toString(!"false".equalsIgnoreCase(server.properties().get(CHECK_IDENTITY_PROPERTY))));
		if (server.username() != null && protocol.startsWith("smtp")) {
			properties.setProperty(prefix + "auth", "true");
		}
		if (Boolean.parseBoolean(server.properties().get(STARTTLS_PROPERTY))) {
			properties.setProperty(prefix + "starttls.enable", "true");
			properties.setProperty(prefix + "starttls.required", "true");
		}
		String trust = server.properties().get(SSL_TRUST_PROPERTY);
		if (trust != null) {
			properties.setProperty(prefix + "ssl.trust", trust);
		}
		return properties;
	}
}
