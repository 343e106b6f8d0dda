package io.xd.container;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.TypeConversion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** What {@code --inputType} and {@code --outputType} make of each kind of payload. */
class PayloadConversionTests {

	private static Object in(String type, Object payload) {
		return conversion(type, true).convert(new GenericMessage<>(payload)).getPayload();
	}

	private static Object out(String type, Object payload) {
		return conversion(type, false).convert(new GenericMessage<>(payload)).getPayload();
	}

	private static PayloadConversion conversion(String type, boolean input) {
		return new PayloadConversion(TypeConversion.parse(type), "s.processor.transform.1", input);
	}

	@Test
	void jsonAsAnInputTypeGivesAMapWhoseFieldsExpressionsCanRead() {
		Object order = in("application/json", "{\"id\":7,\"customer\":{\"id\":\"c1\"}}".getBytes(StandardCharsets.UTF_8));
		assertThat(order).isEqualTo(Map.of("id", 7, "customer", Map.of("id", "c1")));
		assertThat(in("application/json", "[1,2]")).isEqualTo(List.of(1, 2));
		assertThat(in("application/x-xd-tuple", "{\"a\":true}")).isEqualTo(Map.of("a", true));
	}

	@Test
	void jsonAsAnOutputTypeGivesJsonTextAndSaysSoInTheContentType() {
		Message<?> sent = conversion("application/json", false).convert(MessageBuilder.withPayload(Map.of("id", 7))
			.setHeader("kept", "yes")
			.build());
		assertThat(sent.getPayload()).isEqualTo("{\"id\":7}");
		assertThat(sent.getHeaders()).containsEntry(MessageHeaders.CONTENT_TYPE, "application/json")
			.containsEntry("kept", "yes");
		assertThat(out("application/json", "<already text>")).isEqualTo("<already text>");
	}

	@Test
	void textUsesTheCharsetAskedForElseTheMessagesElseUtf8() {
		byte[] latin = "grüße".getBytes(StandardCharsets.ISO_8859_1);
		assertThat(in("text/plain;charset=ISO-8859-1", latin)).isEqualTo("grüße");
		Message<byte[]> labelled = MessageBuilder.withPayload(latin)
			.setHeader(MessageHeaders.CONTENT_TYPE, "text/plain;charset=ISO-8859-1")
			.build();
		assertThat(conversion("text/plain", true).convert(labelled).getPayload()).isEqualTo("grüße");
		assertThat(in("text/plain", "grüße".getBytes(StandardCharsets.UTF_8))).isEqualTo("grüße");
		assertThat(in("text/plain", Map.of("a", 1))).isEqualTo("{\"a\":1}");
		assertThat(in("text/plain", 42)).isEqualTo("42");
	}

	@Test
	void octetStreamGivesBytes() {
		assertThat(out("application/octet-stream", "hé")).isEqualTo("hé".getBytes(StandardCharsets.UTF_8));
		assertThat(out("application/octet-stream", List.of("a"))).isEqualTo("[\"a\"]".getBytes(StandardCharsets.UTF_8));
		byte[] bytes = { 1, 2 };
		assertThat(out("application/octet-stream", bytes)).isSameAs(bytes);
	}

	@Test
	void aPayloadThatCannotBeConvertedFailsNamingTheModuleTheTypeAndTheCause() {
		assertThatExceptionOfType(MessageConversionException.class)
			.isThrownBy(() -> in("application/json", "{not json"))
			.withMessageContaining("s.processor.transform.1")
			.withMessageContaining("inputType application/json")
			.withMessageContaining("(String)");
		assertThatExceptionOfType(MessageConversionException.class)
			.isThrownBy(() -> in("application/x-xd-tuple", "[1]"))
			.withMessageContaining("a tuple is a JSON object");
	}

	@Test
	void aConvertingHandlerHandsOnTheConvertedMessage() {
		List<Object> received = new ArrayList<>();
		conversion("application/json", true).converting(message -> received.add(message.getPayload()))
			.handleMessage(new GenericMessage<>("{\"id\":1}"));
		assertThat(received).containsExactly(Map.of("id", 1));
	}
}
