package io.xd.modules.builtin.rabbit;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import javax.net.ssl.SSLContext;

import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.builtin.Connectors;

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

	static final ModuleOption<String> CONNECTION = Connectors.connectionOption("rabbit", "addresses");

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

	static final ModuleOption<String> PASSWORD = Connectors.passwordOption();

	static final ModuleOption<Boolean> USE_SSL = ModuleOption.ofBoolean("useSSL")
		.withDefault(false)
		.withDescription("connect over TLS, with addresses (a connection says so with its tls flag), verifying the "
				+ "server's certificate and host name against the JVM's trust store");

	static final List<ModuleOption<?>> OPTIONS = List.of(CONNECTION, ADDRESSES, VHOST, USERNAME, PASSWORD, USE_SSL);

	private RabbitConnections() {
	}

	/**
	 * Checks what a definition's connection options reach: a declared connection, or addresses of allowed hosts, and
	 * never a password.
	 */
	static void check(String module, ModuleOptions options, HostAccess access) {
		if (literal(module, options)) {
			boolean tls = options.get(USE_SSL);
			for (URI address : addresses(options.get(ADDRESSES), tls)) {
				access.checkConnectHost(ADDRESSES.name(), address.getHost(), address.getPort());
			}
		}
		else {
			Connectors.connection(access, options, CONNECTION);
		}
	}

	private static boolean literal(String module, ModuleOptions options) {
		return Connectors.usesLiteralHost(module, options, CONNECTION, PASSWORD, ADDRESSES,
				List.of(VHOST, USERNAME, USE_SSL));
	}

	/**
	 * A connection factory for the server a module's options name, checked again against the operator's settings as
	 * the module connects. It opens no connection yet.
	 */
	static Target connect(String module, ModuleContext context) {
		ModuleOptions options = context.options();
		check(module, options, context.hostAccess());
		com.rabbitmq.client.ConnectionFactory rabbit = new com.rabbitmq.client.ConnectionFactory();
		rabbit.setConnectionTimeout(10_000);
		rabbit.setMaxInboundMessageBodySize(MAX_MESSAGE_BYTES);
		CachingConnectionFactory factory = new CachingConnectionFactory(rabbit);
		String shown;
		boolean tls;
		if (literal(module, options)) {
			tls = options.get(USE_SSL);
			List<URI> addresses = addresses(options.get(ADDRESSES), tls);
			String list = addresses.stream().map(address -> address.getHost() + ":" + address.getPort())
				.collect(Collectors.joining(","));
			factory.setAddresses(list);
			factory.setUsername(options.get(USERNAME));
			factory.setPassword("guest");
			factory.setVirtualHost(options.get(VHOST));
			shown = list + " (vhost " + options.get(VHOST) + ")";
		}
		else {
			Connection connection = Connectors.connection(context.hostAccess(), options, CONNECTION);
			tls = connection.tls();
			int port = connection.portOr(tls ? TLS_PORT : PORT);
			factory.setHost(connection.host());
			factory.setPort(port);
			if (connection.username() != null) {
				factory.setUsername(connection.username());
			}
			if (connection.password() != null) {
				factory.setPassword(connection.password());
			}
			String vhost = connection.property("virtual-host", "/");
			factory.setVirtualHost(vhost);
			shown = "connection '" + options.get(CONNECTION) + "' (" + connection.host() + ":" + port + ", vhost "
					+ vhost + ")";
		}
		if (tls) {
			try {
				rabbit.useSslProtocol(SSLContext.getDefault());
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException("This JVM offers no TLS for the rabbit module", ex);
			}
			rabbit.enableHostnameVerification();
		}
		factory.setConnectionNameStrategy(ignored -> context.threadName(module));
		return new Target(factory, shown);
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

	/** The addresses of {@code --addresses}, each with its port (the default one when it has none). */
	static List<URI> addresses(String text, boolean tls) {
		List<URI> addresses = new ArrayList<>();
		for (String item : Connectors.commaList(text)) {
			URI uri;
			try {
				uri = new URI("amqp://" + item);
			}
			catch (URISyntaxException ex) {
				throw new IllegalArgumentException(item, ex);
			}
			if (uri.getHost() == null || uri.getUserInfo() != null || !uri.getRawPath().isEmpty()
					|| uri.getRawQuery() != null || uri.getRawFragment() != null) {
				throw new IllegalArgumentException(item);
			}
			int port = (uri.getPort() == -1) ? (tls ? TLS_PORT : PORT) : uri.getPort();
			try {
				addresses.add(new URI("amqp", null, uri.getHost(), port, null, null, null));
			}
			catch (URISyntaxException ex) {
				throw new IllegalArgumentException(item, ex);
			}
		}
		return addresses;
	}
}
