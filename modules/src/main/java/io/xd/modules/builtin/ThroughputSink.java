package io.xd.modules.builtin;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;

/**
 * The {@code throughput} sink: counts messages and payload bytes and logs the rates, in Spring XD's line format.
 * <p>
 * Counting allocates nothing and takes no lock, so the sink measures the stream rather than itself. The first
 * message starts the clock; every {@code reportEveryMs} a reporter thread logs the interval and cumulative rates,
 * each computed from the time that actually elapsed; when the stream stops, a summary line gives the totals over
 * the time between the first and the last message (to within 10 ms). Byte counts are exact for {@code byte[]}
 * payloads and for {@code String} payloads (their UTF-8 length); other payloads count as messages only.
 */
public final class ThroughputSink implements Sink {

	static final ModuleOption<Long> REPORT_EVERY_MS = ModuleOption.ofLong("reportEveryMs")
		.withDefault(1000L)
		.withMin(0)
		.withDescription("how often to log the rates, in milliseconds; 0 logs only the summary at the end");

	static final ModuleOption<String> TIME_UNIT = ModuleOption.ofChoice("timeUnit", "ns", "ms", "s", "m", "h")
		.withDefault("s")
		.withDescription("the unit in which elapsed times are shown; rates are always per second");

	static final ModuleOption<String> LOGGER = ModuleOption.ofString("logger")
		.withDescription("the suffix of the logger name xd.sink.throughput.<logger>; defaults to the stream name");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "throughput",
			"Counts messages and bytes and logs messages/s and MB/s", List.of(REPORT_EVERY_MS, TIME_UNIT, LOGGER));

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final double MEGABYTE = 1024.0 * 1024.0;

	private final ThroughputCounter counter = new ThroughputCounter();

	private final Logger logger;

	private final long reportEveryNanos;

	private final String unit;

	private final double unitNanos;

	private final String threadName;

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
		this.threadName = context.threadName("reporter");
	}

	@Override
	public void start() {
		this.running = true;
		this.reporter = new Thread(this::report, this.threadName);
		this.reporter.setDaemon(true);
		this.reporter.start();
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		long bytes;
		if (payload instanceof byte[] array) {
			bytes = array.length;
		}
		else if (payload instanceof String text) {
			bytes = utf8Length(text);
		}
		else {
			bytes = 0;
		}
		this.counter.record(bytes);
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
		long first = this.counter.firstCountNanos();
		long last = Math.max(this.lastActivityNanos, first);
		return new Totals(this.counter.messages(), this.counter.bytes(), (first == 0) ? 0 : last - first);
	}

	private void report() {
		long lastMessages = 0;
		long lastBytes = 0;
		long lastReport = 0;
		while (this.running) {
			LockSupport.parkNanos(POLL_NANOS);
			long first = this.counter.firstCountNanos();
			if (first == 0) {
				continue;
			}
			long now = System.nanoTime();
			long messages = this.counter.messages();
			if (messages != this.seenMessages) {
				this.seenMessages = messages;
				this.lastActivityNanos = now;
			}
			if (lastReport == 0) {
				lastReport = first;
			}
			if (this.reportEveryNanos > 0 && now - lastReport >= this.reportEveryNanos) {
				long bytes = this.counter.bytes();
				logRates(messages - lastMessages, bytes - lastBytes, now - lastReport, messages, bytes, now - first);
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
		if (this.counter.messages() != this.seenMessages) {
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

	/** Declares and creates the {@code throughput} sink. */
	public static final class Provider implements ModuleProvider {

		@Override
		public ModuleMetadata metadata() {
			return METADATA;
		}

		@Override
		public Module create(ModuleContext context) {
			return new ThroughputSink(context);
		}
	}
}
