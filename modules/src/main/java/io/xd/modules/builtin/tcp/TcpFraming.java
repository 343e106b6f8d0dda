package io.xd.modules.builtin.tcp;

import org.springframework.integration.ip.tcp.serializer.AbstractByteArraySerializer;
import org.springframework.integration.ip.tcp.serializer.TcpCodecs;

import io.xd.modules.ModuleOption;

/**
 * How TCP messages are framed, shared by the {@code tcp} source (its {@code decoder}) and the {@code tcp} sink (its
 * {@code encoder}): Spring Integration's serializers, which both write and read a frame.
 */
public final class TcpFraming {

	/** The framings, by Spring XD's names. */
	public static final String[] NAMES = { "CRLF", "LF", "NULL", "STXETX", "RAW", "L1", "L2", "L4" };

	/** What each framing does, for the option's description. */
	public static final String DESCRIPTION = "a terminator (CRLF, LF, NULL), STX..ETX, the whole connection (RAW) or a "
			+ "1, 2 or 4 byte big-endian length header (L1, L2, L4)";

	private TcpFraming() {
	}

	/** A {@code CRLF}-by-default choice of framing named {@code name}. */
	public static ModuleOption<String> option(String name, String purpose) {
		return ModuleOption.ofChoice(name, NAMES).withDefault("CRLF").withDescription(purpose + ": " + DESCRIPTION);
	}

	/**
	 * The serializer of a framing, which reads frames of at most {@code maxFrameSize} bytes.
	 * @param framing one of {@link #NAMES}
	 */
	public static AbstractByteArraySerializer codec(String framing, int maxFrameSize) {
		return switch (framing) {
			// the terminator deserializers fail when the bytes they keep (the CR of CRLF included) reach the maximum
			case "CRLF" -> TcpCodecs.crlf(maxFrameSize + 2);
			case "LF" -> TcpCodecs.lf(maxFrameSize + 1);
			case "NULL" -> TcpCodecs.singleTerminator((byte) 0, maxFrameSize + 1);
			case "STXETX" -> TcpCodecs.stxetx(maxFrameSize + 1);
			case "RAW" -> TcpCodecs.raw(maxFrameSize);
			case "L1" -> TcpCodecs.lengthHeader1(maxFrameSize);
			case "L2" -> TcpCodecs.lengthHeader2(maxFrameSize);
			case "L4" -> TcpCodecs.lengthHeader4(maxFrameSize);
			default -> throw new IllegalArgumentException("Unknown framing " + framing);
		};
	}
}
