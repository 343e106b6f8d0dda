package io.xd.benchmarks.runner;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RatesTests {

	private static final long MS = 1_000_000L;

	/** Samples every {@code stepMs} of a counter at {@code perMs} messages per ms from {@code startMs}, up to total. */
	private static List<Sample> run(long stepMs, double perMs, long startMs, long total, int polls) {
		List<Sample> samples = new ArrayList<>();
		for (int i = 0; i < polls; i++) {
			long t = i * stepMs;
			long count = (long) Math.min(total, Math.max(0, (t - startMs) * perMs));
			samples.add(new Sample(t * MS, count));
		}
		return samples;
	}

	@Test
	void takesTheRateBetweenSamplesInsideTheRun() {
		// 1 000 msg/ms from 25 ms on, 100 000 messages: done at 125 ms
		List<Sample> samples = run(10, 1000, 25, 100_000, 20);

		assertThat(Rates.rate(samples, 1, 100_000).get()).isCloseTo(1_000_000, within(1.0));
	}

	@Test
	void steadyRateStartsAtAThirdOfTheMessages() {
		List<Sample> samples = new ArrayList<>(List.of(new Sample(0, 0), new Sample(100 * MS, 10), new Sample(
				200 * MS, 40), new Sample(300 * MS, 70), new Sample(400 * MS, 100)));

		// first sample at or above 33 is 40 at 200 ms; last below 100 is 70 at 300 ms
		assertThat(Rates.rate(samples, 33, 100).get()).isCloseTo(300, within(1e-9));
	}

	@Test
	void fallsBackToTheMiddlesOfThePollIntervalsForShortRuns() {
		List<Sample> samples = List.of(new Sample(0, 0), new Sample(100 * MS, 50), new Sample(200 * MS, 100));

		// started in (0, 100], done in (100, 200]: 100 messages over 150 - 50 ms
		assertThat(Rates.rate(samples, 1, 100).get()).isCloseTo(1000, within(1e-9));
	}

	@Test
	void isNotAvailableWhenTheRunFitsInOnePoll() {
		Figure rate = Rates.rate(List.of(new Sample(0, 0), new Sample(50 * MS, 100)), 1, 100);

		assertThat(rate.isPresent()).isFalse();
		assertThat(rate.format("%.0f")).startsWith("n/a (the run ended within one poll interval (50 ms)");
	}

	@Test
	void isNotAvailableWhenTheCounterNeverReachesTheTotal() {
		Figure rate = Rates.rate(List.of(new Sample(0, 0), new Sample(MS, 5)), 1, 100);

		assertThat(rate.isPresent()).isFalse();
		assertThat(rate.reason()).isEqualTo("the counter did not reach 100");
		assertThat(Rates.rate(List.of(), 1, 0).reason()).isEqualTo("no messages");
	}

	@Test
	void producerRateCountsToTheBrokersAcknowledgementNotToTheHandOff() {
		// the source hands 1 000 messages over by 100 ms, the broker acknowledges the last at 350-400 ms
		List<Sample> sent = List.of(new Sample(0, 0), new Sample(50 * MS, 500), new Sample(100 * MS, 1000),
				new Sample(350 * MS, 1000), new Sample(400 * MS, 1000));
		List<Sample> acked = List.of(new Sample(0, 0), new Sample(50 * MS, 100), new Sample(100 * MS, 400),
				new Sample(350 * MS, 900), new Sample(400 * MS, 1000));

		// from 25 ms (middle of the poll in which the source started) to 375 ms
		assertThat(Rates.sinceFirstSent(sent, acked, "the topic's end offsets", 1000).get())
			.isCloseTo(1000 / 0.350, within(1e-6));
	}

	@Test
	void producerRateIsNotAvailableWithoutEveryAcknowledgement() {
		List<Sample> sent = List.of(new Sample(0, 0), new Sample(MS, 10));
		List<Sample> acked = List.of(new Sample(0, 0), new Sample(MS, 9));

		assertThat(Rates.sinceFirstSent(sent, acked, "the topic's end offsets", 10).reason())
			.isEqualTo("the topic's end offsets did not reach 10");
		assertThat(Rates.sinceFirstSent(List.of(new Sample(0, 10)), acked, "the topic's end offsets", 10).reason())
			.isEqualTo("the source had started before the first poll");
	}

	@Test
	void deliveredRateOfAPacedStreamIsNotInflatedByACatchUpAfterALateStart() {
		// 1 000 msg/s for 3 s from 50 ms; the sink gets nothing for 1 s, then catches up at 3 000 msg/s
		List<Sample> sent = run(100, 1, 50, 3000, 40);
		List<Sample> received = sent.stream()
			.map(sample -> new Sample(sample.nanos(),
					Math.min(sample.count(), Math.max(0, (sample.nanos() / MS - 1050) * 3))))
			.toList();

		assertThat(Rates.rate(received, 1, 3000).get()).isGreaterThan(1400);
		assertThat(Rates.sinceFirstSent(sent, received, "the sink's meter", 3000).get()).isCloseTo(1000,
				within(20.0));
	}
}
