package io.xd.modules.builtin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code load-generator} source: sends {@code messageCount} messages of {@code messageSize} zero bytes from each
 * of {@code producers} threads, once, then ends.
 * <p>
 * Like the test behind Spring XD's published figures, every message gets a newly allocated payload, and messages
 * carry no headers (see {@link ModuleMessages}). With {@code generateTimestamp}, the payload starts with 12
 * big-endian bytes: the producer's 0-based sequence number (an int) and {@link System#nanoTime()} (a long) at the
 * moment of sending; a payload shorter than 12 bytes is grown to 12.
 * <p>
 * A send that fails (a directly bound consumer threw) is logged and counted, and the producer goes on; each
 * producer logs how many it sent and how many failed.
 */
public final class LoadGeneratorSource implements Source {

	static final ModuleOption<Integer> PRODUCERS = ModuleOption.ofInt("producers")
		.withDefault(1)
		.withMin(1)
		.withDescription("the number of producer threads");

	static final ModuleOption<Integer> MESSAGE_SIZE = ModuleOption.ofInt("messageSize")
		.withDefault(1000)
		.withMin(0)
		.withDescription("the size of each payload, in bytes");

	static final ModuleOption<Long> MESSAGE_COUNT = ModuleOption.ofLong("messageCount")
		.withDefault(100L)
		.withMin(0)
		.withDescription("the number of messages each producer sends");

	static final ModuleOption<Boolean> GENERATE_TIMESTAMP = ModuleOption.ofBoolean("generateTimestamp")
		.withDefault(false)
		.withDescription("start each payload with a 4-byte sequence number and an 8-byte System.nanoTime()");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "load-generator",
			"Sends a fixed number of fixed-size messages as fast as it can, from one or more threads",
			List.of(PRODUCERS, MESSAGE_SIZE, MESSAGE_COUNT, GENERATE_TIMESTAMP));

	/** Length of the sequence-number-and-timestamp prefix written with {@code generateTimestamp}. */
	public static final int TIMESTAMP_PREFIX_LENGTH = 12;

	private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

	private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

	/** How many messages a producer sends between two looks at the stop flag. */
	private static final int STOP_CHECK_INTERVAL = 1024;

	private static final double MEGABYTE = 1024.0 * 1024.0;

	private static final Logger logger = LoggerFactory.getLogger(LoadGeneratorSource.class);

	private final ModuleContext context;

	private final int producers;

	private final int payloadSize;

	private final long messageCount;

	private final boolean generateTimestamp;

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean stopped;

	public LoadGeneratorSource(ModuleContext context) {
		this.context = context;
		this.producers = context.options().get(PRODUCERS);
		this.generateTimestamp = context.options().get(GENERATE_TIMESTAMP);
		int size = context.options().get(MESSAGE_SIZE);
		this.payloadSize = this.generateTimestamp ? Math.max(size, TIMESTAMP_PREFIX_LENGTH) : size;
		this.messageCount = context.options().get(MESSAGE_COUNT);
	}

	@Override
	public void start(MessageChannel output) {
		AtomicInteger running = new AtomicInteger(this.producers);
		for (int i = 0; i < this.producers; i++) {
			int index = i;
			Thread thread = new Thread(() -> {
				logger.info("Producer {} sending {} messages", index, this.messageCount);
				long start = System.nanoTime();
				long sent = produce(output, this.messageCount, index);
				double seconds = (System.nanoTime() - start) / 1e9;
				logger.info(String.format(Locale.ROOT,
						"Producer %d sent %d messages of %d bytes in %.2fs = %.2f messages/s, %.2f MB/s", index, sent,
						this.payloadSize, seconds, sent / seconds, sent * (double) this.payloadSize / seconds / MEGABYTE));
				if (running.decrementAndGet() == 0) {
					logger.info("All Messages Dispatched");
				}
			}, this.context.threadName("producer-" + i));
			thread.setDaemon(true);
			this.threads.add(thread);
		}
		this.threads.forEach(Thread::start);
	}

	/**
	 * Runs one producer's loop on the calling thread: sends {@code count} new payloads to {@code output}, unless the
	 * module is stopped first. This is what each producer thread runs; benchmarks call it directly.
	 * @return the number of messages sent without failure
	 */
	public long produce(MessageChannel output, long count, int producerIndex) {
		long failed = 0;
		long sent = 0;
		for (; sent < count; sent++) {
			if ((sent % STOP_CHECK_INTERVAL) == 0 && this.stopped) {
				break;
			}
			byte[] payload = new byte[this.payloadSize];
			if (this.generateTimestamp) {
				INT_BE.set(payload, 0, (int) sent);
				LONG_BE.set(payload, 4, System.nanoTime());
			}
			try {
				output.send(ModuleMessages.of(payload));
			}
			catch (RuntimeException ex) {
				failed++;
				if (failed == 1) {
					logger.error("Producer {} could not send message {}; counting further failures", producerIndex,
							sent, ex);
				}
			}
		}
		if (failed > 0) {
			logger.warn("Producer {} sent {} messages, of which {} failed", producerIndex, sent, failed);
		}
		return sent - failed;
	}

	@Override
	public void stop() {
		this.stopped = true;
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

	/** Declares and creates the {@code load-generator} source. */
	public static final class Provider implements ModuleProvider {

		@Override
		public ModuleMetadata metadata() {
			return METADATA;
		}

		@Override
		public Module create(ModuleContext context) {
			return new LoadGeneratorSource(context);
		}
	}
}
