package io.xd.modules.builtin;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyRecorderTests {

	@Test
	void addsUpWhatEveryThreadRecorded() throws Exception {
		LatencyRecorder recorder = new LatencyRecorder();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			threads.add(new Thread(() -> {
				for (long micros = 1; micros <= 10_000; micros++) {
					recorder.record(micros * 1000);
				}
			}));
		}
		threads.forEach(Thread::start);
		for (Thread thread : threads) {
			thread.join();
		}

		Histogram all = recorder.cumulative();
		assertThat(all.getTotalCount()).isEqualTo(40_000);
		assertThat(all.getValueAtPercentile(50)).isCloseTo(5_000_000L, within(5_000L));
		assertThat(all.getValueAtPercentile(99)).isCloseTo(9_900_000L, within(10_000L));
		assertThat(all.getMaxValue()).isCloseTo(10_000_000L, within(10_000L));
		assertThat(all.getMinValue()).isCloseTo(1_000L, within(1L));
	}

	@Test
	void givesEachValueToExactlyOneInterval() {
		LatencyRecorder recorder = new LatencyRecorder();
		recorder.record(100);
		recorder.record(200);

		Histogram first = recorder.takeInterval();
		recorder.record(300);
		Histogram cumulative = recorder.cumulative();
		Histogram second = recorder.takeInterval();

		assertThat(first.getTotalCount()).isEqualTo(2);
		assertThat(second.getTotalCount()).isEqualTo(1);
		assertThat(second.getMaxValue()).isEqualTo(300);
		assertThat(cumulative.getTotalCount()).isEqualTo(3);
		assertThat(recorder.takeInterval().getTotalCount()).isZero();
	}

	@Test
	void clampsValuesOutsideTheTrackableRange() {
		LatencyRecorder recorder = new LatencyRecorder();
		recorder.record(-5);
		recorder.record(Long.MAX_VALUE);

		Histogram all = recorder.cumulative();
		assertThat(all.getTotalCount()).isEqualTo(2);
		assertThat(all.getMinValue()).isZero();
		assertThat(all.valuesAreEquivalent(all.getMaxValue(), LatencyRecorder.HIGHEST_TRACKABLE_NANOS)).isTrue();
	}
}
