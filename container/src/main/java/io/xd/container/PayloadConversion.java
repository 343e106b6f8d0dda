package io.xd.container;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.DefaultContentTypeResolver;
import org.springframework.messaging.converter.JacksonJsonMessageConverter;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeType;

import io.xd.modules.TypeConversion;

/**
 * Converts the payloads a module receives ({@code --inputType}) or sends ({@code --outputType}) to the media type
 * the user asked for, with Spring Messaging's converters: {@link StringMessageConverter} between bytes and text,
 * {@link JacksonJsonMessageConverter} between JSON and maps or lists. What each type means is
 * {@link TypeConversion}'s to say. The converted message keeps the headers, with {@code contentType} set to the
 * type. A payload that cannot be converted throws a {@link MessageConversionException} naming the module, the type
 * and the cause, which the bus treats as any failed message (retried, then sent to the error path).
 */
final class PayloadConversion {

	private static final DefaultContentTypeResolver CONTENT_TYPES = new DefaultContentTypeResolver();

	private final MimeType target;

	private final String moduleId;

	private final boolean input;

	private final String contentType;

	private final StringMessageConverter text = new StringMessageConverter();

	private final JacksonJsonMessageConverter json = new JacksonJsonMessageConverter();

	private final JacksonJsonMessageConverter jsonText = new JacksonJsonMessageConverter();

	/**
	 * @param target the media type, one {@link TypeConversion#parse} accepted
	 * @param input whether payloads are converted for the module ({@code --inputType}) rather than from it
	 */
	PayloadConversion(MimeType target, String moduleId, boolean input) {
		this.target = target;
		this.moduleId = moduleId;
		this.input = input;
		this.contentType = target.toString();
		this.jsonText.setSerializedPayloadClass(String.class);
	}

	/** {@code handler}, given each message converted first. */
	MessageHandler converting(MessageHandler handler) {
		return message -> handler.handleMessage(convert(message));
	}

	/** {@code channel}, sent each message converted first. */
	MessageChannel converting(MessageChannel channel) {
		return (message, timeout) -> channel.send(convert(message), timeout);
	}

	Message<?> convert(Message<?> message) {
		Object payload = message.getPayload();
		Object converted;
		try {
			converted = convertPayload(payload, message.getHeaders());
		}
		catch (RuntimeException ex) {
			throw new MessageConversionException(message, "Module " + this.moduleId + " cannot convert "
					+ (this.input ? "a payload it received" : "a payload it sent") + " (" + typeName(payload) + ") to "
					+ (this.input ? "inputType " : "outputType ") + this.contentType + ": " + reason(ex), ex);
		}
		return MessageBuilder.withPayload(converted)
			.copyHeaders(message.getHeaders())
			.setHeader(MessageHeaders.CONTENT_TYPE, this.contentType)
			.build();
	}

	private Object convertPayload(Object payload, MessageHeaders headers) {
		if (this.target.getType().equals("text")) {
			return toText(payload, headers);
		}
		return switch (this.target.getSubtype()) {
			case "json" -> this.input ? parsed(payload) : toJsonText(payload);
			case "x-xd-tuple" -> {
				Object parsed = parsed(payload);
				if (!(parsed instanceof Map<?, ?>)) {
					throw new IllegalArgumentException("a tuple is a JSON object, not " + typeName(parsed));
				}
				yield parsed;
			}
			default -> toBytes(payload, headers);
		};
	}

	private String toText(Object payload, MessageHeaders headers) {
		if (payload instanceof String string) {
			return string;
		}
		if (payload instanceof byte[] bytes) {
			MimeType plain = new MimeType("text", "plain", charset(headers));
			return (String) require(this.text.fromMessage(view(bytes, plain), String.class));
		}
		if (isJson(payload)) {
			return toJsonText(payload);
		}
		return payload.toString();
	}

	private String toJsonText(Object payload) {
		if (payload instanceof String string) {
			return string;
		}
		if (payload instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		return (String) require(this.jsonText.toMessage(payload, null)).getPayload();
	}

	private byte[] toBytes(Object payload, MessageHeaders headers) {
		if (payload instanceof byte[] bytes) {
			return bytes;
		}
		if (payload instanceof String string) {
			MessageHeaders plain = new MessageHeaders(Map.of(MessageHeaders.CONTENT_TYPE,
					new MimeType("text", "plain", charset(headers))));
			return (byte[]) require(this.text.toMessage(string, plain)).getPayload();
		}
		return (byte[]) require(this.json.toMessage(payload, null)).getPayload();
	}

	/** The payload as a parsed JSON document: a map for an object, a list for an array. */
	private Object parsed(Object payload) {
		if (isJson(payload)) {
			return payload;
		}
		Object body = (payload instanceof String string) ? string.getBytes(StandardCharsets.UTF_8) : payload;
		if (!(body instanceof byte[] bytes)) {
			throw new IllegalArgumentException("only text or bytes can be parsed as JSON");
		}
		Class<?> document = startsAnArray(bytes) ? List.class : Map.class;
		return require(this.json.fromMessage(view(bytes, new MimeType("application", "json")), document));
	}

	private static boolean startsAnArray(byte[] bytes) {
		for (byte b : bytes) {
			if (!Character.isWhitespace(b)) {
				return b == '[';
			}
		}
		return false;
	}

	/** The charset of the type asked for, else of the message's own {@code contentType}, else UTF-8. */
	private Charset charset(MessageHeaders headers) {
		if (this.target.getCharset() != null) {
			return this.target.getCharset();
		}
		try {
			MimeType given = CONTENT_TYPES.resolve(headers);
			if (given != null && given.getCharset() != null) {
				return given.getCharset();
			}
		}
		catch (IllegalArgumentException ex) {
			// a contentType that does not parse says nothing about the charset
		}
		return StandardCharsets.UTF_8;
	}

	private static Message<byte[]> view(byte[] bytes, MimeType type) {
		return MessageBuilder.withPayload(bytes).setHeader(MessageHeaders.CONTENT_TYPE, type).build();
	}

	private static <T> T require(T converted) {
		if (converted == null) {
			throw new IllegalArgumentException("no converter could convert it");
		}
		return converted;
	}

	private static boolean isJson(Object payload) {
		return payload instanceof Map<?, ?> || payload instanceof Collection<?>;
	}

	private static String typeName(Object payload) {
		return (payload instanceof byte[]) ? "byte[]" : payload.getClass().getSimpleName();
	}

	/** The first line of the deepest cause's message, the one that says what was wrong. */
	private static String reason(Throwable ex) {
		return ContainerServer.reason(NestedExceptionUtils.getMostSpecificCause(ex));
	}
}
