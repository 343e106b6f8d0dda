package io.xd.benchmarks.runner;

import java.nio.charset.StandardCharsets;
import java.util.Properties;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KafkaStreamsHopTests {

	@Test
	void bridgeCopiesValueAndHeaders() {
		TestRecord<byte[], byte[]> out = hop("bridge", "abc");

		assertThat(new String(out.value(), StandardCharsets.UTF_8)).isEqualTo("abc");
		assertThat(out.headers().lastHeader("xd-payload").value()).isEqualTo("String".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void transformUpperCasesTheText() {
		assertThat(new String(hop("transform", "abc").value(), StandardCharsets.UTF_8)).isEqualTo("ABC");
	}

	@Test
	void rejectsAnUnknownHop() {
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaStreamsHop.topology("filter", "in", "out"))
			.withMessage("no hop filter (bridge or transform)");
	}

	private static TestRecord<byte[], byte[]> hop(String hop, String value) {
		Properties config = new Properties();
		config.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
		try (TopologyTestDriver driver = new TopologyTestDriver(KafkaStreamsHop.topology(hop, "in", "out"), config)) {
			TestInputTopic<byte[], byte[]> in = driver.createInputTopic("in", new ByteArraySerializer(),
					new ByteArraySerializer());
			TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic("out", new ByteArrayDeserializer(),
					new ByteArrayDeserializer());
			RecordHeaders headers = new RecordHeaders();
			headers.add("xd-payload", "String".getBytes(StandardCharsets.UTF_8));
			in.pipeInput(new TestRecord<>(null, value.getBytes(StandardCharsets.UTF_8), headers));
			return out.readRecord();
		}
	}
}
