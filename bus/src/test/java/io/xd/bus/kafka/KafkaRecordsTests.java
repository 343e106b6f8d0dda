package io.xd.bus.kafka;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The record codec without a broker: payloads and headers as they go into a record and come out of one. */
class KafkaRecordsTests {

	@Test
	void bytesTravelAsTheyAreAndStringsAsUtf8() {
		byte[] bytes = { 0, (byte) 0xff, 42 };
		assertThat(KafkaRecords.payload(new GenericMessage<>(bytes))).isSameAs(bytes);
		assertThat(KafkaRecords.payload(new GenericMessage<>("grüße"))).isEqualTo("grüße"
			.getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void refusesPayloadsItWouldHaveToSerializeAndSaysHowToSendThemAsText() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> KafkaRecords.payload(new GenericMessage<>(new java.util.Date())))
			.withMessageContaining("byte[], String, Map, List, number, boolean and UUID payloads")
			.withMessageContaining("--outputType=application/json");
	}

	/** A message through the encoder into a record, and back out of it as a consumer sees it. */
	private static Message<?> hop(Message<?> sent, boolean raw) {
		ProducerRecord<byte[], byte[]> record = new KafkaRecords.Encoder(raw).record("t", null, sent);
		return KafkaRecords.message(record.value(), record.headers(), raw);
	}

	@Test
	void aStringStaysAStringAndBytesStayBytesAcrossAHop() {
		assertThat(hop(new GenericMessage<>("grüße"), false).getPayload()).isEqualTo("grüße");
		assertThat(hop(new GenericMessage<>(new byte[] { 1, 2 }), false).getPayload()).isEqualTo(new byte[] { 1, 2 });
		// bytes labelled as text are still bytes: the label is the module's, the type is the payload's
		Message<?> labelled = hop(MessageBuilder.withPayload("hi".getBytes(StandardCharsets.UTF_8))
			.setHeader(MessageHeaders.CONTENT_TYPE, "text/plain")
			.build(), false);
		assertThat(labelled.getPayload()).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
		assertThat(labelled.getHeaders()).containsEntry(MessageHeaders.CONTENT_TYPE, "text/plain")
			.doesNotContainKey(KafkaRecords.PAYLOAD_HEADER);
	}

	@Test
	void numbersBooleansAndUuidsAnExpressionGivesComeBackWithTheirTypes() {
		UUID id = UUID.randomUUID();
		for (Object payload : List.of(42, 5_000_000_000L, 1.5d, 2.5f, (short) 7, true, new BigDecimal("12.30"),
				new BigInteger("123456789012345678901234567890"), id)) {
			assertThat(hop(new GenericMessage<>(payload), false).getPayload()).as("%s", payload.getClass())
				.isEqualTo(payload);
		}
		// without the record's type header (raw mode) it is the text's bytes
		assertThat(hop(new GenericMessage<>(42), true).getPayload()).isEqualTo("42".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void theContentTypeTravelsWithTheRecordSoJsonTextAndBinaryAreToldApart() {
		Message<?> json = hop(MessageBuilder.withPayload("{\"id\":7}")
			.setHeader(MessageHeaders.CONTENT_TYPE, MimeType.valueOf("application/json"))
			.build(), false);
		assertThat(json.getPayload()).isEqualTo("{\"id\":7}");
		assertThat(json.getHeaders().get(MessageHeaders.CONTENT_TYPE)).isEqualTo(MimeType.valueOf("application/json"));
	}

	@Test
	void mapsAndListsCrossAsJsonAndComeBackAsMapsAndLists() {
		Map<String, Object> order = Map.of("id", 7, "customer", Map.of("name", "Ada"), "lines", List.of("a", "b"));
		assertThat(hop(new GenericMessage<>(order), false).getPayload()).isEqualTo(order);
		assertThat(hop(new GenericMessage<>(List.of(1, 2)), false).getPayload()).isEqualTo(List.of(1, 2));
	}

	@Test
	void rawModeGivesBytesWhateverWasSent() {
		assertThat(hop(new GenericMessage<>("text"), true).getPayload())
			.isEqualTo("text".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void aRecordFromAnotherProgramIsTextWhenItsContentTypeSaysSoInItsCharset() {
		RecordHeaders latin = new RecordHeaders();
		latin.add("contentType", "text/plain;charset=ISO-8859-1".getBytes(StandardCharsets.UTF_8));
		assertThat(KafkaRecords.message("grüße".getBytes(StandardCharsets.ISO_8859_1), latin, false).getPayload())
			.isEqualTo("grüße");
		RecordHeaders json = new RecordHeaders();
		json.add("contentType", "application/json".getBytes(StandardCharsets.UTF_8));
		assertThat(KafkaRecords.message("{}".getBytes(StandardCharsets.UTF_8), json, false).getPayload())
			.isEqualTo("{}".getBytes(StandardCharsets.UTF_8));
		assertThat(KafkaRecords.message("x".getBytes(StandardCharsets.UTF_8), null, false).getPayload())
			.isEqualTo("x".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void aRecordMarkedJsonThatIsNotJsonIsRefusedWithTheReason() {
		RecordHeaders record = new RecordHeaders();
		record.add(KafkaRecords.PAYLOAD_HEADER, "json".getBytes(StandardCharsets.UTF_8));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> KafkaRecords.message("{oops".getBytes(StandardCharsets.UTF_8), record, false))
			.withMessageContaining("not JSON");
	}

	@Test
	void aMessageWithOnlyItsIdAndTimestampHasNoRecordHeaders() {
		assertThat(KafkaRecords.headers(new GenericMessage<>("x").getHeaders())).isNull();
	}

	@Test
	void typedHeadersComeBackWithTheirTypes() {
		UUID correlation = UUID.randomUUID();
		Message<String> sent = MessageBuilder.withPayload("x")
			.setHeader("name", "value")
			.setHeader("count", 42)
			.setHeader("big", 1L << 40)
			.setHeader("ratio", 0.5d)
			.setHeader("flag", true)
			.setHeader("correlation", correlation)
			.setHeader("contentType", MimeType.valueOf("text/plain"))
			.setHeader("raw", new byte[] { (byte) 0xff, 2 })
			.build();
		Message<?> received = hop(sent, false);
		assertThat(received.getPayload()).isEqualTo("x");
		MessageHeaders headers = received.getHeaders();
		assertThat(headers.get("name")).isEqualTo("value");
		assertThat(headers.get("count")).isEqualTo(42);
		assertThat(headers.get("big")).isEqualTo(1L << 40);
		assertThat(headers.get("ratio")).isEqualTo(0.5d);
		assertThat(headers.get("flag")).isEqualTo(true);
		assertThat(headers.get("correlation")).isEqualTo(correlation);
		assertThat(headers.get("contentType")).isEqualTo(MimeType.valueOf("text/plain"));
		assertThat((byte[]) headers.get("raw")).containsExactly(0xff, 2);
		assertThat(headers).doesNotContainKey(KafkaRecords.TYPES_HEADER);
		assertThat(headers.getId()).isNull();
	}

	@Test
	void headersOfOtherTypesAreLeftOutAndTheRestTravels() {
		Message<String> sent = MessageBuilder.withPayload("x")
			.setHeader("object", new Object())
			.setHeader("kept", "yes")
			.build();
		Message<?> received = KafkaRecords.message(new byte[0], KafkaRecords.headers(sent.getHeaders()), false);
		assertThat(received.getHeaders()).containsEntry("kept", "yes").doesNotContainKey("object");
	}

	@Test
	void rawModeIgnoresRecordHeaders() {
		RecordHeaders record = new RecordHeaders();
		record.add("name", "value".getBytes(StandardCharsets.UTF_8));
		Message<?> received = KafkaRecords.message(new byte[] { 1 }, record, true);
		assertThat(received.getHeaders()).doesNotContainKey("name");
	}

	@Test
	void headersFromOtherClientsThatAreNotUtf8StayBytes() {
		RecordHeaders record = new RecordHeaders();
		record.add("binary", new byte[] { (byte) 0xc3, 0x28 });
		record.add("text", "plain".getBytes(StandardCharsets.UTF_8));
		MessageHeaders headers = KafkaRecords.message(new byte[0], record, false).getHeaders();
		assertThat((byte[]) headers.get("binary")).containsExactly(0xc3, 0x28);
		assertThat(headers.get("text")).isEqualTo("plain");
	}

	@Test
	void aTypeListThatDoesNotMatchItsHeaderLeavesTheHeaderAsText() {
		RecordHeaders record = new RecordHeaders();
		record.add("count", "not a number".getBytes(StandardCharsets.UTF_8));
		record.add(KafkaRecords.TYPES_HEADER, "count=Integer".getBytes(StandardCharsets.UTF_8));
		assertThat(KafkaRecords.message(new byte[0], record, false).getHeaders().get("count"))
			.isEqualTo("not a number");
	}
}
