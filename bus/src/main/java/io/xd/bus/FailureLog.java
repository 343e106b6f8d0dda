package io.xd.bus;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.slf4j.Logger;

import org.springframework.core.NestedExceptionUtils;

/**
 * Logs the failed messages of one binding without flooding the log, as a failing stream would at one stack trace
 * per message and per attempt: the first failure of each kind (the class of the exception's root cause) is logged
 * at ERROR with its stack trace; later failures of that kind are counted, and a single WARN line with their count
 * and the latest reason is written when one arrives at least {@code interval} after the previous line of that kind.
 * What was counted after the last line is not logged when the failures stop: the module's meters
 * ({@code xd.module.errors}, {@code xd.module.dead.letters}) and its last error in {@code /runtime/modules} count
 * every one.
 * <p>
 * Thread-safe; a failure costs a map look-up and, for a counted one, an atomic update. At most
 * {@value #MAX_KINDS} kinds are told apart; further kinds are counted with the last one.
 */
public final class FailureLog {

	/** How often a kind of failure that goes on is summarized, by default. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);

	static final int MAX_KINDS = 32;

	private static final Class<?> OTHER = Throwable.class;

	private final Logger logger;

	private final long intervalNanos;

	private final LongSupplier nanoTime;

	private final Map<Class<?>, Kind> kinds = new ConcurrentHashMap<>();

	public FailureLog(Logger logger) {
		this(logger, DEFAULT_INTERVAL, System::nanoTime);
	}

	/** A log with its own summary interval and clock (of {@link System#nanoTime()}'s kind), for tests. */
	public FailureLog(Logger logger, Duration interval, LongSupplier nanoTime) {
		this.logger = logger;
		this.intervalNanos = interval.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * Logs or counts one failure.
	 * @param what what happened to the message, a sentence without the reason (such as "A consumer of 'x' failed
	 * to handle a message; it is published to topic:xd.errors")
	 * @param cause why
	 */
	public void failed(String what, Throwable cause) {
		Throwable root = NestedExceptionUtils.getMostSpecificCause(cause);
		Class<?> type = (this.kinds.size() < MAX_KINDS || this.kinds.containsKey(root.getClass())) ? root.getClass()
				: OTHER;
		long now = this.nanoTime.getAsLong();
		boolean[] first = new boolean[1];
		Kind kind = this.kinds.computeIfAbsent(type, key -> {
			first[0] = true;
			return new Kind(now);
		});
		if (first[0]) {
			this.logger.error("{} (further failures of the kind {} are counted and summarized every {} s)", what,
					root.getClass().getName(), this.intervalNanos / 1_000_000_000L, cause);
			return;
		}
		long counted = kind.count(now, this.intervalNanos);
		if (counted > 0) {
			this.logger.warn("{} more failures of the kind {} since the last report; the latest: {}: {}", counted,
					root.getClass().getName(), what, firstLine(root));
		}
	}

	private static String firstLine(Throwable ex) {
		String message = String.valueOf(ex.getMessage());
		int newline = message.indexOf('\n');
		return (newline >= 0) ? message.substring(0, newline) : message;
	}

	/** The failures of one kind counted since its last line. */
	private static final class Kind {

		private long count;

		private long lastLine;

		Kind(long now) {
			this.lastLine = now;
		}

		/** Counts one failure; returns how many to report now (this one included), or 0 when it is not yet time. */
		synchronized long count(long now, long interval) {
			this.count++;
			if (now - this.lastLine < interval) {
				return 0;
			}
			long counted = this.count;
			this.count = 0;
			this.lastLine = now;
			return counted;
		}
	}
}
