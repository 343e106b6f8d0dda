package io.xd.modules.builtin.mail;

import java.util.Properties;

import io.xd.modules.ModuleOption;
import io.xd.modules.builtin.ConnectorServer;

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

	static ModuleOption<String> connectionOption() {
		return ModuleOption.ofString("connection")
			.withDefault("mail")
			.withDescription("the name of a mail server the operator declared (xd.connections.<name>: host, port, "
					+ "username, password, tls, properties.starttls, properties.ssl.trust, properties.ssl.checkserveridentity)");
	}

	static ModuleOption<String> hostOption() {
		return ModuleOption.ofString("host")
			.withDescription("instead of a connection, a host of the operator's xd.modules.connect.allowed-hosts, "
					+ "reached without credentials or TLS");
	}

	static ModuleOption<Integer> portOption(String defaultPort) {
		return ModuleOption.ofInt("port")
			.withMin(1)
			.withMax(65535)
			.withDescription("the port of host (" + defaultPort + " when not given); a connection gives its own");
	}

	static ModuleOption<String> usernameOption() {
		return ModuleOption.ofString("username")
			.withDescription("not accepted: the connection names the user (xd.connections.<name>.username)");
	}

	static ModuleOption<String> passwordOption() {
		return ModuleOption.ofString("password")
			.withDescription("not accepted: a definition carries no password (xd.connections.<name>.password)");
	}

	/**
	 * The Jakarta Mail properties for a protocol ({@code smtp}, {@code smtps}, {@code imap}, {@code imaps}) on a
	 * server: host, port, timeouts, server identity checks, and the connection's STARTTLS and trust settings.
	 */
	static Properties properties(String protocol, ConnectorServer server, int port) {
		Properties properties = new Properties();
		String prefix = "mail." + protocol + ".";
		properties.setProperty(prefix + "host", server.host());
		properties.setProperty(prefix + "port", Integer.toString(port));
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
