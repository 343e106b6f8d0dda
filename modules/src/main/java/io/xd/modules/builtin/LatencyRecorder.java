package io.xd.modules.builtin;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import io.xd.modules.internal.metrics.ThreadOwnedSlots;

/**
 * Records latencies, in nanoseconds, from any number of threads into HdrHistograms, without locks and without
 * allocating on the recording path, and hands out interval and cumulative histograms.
 * <p>
 * Each recording thread owns a {@link SingleWriterRecorder} (found as {@link ThreadOwnedSlots} finds a thread's
 * slot: a one-entry cache for the common single-thread case, a {@link ThreadLocal} otherwise), so recording costs one
 * uncontended atomic increment and a histogram update. Readers take the threads' intervals under this object's
 * lock, which the recording path never touches. Histograms keep three significant digits from 1 ns to one hour;
 * a longer latency is recorded as one hour, a negative one as 0.
 */
public final class LatencyRecorder extends ThreadOwnedSlots<LatencyRecorder.Writer> {

	/** The largest latency recorded as itself; longer ones are recorded as this. */
	public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);

	private static final int SIGNIFICANT_DIGITS = 3;

	/** Guarded by {@code this}: what was recorded since the last {@link #takeInterval()}. */
	private final Histogram interval = newHistogram();

	/** Guarded by {@code this}: everything recorded and collected so far. */
	private final Histogram cumulative = newHistogram();

	/** Guarded by {@code this}: where one thread's interval is copied before it is added up. */
	private final Histogram scratch = newHistogram();

	/** Records one latency for the calling thread. */
	public void record(long nanos) {
		slot().recorder.recordValue(Math.min(Math.max(nanos, 0), HIGHEST_TRACKABLE_NANOS));
	}

	@Override
	protected Writer newSlot() {
		return new Writer();
	}

	@Override
	protected Writer[] newSlots(int length) {
		return new Writer[length];
	}

	/**
	 * The latencies recorded since the previous call (or since this recorder was made), as a new histogram; they
	 * also go into the {@link #cumulative()} histogram. A value being recorded during the call lands in this
	 * interval or the next one, never in both and never in neither.
	 */
	public synchronized Histogram takeInterval() {
		collect();
		Histogram taken = this.interval.copy();
		this.interval.reset();
		return taken;
	}

	/** Every latency recorded so far, as a new histogram. */
	public synchronized Histogram cumulative() {
		collect();
		return this.cumulative.copy();
	}

	private void collect() {
		for (Writer writer : slots()) {
			writer.recorder.getIntervalHistogramInto(this.scratch);
			this.interval.add(this.scratch);
			this.cumulative.add(this.scratch);
		}
	}

	private static Histogram newHistogram() {
		return new Histogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
	}

	/** One thread's recorder. */
	static final class Writer extends ThreadOwnedSlots.Slot {

		final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
	}
}
