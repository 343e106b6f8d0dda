package io.xd.benchmarks.runner;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosHistoryTests {

	/** Sends {@code count} messages 10 ms apart from {@code from}, each acknowledged 2 ms after it was sent. */
	private static void sendAcked(ChaosHistory history, int count, long from) {
		for (int i = 0; i < count; i++) {
			int seq = history.send(from + 10L * i);
			history.acked(seq, from + 10L * i + 2);
		}
	}

	@Test
	void countsLostDuplicatedAndOutOfOrderMessages() {
		ChaosHistory history = new ChaosHistory();
		sendAcked(history, 10, 0);
		int unacknowledged = history.send(100);
		history.failed(unacknowledged);
		for (int seq : new int[] { 0, 1, 3, 2, 3, 4, 6, 7, 8 }) {
			history.received(0, seq, 200);
		}
		history.received(0, 99, 200);

		ChaosHistory.Summary summary = history.summary();

		assertThat(summary.attempted()).isEqualTo(11);
		assertThat(summary.sent()).isEqualTo(10);
		assertThat(summary.unacknowledged()).isEqualTo(1);
		assertThat(summary.received()).isEqualTo(8);
		// 5 and 9 never came
		assertThat(summary.lost()).isEqualTo(2);
		assertThat(summary.duplicates()).isEqualTo(1);
		// 2 after 3
		assertThat(summary.outOfOrder()).isEqualTo(1);
		assertThat(summary.unknown()).isEqualTo(1);
		assertThat(history.complete()).isFalse();
	}

	@Test
	void orderIsPerPartitionAndAnUnacknowledgedMessageIsNotOwedButCountsWhenItComes() {
		ChaosHistory history = new ChaosHistory();
		sendAcked(history, 4, 0);
		int unacknowledged = history.send(50);
		history.received(1, 3, 100);
		history.received(0, 0, 100);
		history.received(0, 1, 100);
		history.received(1, 2, 100);

		assertThat(history.complete()).isTrue();
		assertThat(history.summary().outOfOrder()).isEqualTo(1);
		assertThat(history.summary().lost()).isZero();

		history.received(0, unacknowledged, 120);
		assertThat(history.summary().received()).isEqualTo(5);
		assertThat(history.summary().lost()).isZero();
	}

	@Test
	void findsTheLongestStallAndTheMessagesReadEachSecond() {
		ChaosHistory history = new ChaosHistory();
		sendAcked(history, 4, 0);
		history.received(0, 0, 100);
		history.received(0, 1, 900);
		history.received(0, 2, 4_900);
		history.received(0, 3, 5_000);

		ChaosHistory.Summary summary = history.summary();

		assertThat(summary.longestStallMillis()).isEqualTo(4_000);
		assertThat(summary.stallAtMillis()).isEqualTo(900);
		assertThat(summary.perSecond()).containsExactly(2, 0, 0, 0, 1, 1);
	}

	@Test
	void recoveryIsWhenMessagesSentAfterTheFaultComeThroughInTimeAgainForAWholeWindow() {
		ChaosHistory history = new ChaosHistory();
		// 1 000 messages over 10 s; those sent from 2 s to 5 s wait until 6 s, the rest take 20 ms
		sendAcked(history, 1_000, 0);
		for (int seq = 0; seq < 1_000; seq++) {
			long sent = 10L * seq;
			history.received(0, seq, (sent >= 2_000 && sent < 5_000) ? 6_000 : sent + 20);
		}

		// a fault at 2 s: back with the message sent at 5 s, read at 5.02 s
		assertThat(history.recoveryMillis(2_000, 3_000, 1_000)).isEqualTo(3_020);
		// a fault at 7 s, after all that: back at once
		assertThat(history.recoveryMillis(7_000, 3_000, 1_000)).isEqualTo(20);
		// a fault after the last message: never measured
		assertThat(history.recoveryMillis(20_000, 3_000, 1_000)).isEqualTo(-1);
	}

	@Test
	void aMessageNeverReadMeansNoRecoveryAfterIt() {
		ChaosHistory history = new ChaosHistory();
		sendAcked(history, 500, 0);
		for (int seq = 0; seq < 499; seq++) {
			history.received(0, seq, 10L * seq + 5);
		}

		assertThat(history.recoveryMillis(4_000, 3_000, 1_000)).isEqualTo(-1);
		assertThat(history.recoveryMillis(0, 3_000, 1_000)).isEqualTo(5);
	}
}
