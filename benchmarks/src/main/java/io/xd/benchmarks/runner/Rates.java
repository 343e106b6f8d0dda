package io.xd.benchmarks.runner;

import java.util.List;

/**
 * Rates from counters sampled while a stream runs. A counter read every few tens of milliseconds does not say
 * exactly when the first or the last message passed, so rates are taken between samples that both lie inside the
 * run where there are enough of them, and between the middles of the bracketing polls otherwise. Each method
 * returns n/a, with the reason, rather than a guess when the samples cannot give a rate.
 */
final class Rates {

	private Rates() {
	}

	/**
	 * Messages per second of a counter that went from 0 to {@code total}, from the first sample at or above
	 * {@code from} (at least 1) on. The end is the last sample below {@code total} when at least one poll interval
	 * lies between it and the start (both ends then lie inside the run, and the rate is exact to the jitter of one
	 * request); otherwise the run is taken between the middles of the poll intervals in which it started (for the
	 * whole run) and reached {@code total}.
	 * @param samples in time order
	 * @param from where the measured stretch starts: 1 for the whole run, a third of {@code total} for the steady
	 * state after the warm-up
	 * @param total the count at the end of the run
	 */
	static Figure rate(List<Sample> samples, long from, long total) {
		if (total <= 0) {
			return Figure.na("no messages");
		}
		long threshold = Math.max(1, Math.min(from, total));
		int start = firstAtLeast(samples, threshold);
		int done = firstAtLeast(samples, total);
		if (start < 0 || done < 0) {
			return Figure.na("the counter did not reach " + (start < 0 ? threshold : total));
		}
		int lastBelow = done - 1;
		if (lastBelow > start && samples.get(lastBelow).nanos() > samples.get(start).nanos()) {
			return perSecond(samples.get(lastBelow).count() - samples.get(start).count(),
					samples.get(lastBelow).nanos() - samples.get(start).nanos());
		}
		if (done == 0 || start == done) {
			if (start > 0 && threshold == 1) {
				// the whole run between two polls: at least this fast
				Sample before = samples.get(start - 1);
				return Figure.na("the run ended within one poll interval ("
						+ (samples.get(done).nanos() - before.nanos()) / 1_000_000 + " ms) of its start");
			}
			return Figure.na("too few samples between " + threshold + " and " + total + " messages");
		}
		long end = middle(samples, done);
		if (threshold == 1 && start > 0) {
			return perSecond(total, end - middle(samples, start));
		}
		return perSecond(total - samples.get(start).count(), end - samples.get(start).nanos());
	}

	/**
	 * {@code total} messages over the time from the source's first message until another counter reached
	 * {@code total}: with the sum of a topic's end offsets, a producer's rate counted to the broker's
	 * acknowledgement; with the sink's meter, the rate a paced stream delivered end to end, which a late start
	 * followed by a catch-up does not inflate. Both moments are the middles of the poll intervals in which they fell.
	 * @param sent the source's messages-out counter, in time order
	 * @param reached the other counter, in time order
	 * @param what the other counter, for the reason of an n/a figure
	 * @param total the messages the source sent
	 */
	static Figure sinceFirstSent(List<Sample> sent, List<Sample> reached, String what, long total) {
		if (total <= 0) {
			return Figure.na("no messages sent");
		}
		int first = firstAtLeast(sent, 1);
		if (first <= 0) {
			return Figure.na(first < 0 ? "the source's meter never counted a message"
					: "the source had started before the first poll");
		}
		int done = firstAtLeast(reached, total);
		if (done < 0) {
			return Figure.na(what + " did not reach " + total);
		}
		long end = (done == 0) ? reached.get(0).nanos() : middle(reached, done);
		return perSecond(total, end - middle(sent, first));
	}

	/**
	 * Whether a stream offered {@code offered} msg/s sustained it: it delivered at least 95% of that rate with its p99
	 * latency within {@code boundMicros}; never when either figure is n/a.
	 */
	static boolean sustains(int offered, Figure achieved, Figure p99Micros, double boundMicros) {
		return achieved.isPresent() && p99Micros.isPresent() && achieved.get() >= 0.95 * offered
				&& p99Micros.get() <= boundMicros;
	}

	/** The last count, or 0 without samples. */
	static long last(List<Sample> samples) {
		return samples.isEmpty() ? 0 : samples.get(samples.size() - 1).count();
	}

	private static Figure perSecond(long count, long nanos) {
		if (nanos <= 0) {
			return Figure.na("no time elapsed between samples");
		}
		return Figure.of(count * 1e9 / nanos);
	}

	/** The middle of the poll interval that ends with sample {@code index} (which must be above 0). */
	private static long middle(List<Sample> samples, int index) {
		return (samples.get(index - 1).nanos() + samples.get(index).nanos()) / 2;
	}

	private static int firstAtLeast(List<Sample> samples, long count) {
		for (int i = 0; i < samples.size(); i++) {
			if (samples.get(i).count() >= count) {
				return i;
			}
		}
		return -1;
	}
}
