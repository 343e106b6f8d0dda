package io.xd.modules.builtin.source;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.integration.ip.tcp.serializer.TcpCodecs;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code syslog-tcp} source: a {@link TcpSource} that reads one syslog line per LF or CRLF (RFC 6587
 * non-transparent framing) and sends each parsed into a JSON object. Reading, back-pressure and over-long lines
 * behave as in the {@code tcp} source; connections are never closed for being idle.
 */
public final class SyslogTcpSource {

	static final ModuleOption<Integer> BUFFER_SIZE = ModuleOption.ofInt("bufferSize")
		.withDefault(2048)
		.withMin(1)
		.withDescription("the longest line accepted, in bytes; a longer one is an error that closes its connection");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "syslog-tcp",
			"Receives syslog lines (RFC 5424 or RFC 3164) over TCP as JSON objects",
			List.of(SyslogSources.PORT, SyslogSources.rfc("5424"), BUFFER_SIZE, NetworkSources.ADDRESS));

	private SyslogTcpSource() {
	}

	static Source create(ModuleContext context) {
		int bufferSize = context.options().get(BUFFER_SIZE);
		// the LF deserializer fails when the bytes it keeps (the CR of a CRLF line end included) reach its maximum
		return new TcpSource(context, "syslog-tcp", TcpCodecs.lf(bufferSize + 2), bufferSize, 0,
				(frame, peer) -> SyslogSources.message(context, "syslog-tcp", new String(frame, StandardCharsets.UTF_8),
						peer));
	}

	/** Declares and creates the {@code syslog-tcp} source. */
	public static final class Provider extends NetworkSources.Provider {

		public Provider() {
			super(METADATA, SyslogTcpSource::create);
		}
	}
}
