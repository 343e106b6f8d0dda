package io.xd.modules.builtin.source;

import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.util.List;
import java.util.function.BiFunction;

import org.springframework.core.serializer.Deserializer;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.builtin.tcp.TcpFraming;

/**
 * The {@code tcp} source: accepts TCP connections and sends every frame it reads, decoded to a {@code String} with
 * {@code charset}. How frames are delimited is the {@code decoder}'s choice (Spring Integration's deserializers); a
 * frame longer than {@code bufferSize} closes its connection with an error naming the peer. A stream that blocks
 * stops the reading of the connection that feeds it, so TCP's flow control holds the client back.
 */
public final class TcpSource implements Source {

	static final ModuleOption<Integer> PORT = NetworkSources.port(1234);

	static final ModuleOption<String> DECODER = TcpFraming.option("decoder", "how frames are delimited");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(Charset::isSupported, "be a charset the JVM knows")
		.withDescription("the charset that decodes each frame into text");

	static final ModuleOption<Integer> BUFFER_SIZE = ModuleOption.ofInt("bufferSize")
		.withDefault(2048)
		.withMin(1)
		.withMax(16 * 1024 * 1024)
		.withDescription("the largest frame accepted, in bytes; a larger one is an error that closes its connection");

	static final ModuleOption<Integer> SOCKET_TIMEOUT = ModuleOption.ofInt("socketTimeout")
		.withDefault(120000)
		.withMin(0)
		.withDescription("milliseconds a connection may stay idle before it is closed; 0 never closes it");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "tcp",
			"Receives framed messages over TCP", List.of(PORT, DECODER, CHARSET, BUFFER_SIZE, SOCKET_TIMEOUT,
					NetworkSources.ADDRESS));

	private final ModuleContext context;

	private final String module;

	private final Deserializer<byte[]> deserializer;

	private final int bufferSize;

	private final int socketTimeout;

	private final BiFunction<byte[], InetSocketAddress, Message<?>> toMessage;

	private TcpFrameServer server;

	TcpSource(ModuleContext context) {
		this(context, "tcp", TcpFraming.codec(context.options().get(DECODER), context.options().get(BUFFER_SIZE)),
				context.options().get(BUFFER_SIZE), context.options().get(SOCKET_TIMEOUT),
				text(Charset.forName(context.options().get(CHARSET))));
	}

	/**
	 * A TCP source of another name, framing and payload ({@code syslog-tcp}). The context's options must include a
	 * {@code port} and the {@code address}.
	 */
	TcpSource(ModuleContext context, String module, Deserializer<byte[]> deserializer, int bufferSize,
			int socketTimeout, BiFunction<byte[], InetSocketAddress, Message<?>> toMessage) {
		this.context = context;
		this.module = module;
		this.deserializer = deserializer;
		this.bufferSize = bufferSize;
		this.socketTimeout = socketTimeout;
		this.toMessage = toMessage;
	}

	private static BiFunction<byte[], InetSocketAddress, Message<?>> text(Charset charset) {
		return (frame, peer) -> NetworkSources.message(new String(frame, charset), peer);
	}

	@Override
	public void start(MessageChannel output) {
		this.server = new TcpFrameServer(this.context, this.module, this.deserializer, this.bufferSize,
				this.socketTimeout, (frame, peer) -> NetworkSources.send(output, this.toMessage.apply(frame, peer)));
		this.server.start(NetworkSources.bindAddress(this.context));
	}

	/** The port the source listens on (the chosen one when {@code port} was 0), or -1 before start. */
	public int port() {
		return (this.server != null) ? this.server.port() : -1;
	}

	@Override
	public void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	/** Declares and creates the {@code tcp} source. */
	public static final class Provider extends NetworkSources.Provider {

		public Provider() {
			super(METADATA, TcpSource::new);
		}
	}
}
