package io.xd.modules.builtin.source;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;

/** What {@code syslog-udp} and {@code syslog-tcp} share: their options and the making of a JSON message. */
final class SyslogSources {

	static final ModuleOption<Integer> PORT = NetworkSources.port(5140);

	private static final Logger logger = LoggerFactory.getLogger(SyslogSources.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private SyslogSources() {
	}

	/** Spring XD's {@code rfc} option, kept so scripts that set it still work; both formats are always recognised. */
	static ModuleOption<String> rfc(String spelledDefault) {
		return ModuleOption.ofChoice("rfc", "3164", "5424")
			.withDefault(spelledDefault)
			.withDescription("accepted for compatibility with Spring XD; lines of either RFC are recognised");
	}

	/**
	 * The message for one received line: the parsed parts as a JSON object, or, when the line does not parse,
	 * {@code {"raw": line, "error": reason}} and a warning naming the peer, so that nothing is dropped unseen.
	 */
	static Message<String> message(ModuleContext context, String module, String line, InetSocketAddress peer) {
		Map<String, Object> parts;
		try {
			parts = SyslogParser.parse(line);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Stream '{}': {} source received a line from {} that is neither RFC 5424 nor RFC 3164 ({}); "
					+ "sent on as raw", context.streamName(), module, NetworkSources.describe(peer), ex.getMessage());
			parts = new LinkedHashMap<>();
			parts.put("raw", line);
			parts.put("error", ex.getMessage());
		}
		return NetworkSources.received(JSON.writeValueAsString(parts), peer)
			.setHeader(MessageHeaders.CONTENT_TYPE, "application/json")
			.build();
	}
}
