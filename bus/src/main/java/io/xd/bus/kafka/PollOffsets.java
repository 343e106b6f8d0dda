package io.xd.bus.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** The offsets a consumer binding commits or goes back to, per partition of one poll's records. */
final class PollOffsets {

	private PollOffsets() {
	}

	/** The next offset to read of each partition of {@code records}. */
	static Map<TopicPartition, OffsetAndMetadata> next(List<ConsumerRecord<byte[], byte[]>> records) {
		return next(records, records.size());
	}

	/** The next offset to read of each partition of {@code records}, after the first {@code count} of them. */
	static Map<TopicPartition, OffsetAndMetadata> next(List<ConsumerRecord<byte[], byte[]>> records, int count) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		// from the last record back, the first one seen of a partition is its last: a poll's records come partition
		// by partition, so this makes a map entry per run of a partition rather than per record
		ConsumerRecord<byte[], byte[]> previous = null;
		for (int i = count - 1; i >= 0; i--) {
			ConsumerRecord<byte[], byte[]> record = records.get(i);
			if (!samePartition(record, previous)) {
				offsets.putIfAbsent(new TopicPartition(record.topic(), record.partition()),
						new OffsetAndMetadata(record.offset() + 1));
				previous = record;
			}
		}
		return offsets;
	}

	/** The offset of the first record of each partition of {@code records}. */
	static Map<TopicPartition, Long> first(List<ConsumerRecord<byte[], byte[]>> records) {
		Map<TopicPartition, Long> first = new HashMap<>();
		ConsumerRecord<byte[], byte[]> previous = null;
		for (ConsumerRecord<byte[], byte[]> record : records) {
			if (!samePartition(record, previous)) {
				first.putIfAbsent(new TopicPartition(record.topic(), record.partition()), record.offset());
				previous = record;
			}
		}
		return first;
	}

	private static boolean samePartition(ConsumerRecord<?, ?> record, ConsumerRecord<?, ?> previous) {
		return previous != null && record.partition() == previous.partition()
				&& record.topic().equals(previous.topic());
	}
}
