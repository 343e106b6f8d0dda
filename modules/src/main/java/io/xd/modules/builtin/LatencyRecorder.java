package io.xd.modules.builtin;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Records latencies, in nanoseconds, from any number of threads into HdrHistograms, without locks and without
 * allocating on the recording path, and hands out interval and cumulative histograms.
 * <p>
 * Each recording thread owns a {@link SingleWriterRecorder} (found like {@link io.xd.modules.MessageCounter}'s cells: a
 * one-entry cache for the common single-thread case, a {@link ThreadLocal} otherwise), so recording costs one
 * uncontended atomic increment and a histogram update. Readers take the threads' intervals under this object's
 * lock, which the recording path never touches. Histograms keep three significant digits from 1 ns to one hour;
 * a longer latency is recorded as one hour, a negative one as 0.
 */
public final class LatencyRecorder {

	/** The largest latency recorded as itself; longer ones are recorded as this. */
	public static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.HOURS.toNanos(1);

	private static final int SIGNIFICANT_DIGITS = 3;

	private final ThreadLocal<Writer> writers = ThreadLocal.withInitial(this::register);

	private volatile Writer[] all = new Writer[0];

	/** The last thread's writer: written racily, but a writer's owner is final, so a stale value is merely a miss. */
	private Writer cached;

	private volatile boolean sharedByThreads;

	/** Guarded by {@code this}: what was recorded since the last {@link #takeInterval()}. */
	private final Histogram interval = newHistogram();

	/** Guarded by {@code this}: everything recorded and collected so far. */
	private final Histogram cumulative = newHistogram();

	/** Guarded by {@code this}: where one thread's interval is copied before it is added up. */
	private final Histogram scratch = newHistogram();

	/** Records one latency for the calling thread. */
	public void record(long nanos) {
		Writer writer = this.cached;
		if (writer == null || writer.owner != Thread.currentThread()) {
			writer = writerOfCurrentThread();
		}
		writer.recorder.recordValue(Math.min(Math.max(nanos, 0), HIGHEST_TRACKABLE_NANOS));
	}

	private Writer writerOfCurrentThread() {
		Writer writer = this.writers.get();
		if (!this.sharedByThreads) {
			this.cached = writer;
		}
		return writer;
	}

	private synchronized Writer register() {
		Writer writer = new Writer(Thread.currentThread());
		Writer[] grown = Arrays.copyOf(this.all, this.all.length + 1);
		grown[grown.length - 1] = writer;
		if (grown.length > 1) {
			this.sharedByThreads = true;
		}
		this.all = grown;
		return writer;
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
		for (Writer writer : this.all) {
			writer.recorder.getIntervalHistogramInto(this.scratch);
			this.interval.add(this.scratch);
			this.cumulative.add(this.scratch);
		}
	}

	private static Histogram newHistogram() {
		return new Histogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
	}

	/** One thread's recorder. */
	private static final class Writer {

		final Thread owner;

		final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);

		Writer(Thread owner) {
			this.owner = owner;
		}
	}
}
