package io.xd.modules;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.springframework.util.MimeType;

/**
 * Spring XD's {@code --inputType} and {@code --outputType}: the options every module gets besides its own, and the
 * media types they accept. A processor or sink with {@code --inputType} receives its payloads converted to that type;
 * a source or processor with {@code --outputType} has what it sends converted before it leaves. The container does
 * the converting; modules only see the result.
 * <ul>
 * <li>{@code text/plain} (or any {@code text/*}, with a {@code charset}, UTF-8 when none is given): a {@code String}.
 * Bytes are decoded in the charset, a map or list is written as JSON, anything else by its {@code toString()}.</li>
 * <li>{@code application/json}: as an input, the parsed document, a {@code Map} for a JSON object (so that an
 * expression can read {@code payload.customer.id}), a {@code List} for an array; as an output, JSON text.</li>
 * <li>{@code application/x-xd-tuple}: Spring XD's tuple, today a JSON object as a {@code Map}, both ways.</li>
 * <li>{@code application/octet-stream}: {@code byte[]}; text is encoded in UTF-8, maps and lists as JSON.</li>
 * </ul>
 * Spring XD's {@code application/x-java-object;type=...} is not offered: a stream definition may not name classes to
 * load.
 */
public final class TypeConversion {

	/** The media types the two options accept, by type and subtype ({@code text/*} stands for any text type). */
	public static final List<String> SUPPORTED = List.of("text/*", "application/json", "application/x-xd-tuple",
			"application/octet-stream");

	private static final Set<String> APPLICATION_SUBTYPES = Set.of("json", "x-xd-tuple", "octet-stream");

	/** How a processor or sink wants its payloads. */
	public static final ModuleOption<MimeType> INPUT_TYPE = ModuleOption
		.ofType("inputType", "MimeType", MimeType.class, TypeConversion::parse)
		.withDescription("convert each incoming payload to this media type first: text/plain (String, with a charset), "
				+ "application/json (a JSON object as a Map), application/x-xd-tuple, application/octet-stream (byte[])");

	/** How a source or processor sends its payloads. */
	public static final ModuleOption<MimeType> OUTPUT_TYPE = ModuleOption
		.ofType("outputType", "MimeType", MimeType.class, TypeConversion::parse)
		.withDescription("convert each outgoing payload to this media type: text/plain (String, with a charset), "
				+ "application/json (JSON text), application/x-xd-tuple (a Map), application/octet-stream (byte[])");

	private TypeConversion() {
	}

	/**
	 * The media type a value of {@code --inputType} or {@code --outputType} names.
	 * @throws IllegalArgumentException naming the supported types when it is not one of them, or its charset is
	 * unknown
	 */
	public static MimeType parse(String text) {
		MimeType type;
		try {
			type = MimeType.valueOf(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("supported media types are " + String.join(", ", SUPPORTED), ex);
		}
		boolean supported = type.getType().equals("text") || (type.getType().equals("application")
				&& APPLICATION_SUBTYPES.contains(type.getSubtype()));
		if (!supported || type.isWildcardSubtype()) {
			throw new IllegalArgumentException("supported media types are " + String.join(", ", SUPPORTED));
		}
		String charset = type.getParameter("charset");
		if (charset != null && !Charset.isSupported(charset)) {
			throw new IllegalArgumentException("unknown charset '" + charset + "'");
		}
		return type;
	}

	/**
	 * The options {@code declared} with the conversion options of a module of this type added: {@code outputType}
	 * for sources and processors, {@code inputType} for processors and sinks (Spring XD's rule), unless the module
	 * declares an option of that name itself.
	 */
	static List<ModuleOption<?>> withConversionOptions(ModuleType type, List<ModuleOption<?>> declared) {
		List<ModuleOption<?>> options = new ArrayList<>(declared);
		if (type != ModuleType.SOURCE) {
			addUnlessDeclared(options, INPUT_TYPE);
		}
		if (type != ModuleType.SINK) {
			addUnlessDeclared(options, OUTPUT_TYPE);
		}
		return options;
	}

	private static void addUnlessDeclared(List<ModuleOption<?>> options, ModuleOption<?> option) {
		if (options.stream().noneMatch(existing -> existing.name().equals(option.name()))) {
			options.add(option);
		}
	}
}
