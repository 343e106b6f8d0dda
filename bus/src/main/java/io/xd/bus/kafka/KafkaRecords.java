package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.util.MimeType;

/**
 * Turns messages into Kafka record parts and back.
 * <p>
 * Payloads: a {@code byte[]} travels as it is, a {@code String} as UTF-8; any other type is refused, since the bus
 * never serializes (nor, on the other side, deserializes) objects of arbitrary types.
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

	private static final Logger logger = LoggerFactory.getLogger(KafkaRecords.class);

	private static final MessageHeaders NO_HEADERS = new BusHeaders(Map.of());

	private static final Set<String> warned = ConcurrentHashMap.newKeySet();

	private KafkaRecords() {
	}

	static byte[] payload(Message<?> message) {
		Object payload = message.getPayload();
		if (payload instanceof byte[] bytes) {
			return bytes;
		}
		if (payload instanceof String text) {
			return text.getBytes(StandardCharsets.UTF_8);
		}
		throw new IllegalArgumentException("The Kafka bus carries byte[] and String payloads, not "
				+ payload.getClass().getName());
	}

	/** The record headers of a message, or {@code null} when it has none to carry. */
	static Headers headers(MessageHeaders headers) {
		if (headers.size() <= countSkipped(headers)) {
			return null;
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
		 * @throws IllegalArgumentException when the payload is neither {@code byte[]} nor {@code String}
		 */
		ProducerRecord<byte[], byte[]> record(String topic, Integer partition, Message<?> message) {
			return record(topic, partition, payload(message), message.getHeaders());
		}

		/** The record of a payload already encoded, with the headers of its message (a tap's copy). */
		ProducerRecord<byte[], byte[]> record(String topic, Integer partition, byte[] value, MessageHeaders headers) {
			return new ProducerRecord<>(topic, partition, null, null, value, this.raw ? null : headers(headers));
		}

		private List<Header> headers(MessageHeaders headers) {
			Encoded cached = this.last;
			if (cached != null && cached.source == headers) {
				return cached.headers;
			}
			Headers encoded = KafkaRecords.headers(headers);
			List<Header> list = (encoded == null) ? null : List.of(encoded.toArray());
			this.last = new Encoded(headers, list);
			return list;
		}

		/** Headers and their encoding, or {@code null} when they carry nothing. */
		private record Encoded(MessageHeaders source, List<Header> headers) {
		}
	}

	/** The message for a consumed record: the payload bytes and, unless raw, the headers it carried. */
	static Message<byte[]> message(byte[] value, Headers recordHeaders, boolean raw) {
		if (raw || recordHeaders == null) {
			return new GenericMessage<>(value, NO_HEADERS);
		}
		Header[] all = recordHeaders.toArray();
		if (all.length == 0) {
			return new GenericMessage<>(value, NO_HEADERS);
		}
		Map<String, String> types = Map.of();
		for (Header header : all) {
			if (header.key().equals(TYPES_HEADER)) {
				types = parseTypes(new String(header.value(), StandardCharsets.UTF_8));
			}
		}
		Map<String, Object> headers = new HashMap<>(all.length * 2);
		for (Header header : all) {
			String name = header.key();
			if (name.equals(TYPES_HEADER)) {
				continue;
			}
			byte[] bytes = header.value();
			String type = types.get(name);
			headers.put(name, (type == null) ? textOrBytes(bytes) : parse(type, new String(bytes,
					StandardCharsets.UTF_8)));
		}
		return new GenericMessage<>(value, new BusHeaders(headers));
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
				|| value instanceof Short || value instanceof Boolean) {
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
