package io.xd.bus.kafka;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PollOffsetsTests {

	/** A poll as a consumer hands it over: runs of records, partition by partition, offsets rising in each. */
	private static List<ConsumerRecord<byte[], byte[]>> poll(Object... runs) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		for (int i = 0; i < runs.length; i += 4) {
			String topic = (String) runs[i];
			int partition = (Integer) runs[i + 1];
			long from = (Long) runs[i + 2];
			int count = (Integer) runs[i + 3];
			for (int j = 0; j < count; j++) {
				records.add(new ConsumerRecord<>(topic, partition, from + j, null, new byte[0]));
			}
		}
		return records;
	}

	@Test
	void eachPartitionsNextOffsetIsAfterItsLastRecordAndItsFirstIsItsFirstRecords() {
		// runs of every length from 1 to 7, around the search's doubling steps
		for (int length = 1; length <= 7; length++) {
			List<ConsumerRecord<byte[], byte[]>> records = poll("a", 0, 10L, length, "a", 1, 40L, 1, "b", 0, 5L,
					length + 2, "a", 2, 0L, 3);

			assertThat(PollOffsets.next(records)).isEqualTo(Map.of(new TopicPartition("a", 0),
					new OffsetAndMetadata(10 + length), new TopicPartition("a", 1), new OffsetAndMetadata(41),
					new TopicPartition("b", 0), new OffsetAndMetadata(5 + length + 2), new TopicPartition("a", 2),
					new OffsetAndMetadata(3)));
			assertThat(PollOffsets.first(records)).isEqualTo(Map.of(new TopicPartition("a", 0), 10L,
					new TopicPartition("a", 1), 40L, new TopicPartition("b", 0), 5L, new TopicPartition("a", 2), 0L));
		}
	}

	@Test
	void theNextOffsetsOfTheFirstRecordsOnlyLeaveOutPartitionsNotReachedYet() {
		List<ConsumerRecord<byte[], byte[]>> records = poll("t", 0, 100L, 2000, "t", 1, 7L, 10);

		assertThat(PollOffsets.next(records, 1500)).isEqualTo(Map.of(new TopicPartition("t", 0),
				new OffsetAndMetadata(1600)));
		assertThat(PollOffsets.next(records, 2001)).isEqualTo(Map.of(new TopicPartition("t", 0),
				new OffsetAndMetadata(2100), new TopicPartition("t", 1), new OffsetAndMetadata(8)));
		assertThat(PollOffsets.next(records, 0)).isEmpty();
		assertThat(PollOffsets.next(List.of())).isEmpty();
		assertThat(PollOffsets.first(List.of())).isEmpty();
	}

	@Test
	void aPollOfOnePartitionIsTheCommonCase() {
		List<ConsumerRecord<byte[], byte[]>> records = poll("t", 3, 0L, 2000);

		assertThat(PollOffsets.next(records)).containsExactly(Map.entry(new TopicPartition("t", 3),
				new OffsetAndMetadata(2000)));
		assertThat(new LinkedHashMap<>(PollOffsets.first(records))).containsExactly(Map.entry(
				new TopicPartition("t", 3), 0L));
	}
}
