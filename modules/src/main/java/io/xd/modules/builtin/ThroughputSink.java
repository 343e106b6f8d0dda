package io.xd.modules.builtin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.internal.metrics.CountedInput;
import io.xd.modules.internal.metrics.EndToEndLatency;
import io.xd.modules.internal.metrics.MessageCounter;
import io.xd.modules.internal.metrics.MessageTotals;

/**
 * The {@code throughput} sink: counts messages and payload bytes and logs the rates, in Spring XD's line format.
 * <p>
 * Counting allocates nothing and takes no lock, so the sink measures the stream rather than itself. The first
 * message starts the clock; every {@code reportEveryMs} a reporter thread logs the interval and cumulative rates,
 * each computed from the time that actually elapsed; when the stream stops, a summary line gives the totals over
 * the time between the first and the last message (to within 10 ms). Byte counts are exact for {@code byte[]}
 * payloads and for {@code String} payloads (their UTF-8 length); other payloads count as messages only.
 * <p>
 * With {@code latency}, the sink also reads bytes 4 to 11 of each {@code byte[]} payload as a big-endian
 * {@link System#nanoTime()} value (what {@code load-generator --generateTimestamp=true} writes there) and records
 * the time since then in a {@link LatencyRecorder}; every report then has a third line with the latency percentiles
 * of the interval and of the whole run, in microseconds, and the summary a second line with those of the whole run.
 * A payload that is not a {@code byte[]} of at least 12 bytes, or whose time lies in the future, is counted as
 * unmeasured. {@code System.nanoTime()} values compare only within one machine, so the latency is meaningful only
 * when the source runs on the same machine as the sink.
 * <p>
 * In a container, the sink does not count each message a second time: the container's input meters already count
 * every message handed to it ({@code xd.module.messages.in}, {@code xd.module.bytes.in}), and the sink reads its
 * totals from them ({@link CountedInput}). It then counts only what a {@code String} payload has in UTF-8 beyond its
 * length in characters (what the meters count for it), so that its byte counts stay UTF-8 lengths. Run without a
 * container, it counts every message itself.
 */
public final class ThroughputSink implements Sink, EndToEndLatency, CountedInput {

	static final ModuleOption<Long> REPORT_EVERY_MS = ModuleOption.ofLong("reportEveryMs")
		.withDefault(1000L)
		.withMin(0)
		.withDescription("how often to log the rates, in milliseconds; 0 logs only the summary at the end");

	static final ModuleOption<String> TIME_UNIT = ModuleOption.ofChoice("timeUnit", "ns", "ms", "s", "m", "h")
		.withDefault("s")
		.withDescription("the unit in which elapsed times are shown; rates are always per second");

	static final ModuleOption<String> LOGGER = ModuleOption.ofString("logger")
		.withDescription("the suffix of the logger name xd.sink.throughput.<logger>; defaults to the stream name");

	static final ModuleOption<Boolean> LATENCY = ModuleOption.ofBoolean("latency")
		.withDefault(false)
		.withDescription("read a big-endian System.nanoTime() send time from bytes 4..11 of each payload (as "
				+ "load-generator --generateTimestamp=true writes it) and log latency percentiles");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "throughput",
			"Counts messages and bytes and logs messages/s and MB/s, and optionally end-to-end latency",
			List.of(REPORT_EVERY_MS, TIME_UNIT, LOGGER, LATENCY));

	private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

	private static final int TIMESTAMP_END = LoadGeneratorSource.TIMESTAMP_OFFSET + Long.BYTES;

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final double MEGABYTE = 1024.0 * 1024.0;

	/**
	 * What the sink counts itself: every message, or in a container only the UTF-8 bytes of {@code String} payloads
	 * beyond their length in characters.
	 */
	private final MessageCounter counter = new MessageCounter();

	/** What the reports and {@link #totals()} read: {@link #counter}, or the container's counts of the input. */
	private MessageTotals counts = this.counter;

	/** Whether the container's meters count the input (set before the sink starts). */
	private boolean countedByContainer;

	/** The latencies, or {@code null} when the {@code latency} option is off. */
	private final LatencyRecorder latency;

	/** Messages without a usable timestamp; touched only when a stream sends such messages to a latency sink. */
	private final LongAdder unmeasured = new LongAdder();

	private final Logger logger;

	private final long reportEveryNanos;

	private final String unit;

	private final double unitNanos;

	private final ModuleContext context;

	private volatile boolean running;

	private Thread reporter;

	private volatile long lastActivityNanos;

	private volatile long seenMessages;

	private volatile boolean summarized;

	public ThroughputSink(ModuleContext context) {
		String suffix = context.options().get(LOGGER);
		this.logger = LoggerFactory.getLogger("xd.sink.throughput." + (suffix == null ? context.streamName() : suffix));
		this.reportEveryNanos = TimeUnit.MILLISECONDS.toNanos(context.options().get(REPORT_EVERY_MS));
		this.unit = context.options().get(TIME_UNIT);
		this.unitNanos = unitNanos(this.unit);
		this.context = context;
		this.latency = context.options().get(LATENCY) ? new LatencyRecorder() : null;
	}

	@Override
	public void start() {
		this.running = true;
		// through the module's context: a reporter that dies of an exception fails the module instead of going quiet
		this.reporter = this.context.newThread("reporter", this::report);
		this.reporter.start();
	}

	@Override
	public void countedByContainer(MessageTotals input) {
		MessageCounter beyondChars = this.counter;
		this.counts = new MessageTotals() {

			@Override
			public long messages() {
				return input.messages();
			}

			@Override
			public long bytes() {
				return input.bytes() + beyondChars.bytes();
			}

			@Override
			public long firstCountNanos() {
				return input.firstCountNanos();
			}
		};
		this.countedByContainer = true;
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		if (this.latency != null) {
			recordLatency(payload);
		}
		if (!this.countedByContainer) {
			this.counter.record(bytesOf(payload));
		}
		else if (payload instanceof String text) {
			long beyondChars = utf8Length(text) - text.length();
			if (beyondChars > 0) {
				this.counter.record(beyondChars);
			}
		}
	}

	private static long bytesOf(Object payload) {
		if (payload instanceof byte[] array) {
			return array.length;
		}
		if (payload instanceof String text) {
			return utf8Length(text);
		}
		return 0;
	}

	private void recordLatency(Object payload) {
		if (payload instanceof byte[] array && array.length >= TIMESTAMP_END) {
			long nanos = System.nanoTime() - (long) LONG_BE.get(array, LoadGeneratorSource.TIMESTAMP_OFFSET);
			if (nanos >= 0) {
				this.latency.record(nanos);
				return;
			}
		}
		this.unmeasured.increment();
	}

	@Override
	public void stop() {
		this.running = false;
		Thread thread = this.reporter;
		if (thread != null) {
			thread.interrupt();
			try {
				thread.join(TimeUnit.SECONDS.toMillis(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		logSummary();
	}

	/** Totals so far: messages, bytes, and the time from the first to the last message seen by the reporter. */
	public Totals totals() {
		long first = this.counts.firstCountNanos();
		long last = Math.max(this.lastActivityNanos, first);
		return new Totals(this.counts.messages(), this.counts.bytes(), (first == 0) ? 0 : last - first);
	}

	/**
	 * The end-to-end latency percentiles over every message so far, or {@link Latency#NONE} when the {@code latency}
	 * option is off.
	 */
	public Latency latency() {
		return (this.latency != null) ? Latency.of(this.latency.cumulative(), this.unmeasured.sum()) : Latency.NONE;
	}

	@Override
	public Percentiles endToEndLatency() {
		if (this.latency == null) {
			return null;
		}
		Latency latency = latency();
		return new Percentiles(latency.count(), latency.p50Nanos(), latency.p95Nanos(), latency.p99Nanos(),
				latency.p999Nanos(), latency.maxNanos());
	}

	/**
	 * A copy of the histogram of every end-to-end latency so far, in nanoseconds (empty when the {@code latency}
	 * option is off), for callers that want more than {@link #latency()} gives.
	 */
	public Histogram latencyHistogram() {
		return (this.latency != null) ? this.latency.cumulative() : new Histogram(3);
	}

	private void report() {
		long lastMessages = 0;
		long lastBytes = 0;
		long lastReport = 0;
		while (this.running) {
			LockSupport.parkNanos(POLL_NANOS);
			long first = this.counts.firstCountNanos();
			if (first == 0) {
				continue;
			}
			long now = System.nanoTime();
			long messages = this.counts.messages();
			if (messages != this.seenMessages) {
				this.seenMessages = messages;
				this.lastActivityNanos = now;
			}
			if (lastReport == 0) {
				lastReport = first;
			}
			if (this.reportEveryNanos > 0 && now - lastReport >= this.reportEveryNanos) {
				long bytes = this.counts.bytes();
				logRates(messages - lastMessages, bytes - lastBytes, now - lastReport, messages, bytes, now - first);
				if (this.latency != null) {
					Histogram interval = this.latency.takeInterval();
					this.logger.info("Latency: " + Latency.of(interval, 0).percentiles() + ", Latency: "
							+ latency().percentiles());
				}
				lastMessages = messages;
				lastBytes = bytes;
				lastReport = now;
			}
		}
	}

	private synchronized void logSummary() {
		if (this.summarized) {
			return;
		}
		this.summarized = true;
		if (this.counts.messages() != this.seenMessages) {
			// the last messages arrived after the reporter's last poll
			this.lastActivityNanos = System.nanoTime();
		}
		Totals totals = totals();
		if (totals.messages() == 0) {
			this.logger.info("Summary: no messages received");
			return;
		}
		this.logger.info(String.format(Locale.ROOT,
				"Summary: Messages: %d in %.2f%s = %.2f/s, Throughput: %d bytes = %.2fMB/s", totals.messages(),
				totals.elapsedNanos() / this.unitNanos, this.unit, totals.messagesPerSecond(), totals.bytes(),
				totals.megabytesPerSecond()));
		if (this.latency != null) {
			Latency latency = latency();
			String unmeasured = (latency.unmeasured() == 0) ? ""
					: " (" + latency.unmeasured() + " messages without a usable timestamp)";
			this.logger.info("Summary: Latency: " + latency.percentiles()
					+ ((latency.count() > 0) ? " over " + latency.count() + " messages" : "") + unmeasured);
		}
	}

	private void logRates(long messages, long bytes, long elapsed, long totalMessages, long totalBytes,
			long totalElapsed) {
		this.logger.info(String.format(Locale.ROOT, "Messages: %10d in %5.2f%s = %11.2f/s, Messages: %10d in %5.2f%s = %11.2f/s",
				messages, elapsed / this.unitNanos, this.unit, perSecond(messages, elapsed), totalMessages,
				totalElapsed / this.unitNanos, this.unit, perSecond(totalMessages, totalElapsed)));
		if (totalBytes > 0) {
			this.logger.info(String.format(Locale.ROOT,
					"Throughput: %12d in %5.2f%s = %11.2fMB/s, Throughput: %12d in %5.2f%s = %11.2fMB/s", bytes,
					elapsed / this.unitNanos, this.unit, perSecond(bytes, elapsed) / MEGABYTE, totalBytes,
					totalElapsed / this.unitNanos, this.unit, perSecond(totalBytes, totalElapsed) / MEGABYTE));
		}
	}

	static double perSecond(long count, long nanos) {
		return (nanos <= 0) ? 0.0 : count * 1e9 / nanos;
	}

	private static double unitNanos(String unit) {
		return switch (unit) {
			case "ns" -> 1.0;
			case "ms" -> 1e6;
			case "m" -> 60e9;
			case "h" -> 3600e9;
			default -> 1e9;
		};
	}

	/** The UTF-8 encoded length of {@code text}, computed without encoding it. */
	static long utf8Length(String text) {
		long length = 0;
		int n = text.length();
		for (int i = 0; i < n; i++) {
			char c = text.charAt(i);
			if (c < 0x80) {
				length++;
			}
			else if (c < 0x800) {
				length += 2;
			}
			else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
				length += 4;
				i++;
			}
			else {
				length += 3;
			}
		}
		return length;
	}

	/**
	 * What the sink counted.
	 *
	 * @param messages messages received
	 * @param bytes payload bytes received
	 * @param elapsedNanos time from the first to the last message
	 */
	public record Totals(long messages, long bytes, long elapsedNanos) {

		public double messagesPerSecond() {
			return perSecond(this.messages, this.elapsedNanos);
		}

		public double megabytesPerSecond() {
			return perSecond(this.bytes, this.elapsedNanos) / MEGABYTE;
		}
	}

	/**
	 * End-to-end latency percentiles, each the upper end of its HdrHistogram bucket (within 0.1% of the exact
	 * value).
	 *
	 * @param count messages whose latency was recorded
	 * @param p50Nanos the median
	 * @param p95Nanos the 95th percentile
	 * @param p99Nanos the 99th percentile
	 * @param p999Nanos the 99.9th percentile
	 * @param maxNanos the largest latency
	 * @param unmeasured messages without a usable timestamp (not a {@code byte[]} of at least 12 bytes, or a time in
	 * the future)
	 */
	public record Latency(long count, long p50Nanos, long p95Nanos, long p99Nanos, long p999Nanos, long maxNanos,
			long unmeasured) {

		/** No latency recorded. */
		public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0, 0);

		/** The percentiles of a histogram of nanoseconds. */
		public static Latency of(Histogram histogram, long unmeasured) {
			if (histogram.getTotalCount() == 0) {
				return new Latency(0, 0, 0, 0, 0, 0, unmeasured);
			}
			return new Latency(histogram.getTotalCount(), histogram.getValueAtPercentile(50),
					histogram.getValueAtPercentile(95), histogram.getValueAtPercentile(99),
					histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), unmeasured);
		}

		/** The percentiles in microseconds, as logged: {@code p50=12.3us p95=... p99=... p99.9=... max=...us}. */
		public String percentiles() {
			if (this.count == 0) {
				return "no timestamped messages";
			}
			return String.format(Locale.ROOT, "p50=%.1fus p95=%.1fus p99=%.1fus p99.9=%.1fus max=%.1fus",
					this.p50Nanos / 1e3, this.p95Nanos / 1e3, this.p99Nanos / 1e3, this.p999Nanos / 1e3,
					this.maxNanos / 1e3);
		}
	}

	/** Declares and creates the {@code throughput} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, ThroughputSink::new);
		}
	}
}
