package io.xd.server;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what a stream wrote to a Kafka topic from the start and checks the sequence numbers of
 * {@code load-generator --generateTimestamp=true} (the first 4 bytes of each payload): which arrived, how many came
 * more than once, which are missing. It reads committed records only ({@code read_committed}), as the bus's own
 * consumers do: records of aborted transactions are not what a stream delivered.
 */
final class SequenceReader implements AutoCloseable {

	private final KafkaConsumer<byte[], byte[]> consumer;

	private final int expected;

	private final BitSet seen;

	private final BitSet repeated;

	private long received;

	private long duplicates;

	SequenceReader(String brokers, String topic, int expected) {
		this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers,
				ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
				"earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(),
				new ByteArrayDeserializer());
		this.consumer.subscribe(List.of(topic));
		this.expected = expected;
		this.seen = new BitSet(expected);
		this.repeated = new BitSet(expected);
	}

	/** Reads until {@code done} says so or {@code timeout} has passed; returns {@code done}'s last answer. */
	boolean readUntil(BooleanSupplier done, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!done.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			for (ConsumerRecord<byte[], byte[]> record : this.consumer.poll(Duration.ofMillis(100))) {
				count(ByteBuffer.wrap(record.value()).getInt(0));
			}
		}
		return true;
	}

	/** Reads until every expected sequence number has arrived, or {@code timeout} has passed. */
	boolean readAll(Duration timeout) {
		return readUntil(() -> distinct() == this.expected, timeout);
	}

	long received() {
		return this.received;
	}

	int distinct() {
		return this.seen.cardinality();
	}

	long duplicates() {
		return this.duplicates;
	}

	/** The sequence numbers that arrived more than once, as ranges ({@code 5-9, 12}). */
	String repeatedRanges() {
		return ranges(this.repeated);
	}

	/** The sequence numbers not (yet) arrived, as ranges. */
	String missingRanges() {
		BitSet missing = new BitSet(this.expected);
		missing.set(0, this.expected);
		missing.andNot(this.seen);
		return ranges(missing);
	}

	@Override
	public void close() {
		this.consumer.close();
	}

	private void count(int sequence) {
		this.received++;
		if (this.seen.get(sequence)) {
			this.duplicates++;
			this.repeated.set(sequence);
		}
		this.seen.set(sequence);
	}

	private static String ranges(BitSet bits) {
		StringBuilder text = new StringBuilder();
		for (int start = bits.nextSetBit(0); start >= 0; start = bits.nextSetBit(bits.nextClearBit(start))) {
			int end = bits.nextClearBit(start) - 1;
			text.append(text.isEmpty() ? "" : ", ").append(start).append((end > start) ? "-" + end : "");
		}
		return text.toString();
	}
}
