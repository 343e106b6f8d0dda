package io.xd.bus.kafka;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.DefaultContentTypeResolver;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.util.MimeType;

/**
 * Turns messages into Kafka record parts and back.
 * <p>
 * Payloads: a {@code byte[]} travels as it is, a {@code String} as UTF-8, a {@code Map} or {@code List} (what a
 * JSON document parses to) as JSON, a number, boolean or UUID (what an expression such as {@code payload.id} or
 * {@code payload.length()} gives) as its text; any other type is refused, since the bus never serializes (nor, on
 * the other side, deserializes) objects of arbitrary types. Unless the binding is raw, the record header
 * {@value #PAYLOAD_HEADER} names the payload's type ({@code String}, {@code json}, the name of a number type such as
 * {@code Integer}, or {@code bytes} where a text {@code contentType} would otherwise make it a string), so that the
 * consumer gets the type that was sent. A record without that header (one written by another program) gives a
 * {@code String} when its {@code contentType} header is {@code text/*}, decoded with the header's charset (UTF-8 when
 * it names none), and {@code byte[]} otherwise; a raw binding always gives {@code byte[]}.
 * <p>
 * Headers (not in {@link KafkaBusProperties.Mode#RAW raw} mode): each becomes a native record header. Strings
 * travel as UTF-8, {@code byte[]} as is; numbers, booleans, UUIDs and MIME types travel as text, and the record
 * header {@value #TYPES_HEADER} lists their types so that the consumer gets the same types back. The message
 * {@code id} and {@code timestamp} do not travel. A header of any other type is left out, with a warning once per
 * header name.
 */
final class KafkaRecords {

	/** Lists the headers that are not strings or bytes, as {@code name=type;name=type}. */
	static final String TYPES_HEADER = "xd-types";

	/**
	 * Names a payload's type when it is not plain bytes: {@code String}, {@code json}, {@code bytes}, or a scalar type
	 * as in {@value #TYPES_HEADER} ({@code Integer}, {@code Boolean}...).
	 */
	static final String PAYLOAD_HEADER = "xd-payload";

	private static final Header STRING_PAYLOAD = payloadHeader("String");

	private static final Header JSON_PAYLOAD = payloadHeader("json");

	private static final Header BYTES_PAYLOAD = payloadHeader("bytes");

	/** The payload headers of scalar types, by type name: a header is immutable, so one per type is enough. */
	private static final Map<String, Header> SCALAR_PAYLOADS = new ConcurrentHashMap<>();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final DefaultContentTypeResolver CONTENT_TYPES = new DefaultContentTypeResolver();

	private static final Logger logger = LoggerFactory.getLogger(KafkaRecords.class);

	private static final MessageHeaders NO_HEADERS = new BusHeaders(Map.of());

	private static final Set<String> warned = ConcurrentHashMap.newKeySet();

	private KafkaRecords() {
	}

	private static Header payloadHeader(String kind) {
		return new RecordHeader(PAYLOAD_HEADER, kind.getBytes(StandardCharsets.UTF_8));
	}

	static byte[] payload(Message<?> message) {
		return payload(message.getPayload());
	}

	private static byte[] payload(Object payload) {
		if (payload instanceof byte[] bytes) {
			return bytes;
		}
		if (payload instanceof String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}
		if (payload instanceof Map<?, ?> || payload instanceof Collection<?>) {
			try {
				return JSON.writeValueAsBytes(payload);
			}
			catch (JacksonException ex) {
				throw new IllegalArgumentException("A " + payload.getClass().getName()
						+ " payload cannot be written as JSON for the Kafka bus: " + ex.getOriginalMessage(), ex);
			}
		}
		if (isScalar(payload)) {
			return payload.toString().getBytes(StandardCharsets.UTF_8);
		}
		throw new IllegalArgumentException("The Kafka bus carries byte[], String, Map, List, number, boolean and UUID "
				+ "payloads, not " + payload.getClass().getName() + "; give the module --outputType=application/json or "
				+ "--outputType=text/plain to send it as text");
	}

	/** Whether a payload is one that travels as its text, its type named in the record: a number, boolean or UUID. */
	private static boolean isScalar(Object payload) {
		String type = typeOf(payload);
		return type != null && !type.equals("String") && !type.equals("bytes") && !type.equals("MimeType");
	}

	/** The record header naming a payload's type, or {@code null} for plain bytes. */
	private static Header payloadKind(Object payload, MessageHeaders headers) {
		if (payload instanceof String) {
			return STRING_PAYLOAD;
		}
		if (payload instanceof byte[]) {
			// bytes whose contentType says text are still bytes: say so, or the consumer would make them a String
			MimeType type = contentType(headers);
			return (type != null && type.getType().equals("text")) ? BYTES_PAYLOAD : null;
		}
		if (payload instanceof Map<?, ?> || payload instanceof Collection<?>) {
			return JSON_PAYLOAD;
		}
		return SCALAR_PAYLOADS.computeIfAbsent(typeOf(payload), KafkaRecords::payloadHeader);
	}

	/** The message's {@code contentType} (a {@link MimeType} or its text), or {@code null} when none parses. */
	private static MimeType contentType(MessageHeaders headers) {
		try {
			return CONTENT_TYPES.resolve(headers);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/** The record headers of a message, or {@code null} when it has none to carry. */
	static Headers headers(MessageHeaders headers) {
		return headers(headers, null);
	}

	/**
	 * The record headers of a message and the header naming its payload's type, or {@code null} when there is none
	 * to carry.
	 */
	private static Headers headers(MessageHeaders headers, Header payloadKind) {
		if (headers.size() <= countSkipped(headers)) {
			return (payloadKind == null) ? null : new RecordHeaders(new Header[] { payloadKind });
		}
		RecordHeaders record = new RecordHeaders();
		StringBuilder types = null;
		for (Map.Entry<String, Object> header : headers.entrySet()) {
			String name = header.getKey();
			Object value = header.getValue();
			if (name.equals(MessageHeaders.ID) || name.equals(MessageHeaders.TIMESTAMP) || value == null) {
				continue;
			}
			String type = typeOf(value);
			if (type == null) {
				if (warned.add(name)) {
					logger.warn("Header '{}' of type {} cannot travel over Kafka and is left out; use a String, a "
							+ "number, a boolean, a UUID, a MIME type or byte[]", name, value.getClass().getName());
				}
				continue;
			}
			if (value instanceof byte[] bytes) {
				record.add(name, bytes);
			}
			else {
				record.add(name, value.toString().getBytes(StandardCharsets.UTF_8));
			}
			if (!type.equals("String") && !type.equals("bytes")) {
				types = (types == null) ? new StringBuilder() : types.append(';');
				types.append(name).append('=').append(type);
			}
		}
		if (types != null) {
			record.add(TYPES_HEADER, types.toString().getBytes(StandardCharsets.UTF_8));
		}
		if (payloadKind != null) {
			record.add(payloadKind);
		}
		return record;
	}

	private static int countSkipped(MessageHeaders headers) {
		int skipped = 0;
		if (headers.getId() != null) {
			skipped++;
		}
		if (headers.getTimestamp() != null) {
			skipped++;
		}
		return skipped;
	}

	/**
	 * Makes the records of one producer binding. The headers are encoded once per {@link MessageHeaders} instance
	 * seen last, not per record: modules commonly send many messages sharing one headers instance, and a header
	 * list handed to a {@link ProducerRecord} is copied by it, never changed. Thread-safe: the last encoding is an
	 * immutable pair that a racing thread at worst encodes again.
	 */
	static final class Encoder {

		private final boolean raw;

		private Encoded last;

		/** @param raw whether records carry the payload only (mode {@code raw}) */
		Encoder(boolean raw) {
			this.raw = raw;
		}

		/**
		 * The record of {@code message} for {@code topic}.
		 * @param partition the partition, or {@code null} to let the producer's partitioner choose
		 * @throws IllegalArgumentException when the payload is not one the bus carries
		 */
		ProducerRecord<byte[], byte[]> record(String topic, Integer partition, Message<?> message) {
			Object payload = message.getPayload();
			byte[] value = payload(payload);
			if (this.raw) {
				return new ProducerRecord<>(topic, partition, null, null, value, null);
			}
			MessageHeaders headers = message.getHeaders();
			return new ProducerRecord<>(topic, partition, null, null, value,
					headers(headers, payloadKind(payload, headers)));
		}

		/** The record of a payload already encoded, with the headers of the record it copies (a tap's copy). */
		ProducerRecord<byte[], byte[]> copy(String topic, ProducerRecord<byte[], byte[]> record) {
			return new ProducerRecord<>(topic, null, null, null, record.value(), record.headers());
		}

		private List<Header> headers(MessageHeaders headers, Header payloadKind) {
			Encoded cached = this.last;
			if (cached != null && cached.source == headers && cached.payloadKind == payloadKind) {
				return cached.headers;
			}
			Headers encoded = KafkaRecords.headers(headers, payloadKind);
			List<Header> list = (encoded == null) ? null : List.of(encoded.toArray());
			this.last = new Encoded(headers, payloadKind, list);
			return list;
		}

		/** Headers with the payload's type and their encoding, or {@code null} when they carry nothing. */
		private record Encoded(MessageHeaders source, Header payloadKind, List<Header> headers) {
		}
	}

	/**
	 * The message for a consumed record: its payload as the type that was sent (or, for a record another program
	 * wrote, as its {@code contentType} says) and, unless raw, the headers it carried.
	 * @throws IllegalArgumentException when a record said to hold JSON does not
	 */
	static Message<?> message(byte[] value, Headers recordHeaders, boolean raw) {
		if (raw || recordHeaders == null) {
			return new GenericMessage<>(value, NO_HEADERS);
		}
		Iterator<Header> each = recordHeaders.iterator();
		if (!each.hasNext()) {
			return new GenericMessage<>(value, NO_HEADERS);
		}
		Header first = each.next();
		if (!each.hasNext() && first.key().equals(PAYLOAD_HEADER)) {
			// what XD writes beside a payload whose message has no headers of its own, the common case of a hop: no
			// header array, and text (the most common) without its type name decoded (at 100 B this was a tenth of
			// the listener thread's time)
			Object payload = Arrays.equals(first.value(), STRING_PAYLOAD.value())
					? new String(value, StandardCharsets.UTF_8)
					: payload(value, new String(first.value(), StandardCharsets.UTF_8), NO_HEADERS);
			return new GenericMessage<>(payload, NO_HEADERS);
		}
		Header[] all = recordHeaders.toArray();
		Map<String, String> types = Map.of();
		String kind = null;
		for (Header header : all) {
			if (header.key().equals(TYPES_HEADER)) {
				types = parseTypes(new String(header.value(), StandardCharsets.UTF_8));
			}
			else if (header.key().equals(PAYLOAD_HEADER)) {
				kind = new String(header.value(), StandardCharsets.UTF_8);
			}
		}
		Map<String, Object> headers = new HashMap<>(all.length * 2);
		for (Header header : all) {
			String name = header.key();
			if (name.equals(TYPES_HEADER) || name.equals(PAYLOAD_HEADER)) {
				continue;
			}
			byte[] bytes = header.value();
			String type = types.get(name);
			headers.put(name, (type == null) ? textOrBytes(bytes) : parse(type, new String(bytes,
					StandardCharsets.UTF_8)));
		}
		MessageHeaders messageHeaders = new BusHeaders(headers);
		return new GenericMessage<>(payload(value, kind, messageHeaders), messageHeaders);
	}

	private static Object payload(byte[] value, String kind, MessageHeaders headers) {
		if (kind == null) {
			MimeType type = contentType(headers);
			if (type == null || !type.getType().equals("text")) {
				return value;
			}
			Charset charset = type.getCharset();
			return new String(value, (charset != null) ? charset : StandardCharsets.UTF_8);
		}
		return switch (kind) {
			case "String" -> new String(value, StandardCharsets.UTF_8);
			case "json" -> {
				try {
					yield JSON.readValue(value, Object.class);
				}
				catch (JacksonException ex) {
					throw new IllegalArgumentException("A record marked as JSON is not JSON: "
							+ ex.getOriginalMessage(), ex);
				}
			}
			case "bytes" -> value;
			default -> parse(kind, new String(value, StandardCharsets.UTF_8));
		};
	}

	private static Object textOrBytes(byte[] bytes) {
		// headers written by XD are UTF-8 text; headers set by other clients may be any bytes
		String text = new String(bytes, StandardCharsets.UTF_8);
		return (text.indexOf('\uFFFD') >= 0) ? bytes : text;
	}

	private static String typeOf(Object value) {
		if (value instanceof String) {
			return "String";
		}
		if (value instanceof byte[]) {
			return "bytes";
		}
		if (value instanceof Integer || value instanceof Long || value instanceof Double || value instanceof Float
				|| value instanceof Short || value instanceof Boolean || value instanceof BigDecimal
				|| value instanceof BigInteger) {
			return value.getClass().getSimpleName();
		}
		if (value instanceof UUID) {
			return "UUID";
		}
		if (value instanceof MimeType) {
			return "MimeType";
		}
		return null;
	}

	private static Object parse(String type, String text) {
		try {
			return switch (type) {
				case "Integer" -> Integer.valueOf(text);
				case "Long" -> Long.valueOf(text);
				case "Double" -> Double.valueOf(text);
				case "Float" -> Float.valueOf(text);
				case "Short" -> Short.valueOf(text);
				case "Boolean" -> Boolean.valueOf(text);
				case "BigDecimal" -> new BigDecimal(text);
				case "BigInteger" -> new BigInteger(text);
				case "UUID" -> UUID.fromString(text);
				case "MimeType" -> MimeType.valueOf(text);
				default -> text;
			};
		}
		catch (IllegalArgumentException ex) {
			return text;
		}
	}

	private static Map<String, String> parseTypes(String text) {
		Map<String, String> types = new HashMap<>();
		for (String pair : text.split(";")) {
			int equals = pair.lastIndexOf('=');
			if (equals > 0) {
				types.put(pair.substring(0, equals), pair.substring(equals + 1));
			}
		}
		return types;
	}

	/** Headers without a generated id or timestamp. */
	private static final class BusHeaders extends MessageHeaders {

		BusHeaders(Map<String, Object> headers) {
			super(headers, ID_VALUE_NONE, -1L);
		}
	}
}
