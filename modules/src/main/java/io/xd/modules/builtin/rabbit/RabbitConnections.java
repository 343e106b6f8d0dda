package io.xd.modules.builtin.rabbit;

import java.net.URI;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.Address;
import io.xd.modules.builtin.ConnectorServer.DefaultPort;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The connection options the {@code rabbit} source and sink share, Spring XD's names: a declared connection
 * ({@code --connection}, default {@code rabbit}, whose property {@code virtual-host} names the virtual host), or
 * {@code --addresses} of allowed hosts with {@code --vhost}, {@code --username} and {@code --useSSL}. With addresses the
 * module logs in as {@code --username} with RabbitMQ's default password {@code guest}: a server with real credentials is
 * declared as a connection.
 */
final class RabbitConnections {

	/** The largest message body the modules accept from the broker (the AMQP client's own default). */
	static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

	private static final int PORT = 5672;

	private static final int TLS_PORT = 5671;

	static final ModuleOption<String> CONNECTION = ConnectorServer.connectionOption("rabbit",
			"host, port, username, password, tls", "addresses");

	static final ModuleOption<String> ADDRESSES = ModuleOption.ofString("addresses")
		.withRule(RabbitConnections::isAddressList, "be host[:port][,host[:port]...]")
		.withDescription("RabbitMQ servers as host[:port][,host[:port]...] (port 5672, 5671 with useSSL), allowed for "
				+ "the operator's xd.modules.connect.allowed-hosts only; prefer connection");

	static final ModuleOption<String> VHOST = ModuleOption.ofString("vhost")
		.withDefault("/")
		.withDescription("the virtual host, with addresses (a connection names it as its property virtual-host)");

	static final ModuleOption<String> USERNAME = ModuleOption.ofString("username")
		.withDefault("guest")
		.withDescription("the user, with addresses, who logs in with RabbitMQ's default password guest");

	static final ModuleOption<String> PASSWORD = ConnectorServer.passwordOption();

	static final ModuleOption<Boolean> USE_SSL = ModuleOption.ofBoolean("useSSL")
		.withDefault(false)
		.withDescription("connect over TLS, with addresses (a connection says so with its tls flag), verifying the "
				+ "server's certificate and host name against the JVM's trust store");

	static final List<ModuleOption<?>> OPTIONS = List.of(CONNECTION, ADDRESSES, VHOST, USERNAME, PASSWORD, USE_SSL);

	/** A declared connection, or addresses of allowed hosts with their own user and virtual host, never a password. */
	static final ServerOptions SERVER = ConnectorServer
		.hostList("rabbit", CONNECTION, ADDRESSES, RabbitConnections::literalAddresses, DefaultPort.of(PORT, TLS_PORT))
		.refusing("xd.connections.<name>.host, .port, .username, .password", PASSWORD)
		.withLiteralOnly(VHOST, USERNAME, USE_SSL);

	private RabbitConnections() {
	}

	/**
	 * A connection factory for the server a module's options name, checked again against the operator's settings as
	 * the module connects. It opens no connection yet.
	 */
	static Target connect(String module, ModuleContext context) {
		ModuleOptions options = context.options();
		ConnectorServer server = SERVER.resolve(options, context.hostAccess());
		com.rabbitmq.client.ConnectionFactory rabbit = new com.rabbitmq.client.ConnectionFactory();
		rabbit.setConnectionTimeout(10_000);
		rabbit.setMaxInboundMessageBodySize(MAX_MESSAGE_BYTES);
		CachingConnectionFactory factory = new CachingConnectionFactory(rabbit);
		String vhost;
		if (server.isLiteral()) {
			factory.setAddresses(String.join(",", server.addresses().stream().map(Address::toString).toList()));
			factory.setUsername(options.get(USERNAME));
			factory.setPassword("guest");
			vhost = options.get(VHOST);
		}
		else {
			factory.setHost(server.host());
			factory.setPort(server.port());
			if (server.username() != null) {
				factory.setUsername(server.username());
			}
			if (server.password() != null) {
				factory.setPassword(server.password());
			}
			vhost = server.connection().property("virtual-host", "/");
		}
		factory.setVirtualHost(vhost);
		if (server.tls()) {
			try {
				rabbit.useSslProtocol(SSLContext.getDefault());
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException("This JVM offers no TLS for the rabbit module", ex);
			}
			rabbit.enableHostnameVerification();
		}
		factory.setConnectionNameStrategy(ignored -> context.threadName(module));
		return new Target(factory, server.shown() + ", vhost " + vhost);
	}

	/** A connection factory and how to name its server in messages (never with a password). */
	record Target(CachingConnectionFactory factory, String shown) {
	}

	private static boolean isAddressList(String text) {
		try {
			return !addresses(text, false).isEmpty();
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static List<Address> literalAddresses(ModuleOptions options) {
		boolean tls = options.get(USE_SSL);
		return addresses(options.get(ADDRESSES), tls).stream()
			.map(address -> new Address(address.getHost(), address.getPort(), tls))
			.toList();
	}

	/** The addresses of {@code --addresses}, each with its port (the default one when it has none). */
	static List<URI> addresses(String text, boolean tls) {
		return ConnectorServer.urls(ModuleSupport.commaList(text).stream().map(item -> "amqp://" + item).toList(),
				Map.of("amqp", tls ? TLS_PORT : PORT));
	}
}
