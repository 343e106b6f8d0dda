package io.xd.modules.builtin.source;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.integration.ip.tcp.serializer.TcpCodecs;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code syslog-tcp} source: syslog lines over TCP, one per line (RFC 6587 non-transparent framing, LF or
 * CRLF), each parsed into a JSON object. Reading, back-pressure and over-long lines behave as in the {@code tcp}
 * source.
 */
public final class SyslogTcpSource implements Source {

	static final ModuleOption<Integer> BUFFER_SIZE = ModuleOption.ofInt("bufferSize")
		.withDefault(2048)
		.withMin(1)
		.withDescription("the longest line accepted, in bytes; a longer one is an error that closes its connection");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "syslog-tcp",
			"Receives syslog lines (RFC 5424 or RFC 3164) over TCP as JSON objects",
			List.of(SyslogSources.PORT, SyslogSources.rfc("5424"), BUFFER_SIZE, NetworkSources.ADDRESS));

	private final ModuleContext context;

	private TcpFrameServer server;

	SyslogTcpSource(ModuleContext context) {
		this.context = context;
	}

	@Override
	public void start(MessageChannel output) {
		int bufferSize = this.context.options().get(BUFFER_SIZE);
		// the LF deserializer fails when the bytes it keeps (the CR of a CRLF line end included) reach its maximum
		this.server = new TcpFrameServer(this.context, "syslog-tcp", TcpCodecs.lf(bufferSize + 2), bufferSize, 0,
				(frame, peer) -> NetworkSources.send(output, SyslogSources.message(this.context, "syslog-tcp",
						new String(frame, StandardCharsets.UTF_8), peer)));
		this.server.start(NetworkSources.bindAddress(this.context, SyslogSources.PORT));
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

	/** Declares and creates the {@code syslog-tcp} source. */
	public static final class Provider implements ModuleProvider {

		@Override
		public ModuleMetadata metadata() {
			return METADATA;
		}

		@Override
		public Module create(ModuleContext context) {
			return new SyslogTcpSource(context);
		}
	}
}
