package io.xd.bus.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The offsets a consumer binding commits or goes back to, per partition of one poll's records. A poll's records come
 * partition by partition (a {@code ConsumerRecords} groups them so), so each partition's records are one run: the
 * runs' ends are found by search, a few records looked at per partition instead of every record of the poll.
 */
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
		for (int start = 0; start < count; ) {
			int end = runEnd(records, start, count);
			ConsumerRecord<byte[], byte[]> last = records.get(end - 1);
			offsets.put(new TopicPartition(last.topic(), last.partition()), new OffsetAndMetadata(last.offset() + 1));
			start = end;
		}
		return offsets;
	}

	/** The offset of the first record of each partition of {@code records}. */
	static Map<TopicPartition, Long> first(List<ConsumerRecord<byte[], byte[]>> records) {
		Map<TopicPartition, Long> first = new HashMap<>();
		for (int start = 0; start < records.size(); ) {
			ConsumerRecord<byte[], byte[]> record = records.get(start);
			first.put(new TopicPartition(record.topic(), record.partition()), record.offset());
			start = runEnd(records, start, records.size());
		}
		return first;
	}

	/**
	 * The index after the last record of the run of {@code records.get(start)}'s partition, within the first
	 * {@code count}: by doubling steps, then halving, since the records after the run are of other partitions.
	 */
	private static int runEnd(List<ConsumerRecord<byte[], byte[]>> records, int start, int count) {
		ConsumerRecord<byte[], byte[]> first = records.get(start);
		if (samePartition(records.get(count - 1), first)) {
			// one partition to the end: the common case of a consumer thread that owns one
			return count;
		}
		// in the run: [start, inside]; past it: [outside, count)
		int inside = start;
		int outside = count - 1;
		for (int step = 1; inside + step < outside; step *= 2) {
			if (!samePartition(records.get(inside + step), first)) {
				outside = inside + step;
				break;
			}
			inside += step;
		}
		while (outside - inside > 1) {
			int middle = (inside + outside) >>> 1;
			if (samePartition(records.get(middle), first)) {
				inside = middle;
			}
			else {
				outside = middle;
			}
		}
		return outside;
	}

	private static boolean samePartition(ConsumerRecord<?, ?> record, ConsumerRecord<?, ?> other) {
		return record.partition() == other.partition() && record.topic().equals(other.topic());
	}
}
