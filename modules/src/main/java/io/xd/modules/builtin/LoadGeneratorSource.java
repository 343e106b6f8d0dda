package io.xd.modules.builtin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code load-generator} source: sends {@code messageCount} messages of {@code messageSize} zero bytes from each
 * of {@code producers} threads, once, then ends.
 * <p>
 * Like the test behind Spring XD's published figures, every message gets a newly allocated payload, and messages
 * carry no headers (see {@link ModuleMessages}). With {@code generateTimestamp}, the payload starts with 12
 * big-endian bytes: the producer's 0-based sequence number (an int) and a {@link System#nanoTime()} value (a long);
 * a payload shorter than 12 bytes is grown to 12.
 * <p>
 * Without {@code rate}, each producer sends as fast as the stream takes messages, and the timestamp is the moment
 * of sending. With {@code rate}, message {@code i} of a producer is due at {@code start + i / rate}: the producer
 * waits until then (parking, then yielding through the margin that absorbs the park's oversleep, then spinning for
 * the last microseconds; it yields for at most a tenth of the interval between messages) and, when it has fallen
 * behind, sends at once until it has caught up. The timestamp is then the time the message was due, not
 * the time it went out, so a stall anywhere downstream shows in full in the latency measured at the end of the
 * stream, for every message it delayed (no coordinated omission).
 * <p>
 * With {@code duration}, a producer sends nothing that would go out after that much time has passed since it
 * started, and ends then at the latest; it also ends after {@code messageCount} messages when that option is given
 * (whichever comes first), while a {@code messageCount} left at its default does not limit a timed run.
 * <p>
 * A send that fails (a directly bound consumer threw) is logged and counted, and the producer goes on; each
 * producer logs how many it sent and how many failed.
 */
public final class LoadGeneratorSource implements Source {

	/** At most this many producer threads per module instance: each is a platform thread of the container. */
	static final int MAX_PRODUCERS = 256;

	/** At most 64 MiB per payload: a payload is allocated per producer, and a bigger one is a memory exhaustion. */
	static final int MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

	static final ModuleOption<Integer> PRODUCERS = ModuleOption.ofInt("producers")
		.withDefault(1)
		.withMin(1)
		.withMax(MAX_PRODUCERS)
		.withDescription("the number of producer threads, at most " + MAX_PRODUCERS);

	static final ModuleOption<Integer> MESSAGE_SIZE = ModuleOption.ofInt("messageSize")
		.withDefault(1000)
		.withMin(0)
		.withMax(MAX_MESSAGE_SIZE)
		.withDescription("the size of each payload, in bytes, at most 64 MiB");

	static final ModuleOption<Long> MESSAGE_COUNT = ModuleOption.ofLong("messageCount")
		.withDefault(100L)
		.withMin(0)
		.withDescription("the number of messages each producer sends; unlimited when duration is given and this is not");

	static final ModuleOption<Boolean> GENERATE_TIMESTAMP = ModuleOption.ofBoolean("generateTimestamp")
		.withDefault(false)
		.withDescription("start each payload with a 4-byte sequence number and an 8-byte System.nanoTime() send time "
				+ "(with rate, the time the message was due)");

	static final ModuleOption<Long> RATE = ModuleOption.ofLong("rate")
		.withDefault(0L)
		.withMin(0)
		.withDescription("messages per second from each producer, each due at start + i/rate; 0 sends as fast as possible");

	static final ModuleOption<Duration> DURATION = ModuleOption.ofDuration("duration")
		.withRule(duration -> !duration.isNegative() && !duration.isZero(), "be positive")
		.withDescription("how long each producer sends at most; it stops at the end of this time or after "
				+ "messageCount messages, whichever comes first");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "load-generator",
			"Sends fixed-size messages as fast as it can or at a fixed rate, from one or more threads",
			List.of(PRODUCERS, MESSAGE_SIZE, MESSAGE_COUNT, GENERATE_TIMESTAMP, RATE, DURATION));

	/** Length of the sequence-number-and-timestamp prefix written with {@code generateTimestamp}. */
	public static final int TIMESTAMP_PREFIX_LENGTH = 12;

	/** Offset in the payload of the big-endian {@link System#nanoTime()} value written with {@code generateTimestamp}. */
	public static final int TIMESTAMP_OFFSET = 4;

	private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

	private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

	/** How many messages an unpaced producer sends between two looks at the stop flag and the clock. */
	private static final int CHECK_INTERVAL = 64;

	/** A paced producer parks only for longer than this; shorter waits yield or spin. */
	private static final long MIN_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

	/** The last part of a wait spins rather than yields. */
	private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

	/** Bounds of the time a paced producer wakes before a message is due, to absorb the park's oversleep. */
	private static final long MIN_MARGIN_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

	private static final long INITIAL_MARGIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

	private static final long MAX_MARGIN_NANOS = TimeUnit.MICROSECONDS.toNanos(250);

	private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

	private static final long UNLIMITED = Long.MAX_VALUE;

	private static final double MEGABYTE = 1024.0 * 1024.0;

	private static final Logger logger = LoggerFactory.getLogger(LoadGeneratorSource.class);

	private final ModuleContext context;

	private final int producers;

	private final int payloadSize;

	private final long messageCount;

	private final boolean generateTimestamp;

	private final long rate;

	private final Duration duration;

	/** The duration in nanoseconds, or {@link #UNLIMITED}. */
	private final long durationNanos;

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean stopped;

	public LoadGeneratorSource(ModuleContext context) {
		ModuleOptions options = context.options();
		this.context = context;
		this.producers = options.get(PRODUCERS);
		this.generateTimestamp = options.get(GENERATE_TIMESTAMP);
		int size = options.get(MESSAGE_SIZE);
		this.payloadSize = this.generateTimestamp ? Math.max(size, TIMESTAMP_PREFIX_LENGTH) : size;
		this.rate = options.get(RATE);
		this.duration = options.get(DURATION);
		this.durationNanos = (this.duration != null) ? saturatedNanos(this.duration) : UNLIMITED;
		this.messageCount = (this.duration != null && !options.isGiven(MESSAGE_COUNT)) ? UNLIMITED
				: options.get(MESSAGE_COUNT);
	}

	@Override
	public void start(MessageChannel output) {
		AtomicInteger running = new AtomicInteger(this.producers);
		for (int i = 0; i < this.producers; i++) {
			int index = i;
			Thread thread = this.context.newThread("producer-" + i, () -> {
				logger.info("Producer {} sending {}", index, plan());
				long start = System.nanoTime();
				long sent = produce(output, this.messageCount, index);
				double seconds = (System.nanoTime() - start) / 1e9;
				logger.info(String.format(Locale.ROOT,
						"Producer %d sent %d messages of %d bytes in %.2fs = %.2f messages/s, %.2f MB/s", index, sent,
						this.payloadSize, seconds, sent / seconds, sent * (double) this.payloadSize / seconds / MEGABYTE));
				if (running.decrementAndGet() == 0) {
					logger.info("All Messages Dispatched");
				}
			});
			this.threads.add(thread);
		}
		this.threads.forEach(Thread::start);
	}

	/** What a producer is about to do, for its first log line: {@code 1000 messages at 2000/s}. */
	private String plan() {
		StringBuilder plan = new StringBuilder();
		if (this.messageCount == UNLIMITED) {
			plan.append("messages");
		}
		else {
			plan.append((this.duration != null) ? "up to " : "").append(this.messageCount).append(" messages");
		}
		if (this.duration != null) {
			plan.append(" for ").append(describe(this.duration));
		}
		if (this.rate > 0) {
			plan.append(" at ").append(this.rate).append("/s");
		}
		return plan.toString();
	}

	/**
	 * Runs one producer's loop on the calling thread: sends up to {@code count} new payloads to {@code output},
	 * paced by the module's {@code rate} and bounded by its {@code duration}, both counted from this call, and ends
	 * early when the module is stopped. This is what each producer thread runs; benchmarks call it directly.
	 * @return the number of messages sent without failure
	 */
	public long produce(MessageChannel output, long count, int producerIndex) {
		long start = System.nanoTime();
		return (this.rate > 0) ? producePaced(output, count, producerIndex, start)
				: produceAsFastAsPossible(output, count, producerIndex, start);
	}

	private long produceAsFastAsPossible(MessageChannel output, long count, int producerIndex, long start) {
		boolean timed = this.durationNanos != UNLIMITED;
		long failed = 0;
		long sent = 0;
		for (; sent < count; sent++) {
			if ((sent % CHECK_INTERVAL) == 0
					&& (this.stopped || (timed && System.nanoTime() - start >= this.durationNanos))) {
				break;
			}
			byte[] payload = new byte[this.payloadSize];
			if (this.generateTimestamp) {
				INT_BE.set(payload, 0, (int) sent);
				LONG_BE.set(payload, TIMESTAMP_OFFSET, System.nanoTime());
			}
			if (!send(output, payload, producerIndex, sent, failed)) {
				failed++;
			}
		}
		return finish(producerIndex, sent, failed);
	}

	private long producePaced(MessageChannel output, long count, int producerIndex, long start) {
		Pacer pacer = new Pacer(this.rate);
		long failed = 0;
		long sent = 0;
		for (; sent < count; sent++) {
			long due = dueOffsetNanos(sent, this.rate);
			if (due >= this.durationNanos || !pacer.awaitNanoTime(start + due)
					|| System.nanoTime() - start >= this.durationNanos) {
				break;
			}
			byte[] payload = new byte[this.payloadSize];
			if (this.generateTimestamp) {
				INT_BE.set(payload, 0, (int) sent);
				LONG_BE.set(payload, TIMESTAMP_OFFSET, start + due);
			}
			if (!send(output, payload, producerIndex, sent, failed)) {
				failed++;
			}
		}
		return finish(producerIndex, sent, failed);
	}

	/**
	 * When message {@code index} is due at {@code rate} messages per second, in nanoseconds from the start: exact
	 * (rounded down) and free of overflow for any index a producer can reach.
	 */
	static long dueOffsetNanos(long index, long rate) {
		return (index / rate) * NANOS_PER_SECOND + (index % rate) * NANOS_PER_SECOND / rate;
	}

	/**
	 * Waits for the due times of one paced producer's messages, on that producer's thread.
	 * <p>
	 * {@link LockSupport#parkNanos} oversleeps, on Linux by its 50 µs timer slack and the wake-up besides, and a
	 * message sent late is measured late. So the pacer parks until a margin before the due time (only when that
	 * leaves more than 50 µs to park), yields through most of the margin and spins through the last 10 µs. The margin
	 * follows the oversleep it observes, rising fast and falling slowly, between 10 and 250 µs.
	 * <p>
	 * Waiting without parking keeps a core busy, yielding or not: on two cores a producer that yielded through every
	 * wait at 10 000 msg/s took half a core from the stream it measured, and doubled the stream's tail latency. So the
	 * pacer yields for at most a tenth of the interval between two messages. Above 1 000 msg/s that is shorter than
	 * the margin: the pacer then parks even for short waits, wakes late by the park's oversleep, and sends what has
	 * fallen due at once; the wait counts in those messages' latency, since they carry their due times. The last
	 * 10 µs of a wait are spun through in any case, so from 100 000 msg/s, where no wait is longer, the producer spins
	 * (parking there, measured, did not lower the stream's tail latency, and slowed a cold stream's catching up).
	 */
	private final class Pacer {

		/** The most one wait spends yielding rather than parked: a tenth of the interval. */
		private final long maxBusyNanos;

		private long marginNanos = INITIAL_MARGIN_NANOS;

		Pacer(long rate) {
			this.maxBusyNanos = NANOS_PER_SECOND / rate / 10;
		}

		/**
		 * Waits until {@link System#nanoTime()} reaches {@code deadline}.
		 * @return {@code false} when the module was stopped meanwhile
		 */
		boolean awaitNanoTime(long deadline) {
			boolean parked = false;
			long remaining = deadline - System.nanoTime();
			long initial = remaining;
			while (!LoadGeneratorSource.this.stopped) {
				if (remaining <= 0) {
					if (!parked && initial > MIN_PARK_NANOS + MIN_MARGIN_NANOS) {
						// the margin kept this wait from parking: let it shrink, or a single long oversleep
						// would keep every later wait from parking
						this.marginNanos = Math.max(MIN_MARGIN_NANOS, this.marginNanos - this.marginNanos / 64);
					}
					return true;
				}
				// wake a margin before the due time, but never more than the yielding allowed; when that cuts the
				// margin short, park for however short a sleep rather than yield through it
				boolean busyBounded = this.marginNanos > this.maxBusyNanos;
				long sleep = remaining - (busyBounded ? this.maxBusyNanos : this.marginNanos);
				if (remaining <= SPIN_NANOS) {
					Thread.onSpinWait();
				}
				else if (sleep > (busyBounded ? 0 : MIN_PARK_NANOS)) {
					long before = System.nanoTime();
					LockSupport.parkNanos(LoadGeneratorSource.this, sleep);
					learn(System.nanoTime() - before - sleep);
					parked = true;
				}
				else {
					Thread.yield();
				}
				remaining = deadline - System.nanoTime();
			}
			return false;
		}

		private void learn(long oversleepNanos) {
			long margin = this.marginNanos;
			margin += (oversleepNanos > margin) ? (oversleepNanos - margin) / 2 : (oversleepNanos - margin) / 64;
			this.marginNanos = Math.max(MIN_MARGIN_NANOS, Math.min(MAX_MARGIN_NANOS, margin));
		}
	}

	/** Sends one payload; a failure is logged when it is the producer's first. */
	private static boolean send(MessageChannel output, byte[] payload, int producerIndex, long sequence,
			long failedSoFar) {
		try {
			output.send(ModuleMessages.of(payload));
			return true;
		}
		catch (RuntimeException ex) {
			if (failedSoFar == 0) {
				logger.error("Producer {} could not send message {}; counting further failures", producerIndex,
						sequence, ex);
			}
			return false;
		}
	}

	private static long finish(int producerIndex, long sent, long failed) {
		if (failed > 0) {
			logger.warn("Producer {} sent {} messages, of which {} failed", producerIndex, sent, failed);
		}
		return sent - failed;
	}

	@Override
	public void stop() {
		this.stopped = true;
		this.threads.forEach(LockSupport::unpark);
		for (Thread thread : this.threads) {
			try {
				thread.join(TimeUnit.SECONDS.toMillis(10));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return UNLIMITED;
		}
	}

	/** A duration as a user would write it: {@code 30s}, {@code 1500ms}. */
	private static String describe(Duration duration) {
		return (duration.toMillisPart() == 0 && duration.getNano() == 0) ? duration.toSeconds() + "s"
				: duration.toMillis() + "ms";
	}

	/** Declares and creates the {@code load-generator} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, LoadGeneratorSource::new);
		}
	}
}
