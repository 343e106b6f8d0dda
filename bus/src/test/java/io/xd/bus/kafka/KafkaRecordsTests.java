package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.common.header.Headers;
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
	void refusesPayloadsItWouldHaveToSerialize() {
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaRecords.payload(new GenericMessage<>(Map.of())))
			.withMessageContaining("byte[] and String payloads");
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
		Headers record = KafkaRecords.headers(sent.getHeaders());

		Message<byte[]> received = KafkaRecords.message(new byte[] { 7 }, record, false);
		assertThat(received.getPayload()).containsExactly(7);
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
		Message<byte[]> received = KafkaRecords.message(new byte[0], KafkaRecords.headers(sent.getHeaders()), false);
		assertThat(received.getHeaders()).containsEntry("kept", "yes").doesNotContainKey("object");
	}

	@Test
	void rawModeIgnoresRecordHeaders() {
		RecordHeaders record = new RecordHeaders();
		record.add("name", "value".getBytes(StandardCharsets.UTF_8));
		Message<byte[]> received = KafkaRecords.message(new byte[] { 1 }, record, true);
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
