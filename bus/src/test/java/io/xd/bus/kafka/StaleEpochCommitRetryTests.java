package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StaleEpochCommitRetryTests {

	private static final TopicPartition P0 = new TopicPartition("orders.0", 0);

	private static final TopicPartition P1 = new TopicPartition("orders.0", 1);

	private static final String STALE = "OffsetCommit failed with stale member epoch. The member epoch is stale.";

	/** Kafka's in-memory consumer whose next commits fail with the given messages. */
	private static final class RefusingConsumer extends MockConsumer<byte[], byte[]> {

		final List<String> refusals = new ArrayList<>();

		final List<Map<TopicPartition, OffsetAndMetadata>> attempts = new ArrayList<>();

		RefusingConsumer() {
			super("earliest");
		}

		@Override
		public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
			this.attempts.add(Map.copyOf(offsets));
			if (!this.refusals.isEmpty()) {
				throw new CommitFailedException(this.refusals.remove(0));
			}
			super.commitSync(offsets);
		}
	}

	@Test
	void commitsAgainWhenTheMemberEpochWasStale() {
		RefusingConsumer refusing = new RefusingConsumer();
		refusing.assign(List.of(P0, P1));
		refusing.refusals.addAll(List.of(STALE, STALE));
		Consumer<byte[], byte[]> consumer = StaleEpochCommitRetry.wrap(refusing, Duration.ofSeconds(5));

		consumer.commitSync(Map.of(P0, new OffsetAndMetadata(412), P1, new OffsetAndMetadata(90)), Duration.ofSeconds(1));

		assertThat(refusing.attempts).hasSize(3);
		assertThat(refusing.committed(Set.of(P0, P1))).containsEntry(P0, new OffsetAndMetadata(412))
			.containsEntry(P1, new OffsetAndMetadata(90));
	}

	@Test
	void commitsAgainOnlyThePartitionsItStillOwns() {
		RefusingConsumer refusing = new RefusingConsumer();
		refusing.assign(List.of(P0));
		refusing.refusals.add(STALE);
		Consumer<byte[], byte[]> consumer = StaleEpochCommitRetry.wrap(refusing, Duration.ofSeconds(5));

		consumer.commitSync(Map.of(P0, new OffsetAndMetadata(412), P1, new OffsetAndMetadata(90)), Duration.ofSeconds(1));

		assertThat(refusing.attempts.get(1)).containsOnlyKeys(P0);
		assertThat(refusing.committed(Set.of(P0))).containsEntry(P0, new OffsetAndMetadata(412));
	}

	@Test
	void givesUpWhenNoneOfThePartitionsIsOwnedAnyMore() {
		RefusingConsumer refusing = new RefusingConsumer();
		refusing.assign(List.of(P1));
		refusing.refusals.add(STALE);
		Consumer<byte[], byte[]> consumer = StaleEpochCommitRetry.wrap(refusing, Duration.ofSeconds(5));

		assertThatThrownBy(() -> consumer.commitSync(Map.of(P0, new OffsetAndMetadata(412)), Duration.ofSeconds(1)))
			.isInstanceOf(CommitFailedException.class);
		assertThat(refusing.attempts).hasSize(1);
	}

	@Test
	void passesOtherCommitFailuresOnAtOnce() {
		RefusingConsumer refusing = new RefusingConsumer();
		refusing.assign(List.of(P0));
		refusing.refusals.add("OffsetCommit failed with unknown member ID.");
		Consumer<byte[], byte[]> consumer = StaleEpochCommitRetry.wrap(refusing, Duration.ofSeconds(5));

		assertThatThrownBy(() -> consumer.commitSync(Map.of(P0, new OffsetAndMetadata(7)), Duration.ofSeconds(1)))
			.isInstanceOf(CommitFailedException.class)
			.hasMessageContaining("unknown member ID");
		assertThat(refusing.attempts).hasSize(1);
	}

	@Test
	void givesUpWhenTheEpochStaysStale() {
		RefusingConsumer refusing = new RefusingConsumer();
		refusing.assign(List.of(P0));
		for (int i = 0; i < 1000; i++) {
			refusing.refusals.add(STALE);
		}
		Consumer<byte[], byte[]> consumer = StaleEpochCommitRetry.wrap(refusing, Duration.ofMillis(200));

		long start = System.nanoTime();
		assertThatThrownBy(() -> consumer.commitSync(Map.of(P0, new OffsetAndMetadata(7)), Duration.ofSeconds(1)))
			.isInstanceOf(CommitFailedException.class);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
		assertThat(refusing.attempts.size()).isBetween(2, 100);
	}

	@Test
	void leavesEverythingElseToTheConsumer() {
		RefusingConsumer refusing = new RefusingConsumer();
		Consumer<byte[], byte[]> consumer = StaleEpochCommitRetry.wrap(refusing, Duration.ofSeconds(5));
		consumer.assign(List.of(P0, P1));
		assertThat(refusing.assignment()).containsExactlyInAnyOrder(P0, P1);
		assertThat(consumer.assignment()).containsExactlyInAnyOrder(P0, P1);
	}
}
