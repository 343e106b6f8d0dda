package io.xd.modules.builtin.tcp;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.Charset;
import java.util.List;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.integration.ip.tcp.serializer.AbstractByteArraySerializer;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code tcp} sink: writes each payload to a TCP server as one frame, framed by {@code encoder} (the framings of
 * the {@code tcp} source, Spring Integration's serializers). A {@code String} payload is encoded with {@code charset},
 * a {@code byte[]} is written as it is, anything else as its {@code toString()}. The server is a declared connection
 * ({@code --connection=<name>}, TLS when it says so) or {@code host}:{@code port}, a host of the operator's
 * {@code xd.modules.connect.allowed-hosts}, checked when the stream is created and again, with the addresses it
 * resolves to, at every connect. The sink connects on the first message and keeps the connection, unless
 * {@code close} is true or the encoder is {@code RAW} (whose frame ends when the connection closes): then each message
 * has a connection of its own. A message that cannot be written (the server refuses the connection, the connection
 * broke, the frame is over {@code bufferSize}) is an error thrown to the bus, which sends it to its error path; the
 * broken connection is dropped and the next message connects anew.
 */
public final class TcpSink implements Sink {

	static final ModuleOption<String> HOST = ConnectorServer.hostOption("host", "credentials or TLS")
		.withDefault("localhost");

	static final ModuleOption<Integer> PORT = ConnectorServer.portOption("host", "1234").withDefault(1234);

	static final ModuleOption<String> CONNECTION = ConnectorServer.connectionOption(null, "host, port, tls",
			"host and port");

	static final ModuleOption<String> ENCODER = TcpFraming.option("encoder", "how each message is framed");

	static final ModuleOption<Boolean> CLOSE = ModuleOption.ofBoolean("close")
		.withDefault(false)
		.withDescription("whether to close the connection after each message (always, with encoder RAW)");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(ModuleSupport::isCharset, "be a charset the JVM knows")
		.withDescription("the charset that encodes text payloads");

	static final ModuleOption<Integer> BUFFER_SIZE = ModuleOption.ofInt("bufferSize")
		.withDefault(2048)
		.withMin(1)
		.withMax(16 * 1024 * 1024)
		.withDescription("the largest message written, in bytes; a larger one is an error");

	static final ModuleOption<Integer> SOCKET_TIMEOUT = ModuleOption.ofInt("socketTimeout")
		.withDefault(120000)
		.withMin(0)
		.withDescription("milliseconds a connect (and a TLS handshake) may take; 0 waits without end");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "tcp",
			"Sends each payload as a framed message over TCP",
			List.of(HOST, PORT, CONNECTION, ENCODER, CLOSE, CHARSET, BUFFER_SIZE, SOCKET_TIMEOUT));

	/** An allowed host (localhost:1234 by default), or a declared connection, reached with its TLS flag. */
	static final ServerOptions SERVER = ConnectorServer.singleHost("tcp", CONNECTION, HOST, PORT,
			(options, tls) -> options.get(PORT));

	private static final Logger logger = LoggerFactory.getLogger(TcpSink.class);

	private final ModuleContext context;

	private final ConnectorServer server;

	private final AbstractByteArraySerializer encoder;

	private final boolean close;

	private final Charset charset;

	private final int bufferSize;

	private final int socketTimeout;

	private volatile Socket socket;

	private OutputStream out;

	private volatile boolean closedByPeer;

	TcpSink(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		this.server = SERVER.resolve(options, context.hostAccess());
		this.bufferSize = options.get(BUFFER_SIZE);
		this.encoder = TcpFraming.codec(options.get(ENCODER), this.bufferSize);
		this.close = options.get(CLOSE) || "RAW".equals(options.get(ENCODER));
		this.charset = Charset.forName(options.get(CHARSET));
		this.socketTimeout = options.get(SOCKET_TIMEOUT);
	}

	@Override
	public synchronized void handleMessage(Message<?> message) {
		byte[] frame = bytes(message.getPayload());
		if (frame.length > this.bufferSize) {
			throw new MessageDeliveryException(message, "tcp sink: a message of " + frame.length
					+ " bytes is larger than bufferSize, " + this.bufferSize + " bytes");
		}
		try {
			if (this.out != null && this.closedByPeer) {
				disconnect();
			}
			if (this.out == null) {
				connect();
			}
			this.encoder.serialize(frame, this.out);
			this.out.flush();
		}
		catch (IOException | RuntimeException ex) {
			disconnect();
			throw new MessageDeliveryException(message, "tcp sink could not send to " + this.server.host() + ":"
					+ this.server.port() + ": " + ex.getMessage(), ex);
		}
		if (this.close) {
			disconnect();
		}
	}

	private byte[] bytes(Object payload) {
		if (payload instanceof byte[] bytes) {
			return bytes;
		}
		return String.valueOf(payload).getBytes(this.charset);
	}

	/** Connects to the first address the host resolves to, checked now unless it is a declared connection's. */
	private void connect() throws IOException {
		String host = this.server.host();
		int port = this.server.port();
		InetAddress address = this.server.isLiteral()
				? this.context.hostAccess().checkConnectHost(this.server.hostOption(), host, port).get(0)
				: InetAddress.getByName(host);
		Socket plain = new Socket();
		try {
			plain.connect(new InetSocketAddress(address, port), this.socketTimeout);
			Socket connected = this.server.tls() ? tls(plain) : plain;
			this.out = new BufferedOutputStream(connected.getOutputStream(), Math.min(this.bufferSize + 8, 65536));
			this.socket = connected;
			this.closedByPeer = false;
			watch(connected);
		}
		catch (IOException | RuntimeException ex) {
			plain.close();
			throw ex;
		}
		logger.debug("Stream '{}': tcp sink connected to {}:{}", this.context.streamName(), host, port);
	}

	/**
	 * Reads the connection on a thread of its own, discarding what the server sends, to learn when the server closes
	 * it: a write to a connection the peer has closed succeeds once, and its message would be lost.
	 */
	private void watch(Socket connected) {
		this.context.newThread("tcp-watch", () -> {
			byte[] discarded = new byte[512];
			try (InputStream in = connected.getInputStream()) {
				while (in.read(discarded) >= 0) {
					// replies are not read by this sink
				}
			}
			catch (IOException | RuntimeException ex) {
				// closed by either end
			}
			if (this.socket == connected) {
				this.closedByPeer = true;
			}
		}).start();
	}

	/** Whether the sink holds a connection the server has not closed. */
	synchronized boolean isConnected() {
		return this.out != null && !this.closedByPeer;
	}

	/** TLS over the connected socket, with the JVM's trust store, checking that the certificate names the host. */
	private SSLSocket tls(Socket plain) throws IOException {
		SSLSocket socket = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain,
				this.server.host(), this.server.port(), true);
		SSLParameters parameters = socket.getSSLParameters();
		parameters.setEndpointIdentificationAlgorithm("HTTPS");
		socket.setSSLParameters(parameters);
		// a server that does not answer the handshake must not hold the sink for ever
		socket.setSoTimeout(this.socketTimeout);
		socket.startHandshake();
		socket.setSoTimeout(0);
		return socket;
	}

	private void disconnect() {
		if (this.socket != null) {
			try {
				this.socket.close();
			}
			catch (IOException ex) {
				// dropped either way
			}
		}
		this.socket = null;
		this.out = null;
	}

	@Override
	public synchronized void stop() {
		disconnect();
	}

	/** Declares and creates the {@code tcp} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, TcpSink::new, SERVER::check);
		}
	}
}
