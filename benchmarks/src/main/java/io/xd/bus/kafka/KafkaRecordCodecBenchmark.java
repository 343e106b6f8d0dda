package io.xd.bus.kafka;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.benchmarks.XdBenchmark;

/**
 * What the Kafka bus's producer binding adds per record to building the record: {@link KafkaRecords.Encoder}
 * turning a 100-byte message into a {@link ProducerRecord}, beside {@link #bareProducerRecord()}, a bare
 * {@code new ProducerRecord<>(topic, bytes)} of the same payload, in the same run. (In the benchmarks module but in
 * the bus's package, since the encoder is internal to the Kafka bus.)
 * <ul>
 * <li>{@link #xdRecordRaw()}: mode {@code raw}, the payload only;</li>
 * <li>{@link #xdRecordNoHeaders()}: mode {@code embeddedHeaders}, a message with no headers of its own (what
 * {@code load-generator} sends);</li>
 * <li>{@link #xdRecordSharedHeaders()}: two headers (a String and an Integer) on every message, in one headers
 * instance, as a module that keeps its headers sends them: encoded once;</li>
 * <li>{@link #xdRecordNewHeaders()}: the same two headers in a new headers instance per message (alternating
 * between two ready messages, so that the benchmark itself allocates nothing): encoded per record.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch" })
public class KafkaRecordCodecBenchmark extends XdBenchmark {

	private static final String TOPIC = "bench.0";

	private final byte[] payload = new byte[100];

	/** A message with no headers of its own, as {@code load-generator} sends them (no id, no timestamp). */
	private final Message<byte[]> plain = new GenericMessage<>(this.payload, new NoHeaders());

	private final Message<byte[]> withHeaders = headed();

	private final Message<byte[]> otherWithHeaders = headed();

	private final KafkaRecords.Encoder raw = new KafkaRecords.Encoder(true);

	private final KafkaRecords.Encoder embedded = new KafkaRecords.Encoder(false);

	private final KafkaRecords.Encoder shared = new KafkaRecords.Encoder(false);

	private final KafkaRecords.Encoder fresh = new KafkaRecords.Encoder(false);

	private boolean flip;

	private Message<byte[]> headed() {
		return MessageBuilder.withPayload(this.payload).copyHeaders(Map.of("contentType", "text/plain", "seq", 7))
			.build();
	}

	/** Headers without a generated id or timestamp. */
	private static final class NoHeaders extends MessageHeaders {

		NoHeaders() {
			super(Map.of(), ID_VALUE_NONE, -1L);
		}
	}

	@Benchmark
	public ProducerRecord<byte[], byte[]> bareProducerRecord() {
		return new ProducerRecord<>(TOPIC, this.payload);
	}

	@Benchmark
	public ProducerRecord<byte[], byte[]> xdRecordRaw() {
		return this.raw.record(TOPIC, null, this.plain);
	}

	@Benchmark
	public ProducerRecord<byte[], byte[]> xdRecordNoHeaders() {
		return this.embedded.record(TOPIC, null, this.plain);
	}

	@Benchmark
	public ProducerRecord<byte[], byte[]> xdRecordSharedHeaders() {
		return this.shared.record(TOPIC, null, this.withHeaders);
	}

	@Benchmark
	public ProducerRecord<byte[], byte[]> xdRecordNewHeaders() {
		this.flip = !this.flip;
		return this.fresh.record(TOPIC, null, this.flip ? this.withHeaders : this.otherWithHeaders);
	}
}
