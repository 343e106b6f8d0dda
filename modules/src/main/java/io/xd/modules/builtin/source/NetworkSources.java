package io.xd.modules.builtin.source;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.function.Function;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;

/** What the network sources share: the address option, binding errors that name the port, and peer headers. */
final class NetworkSources {

	/** Header: the peer's IP address, as text. */
	static final String PEER_ADDRESS = "ip_address";

	/** Header: the peer's port. */
	static final String PEER_PORT = "ip_port";

	static final ModuleOption<String> ADDRESS = ModuleOption.ofString("address")
		.withDefault("127.0.0.1")
		.withRule(NetworkSources::isResolvable, "be an IP address or a resolvable host name")
		.withDescription("the local address to listen on; 0.0.0.0 listens on every interface");

	/** Reads the {@code port} option of whichever source, whatever its default. */
	private static final ModuleOption<Integer> ANY_PORT = ModuleOption.ofInt("port");

	private NetworkSources() {
	}

	/** A port option with a default, checked to lie in 0..65535 (0 picks a free port). */
	static ModuleOption<Integer> port(int defaultPort) {
		return ModuleOption.ofInt("port")
			.withDefault(defaultPort)
			.withRule(port -> port >= 0 && port <= 65535, "be between 0 and 65535")
			.withDescription("the port to listen on");
	}

	/**
	 * The {@code address} and {@code port} to bind to, as the operator allows them; every network source declares both
	 * options.
	 */
	static InetSocketAddress bindAddress(ModuleContext context) {
		return context.hostAccess().bindAddress(context.options().get(ADDRESS), context.options().get(ANY_PORT));
	}

	/** The provider of a network source: its address and port are checked against what the operator allows. */
	abstract static class Provider extends AbstractModuleProvider {

		Provider(ModuleMetadata metadata, Function<ModuleContext, ? extends Module> factory) {
			super(metadata, factory);
		}

		@Override
		public final void checkAccess(ModuleOptions options, HostAccess access) {
			access.bindAddress(options.get(ADDRESS), options.get(ANY_PORT));
		}
	}

	/** The exception {@code start} throws when the socket cannot be bound: it names the module and the port. */
	static IllegalStateException cannotBind(ModuleContext context, String module, InetSocketAddress address,
			IOException cause) {
		String reason = (cause.getMessage() != null) ? cause.getMessage() : cause.getClass().getSimpleName();
		return new IllegalStateException("The " + module + " source of stream '" + context.streamName()
				+ "' cannot listen on port " + address.getPort() + " of " + address.getHostString() + ": " + reason
				+ " (is the port in use by another stream or program?)", cause);
	}

	/** A message of {@code payload} with a fresh id, the receive time as its timestamp, and the peer headers. */
	static <T> MessageBuilder<T> received(T payload, InetSocketAddress peer) {
		return MessageBuilder.withPayload(payload)
			.setHeader(PEER_ADDRESS, peer.getAddress().getHostAddress())
			.setHeader(PEER_PORT, peer.getPort());
	}

	static <T> Message<T> message(T payload, InetSocketAddress peer) {
		return received(payload, peer).build();
	}

	/**
	 * Sends downstream; a refusal ({@code send} returning false) becomes an exception, so that the caller reports
	 * it rather than losing the message silently.
	 */
	static void send(MessageChannel output, Message<?> message) {
		if (!output.send(message)) {
			throw new MessageDeliveryException(message, "the stream did not accept the message");
		}
	}

	/** {@code 127.0.0.1:54321}, for log lines. */
	static String describe(InetSocketAddress peer) {
		return peer.getAddress().getHostAddress() + ":" + peer.getPort();
	}

	private static boolean isResolvable(String host) {
		try {
			InetAddress.getByName(host);
			return true;
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}
}
