package io.xd.bus.kafka;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.internals.AutoOffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When a consumer binding commits at once: it has caught up, unless its poll was full. */
class CaughtUpTests {

	private static final TopicPartition PARTITION = new TopicPartition("t", 0);

	private static MockConsumer<byte[], byte[]> consumerAt(long position, long end) {
		MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(AutoOffsetResetStrategy.EARLIEST.name());
		consumer.assign(List.of(PARTITION));
		consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
		consumer.updateEndOffsets(Map.of(PARTITION, end));
		consumer.seek(PARTITION, position);
		return consumer;
	}

	@Test
	void aPollWithNothingLeftBehindItHasCaughtUpAndOneWithALagHasNot() {
		assertThat(PipelinedCommits.caughtUp(consumerAt(100, 100), List.of(PARTITION), 10, 2000)).isTrue();
		assertThat(PipelinedCommits.caughtUp(consumerAt(90, 100), List.of(PARTITION), 10, 2000)).isFalse();
	}

	@Test
	void aFullPollIsTakenToHaveMoreBehindItWithoutAskingTheConsumer() {
		assertThat(PipelinedCommits.caughtUp(consumerAt(100, 100), List.of(PARTITION), 2000, 2000)).isFalse();
		assertThat(PipelinedCommits.caughtUp(consumerAt(100, 100), List.of(PARTITION), 1999, 2000)).isTrue();
	}

	@Test
	void aFullPollIsTheConsumersMaxPollRecordsAsConfiguredOrKafkasDefault() {
		assertThat(KafkaConsumerBinding.fullPoll(2000)).isEqualTo(2000);
		assertThat(KafkaConsumerBinding.fullPoll(" 50 ")).isEqualTo(50);
		assertThat(KafkaConsumerBinding.fullPoll(null)).isEqualTo(500);
		// the client refuses it; meanwhile no poll counts as full, so every poll asks for its lag
		assertThat(KafkaConsumerBinding.fullPoll("many")).isEqualTo(Integer.MAX_VALUE);
	}
}
