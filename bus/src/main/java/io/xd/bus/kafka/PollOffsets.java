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

	/** The next offset to read of each partition of {@code records}, after the first {@code count} of them. */
	static Map<TopicPartition, OffsetAndMetadata> next(List<ConsumerRecord<byte[], byte[]>> records, int count) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		for (int i = 0; i < count; i++) {
			ConsumerRecord<byte[], byte[]> record = records.get(i);
			offsets.put(new TopicPartition(record.topic(), record.partition()),
					new OffsetAndMetadata(record.offset() + 1));
		}
		return offsets;
	}

	/** The offset of the first record of each partition of {@code records}. */
	static Map<TopicPartition, Long> first(List<ConsumerRecord<byte[], byte[]>> records) {
		Map<TopicPartition, Long> first = new HashMap<>();
		for (ConsumerRecord<byte[], byte[]> record : records) {
			first.putIfAbsent(new TopicPartition(record.topic(), record.partition()), record.offset());
		}
		return first;
	}
}
