package io.xd.modules.builtin.source;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code syslog-udp} source: every datagram is one syslog line (RFC 5426), parsed into a JSON object. One
 * thread receives and sends downstream; while the stream blocks it receives nothing, and the operating system's
 * socket buffer holds, then drops, what arrives (UDP has no flow control). A line the stream refuses is logged with
 * its text and sender.
 */
public final class SyslogUdpSource implements Source {

	/** The largest datagram UDP can carry. */
	private static final int MAX_DATAGRAM = 65535;

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "syslog-udp",
			"Receives syslog lines (RFC 5424 or RFC 3164) over UDP as JSON objects",
			List.of(SyslogSources.PORT, SyslogSources.rfc("3164"), NetworkSources.ADDRESS));

	private static final Logger logger = LoggerFactory.getLogger(SyslogUdpSource.class);

	private final ModuleContext context;

	private volatile DatagramSocket socket;

	private Thread receiver;

	SyslogUdpSource(ModuleContext context) {
		this.context = context;
	}

	@Override
	public void start(MessageChannel output) {
		InetSocketAddress address = NetworkSources.bindAddress(this.context);
		try {
			this.socket = new DatagramSocket(address);
		}
		catch (IOException ex) {
			throw NetworkSources.cannotBind(this.context, "syslog-udp", address, ex);
		}
		this.receiver = this.context.newThread("syslog-udp", () -> receive(output));
		this.receiver.start();
		logger.info("Stream '{}': syslog-udp source listening on {}:{}", this.context.streamName(),
				address.getHostString(), port());
	}

	/** The port the source listens on (the chosen one when {@code port} was 0), or -1 before start. */
	public int port() {
		DatagramSocket current = this.socket;
		return (current != null) ? current.getLocalPort() : -1;
	}

	private void receive(MessageChannel output) {
		DatagramPacket packet = new DatagramPacket(new byte[MAX_DATAGRAM], MAX_DATAGRAM);
		while (!this.socket.isClosed()) {
			try {
				packet.setLength(MAX_DATAGRAM);
				this.socket.receive(packet);
			}
			catch (SocketException ex) {
				return;
			}
			catch (IOException ex) {
				logger.error("Stream '{}': syslog-udp source could not receive", this.context.streamName(), ex);
				continue;
			}
			String line = new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8);
			InetSocketAddress peer = (InetSocketAddress) packet.getSocketAddress();
			Message<String> message = SyslogSources.message(this.context, "syslog-udp", line, peer);
			try {
				NetworkSources.send(output, message);
			}
			catch (RuntimeException ex) {
				logger.error("Stream '{}': syslog-udp source could not deliver a line from {}: {}",
						this.context.streamName(), NetworkSources.describe(peer), line, ex);
			}
		}
	}

	@Override
	public void stop() {
		if (this.socket != null) {
			this.socket.close();
		}
		if (this.receiver != null) {
			try {
				this.receiver.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Declares and creates the {@code syslog-udp} source. */
	public static final class Provider extends NetworkSources.Provider {

		public Provider() {
			super(METADATA, SyslogUdpSource::new);
		}
	}
}
