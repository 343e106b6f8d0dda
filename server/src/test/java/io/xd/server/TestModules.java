package io.xd.server;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.Sink;
import io.xd.modules.Source;

/**
 * Modules that only the integration tests deploy, found through {@code META-INF/services} on the test class path
 * like any third-party module.
 */
public final class TestModules {

	private TestModules() {
	}

	/** Reads the first 4 bytes of each payload ({@code load-generator --generateTimestamp=true}'s sequence number). */
	static int sequenceOf(Message<?> message) {
		byte[] payload = (byte[]) message.getPayload();
		return ((payload[0] & 0xff) << 24) | ((payload[1] & 0xff) << 16) | ((payload[2] & 0xff) << 8) | (payload[3] & 0xff);
	}

	/** {@code sequence-check}: records which sequence numbers arrived, and how many arrived more than once. */
	public static final class SequenceCheckSink implements Sink {

		private final BitSet seen = new BitSet();

		private final AtomicLong received = new AtomicLong();

		private final AtomicLong duplicates = new AtomicLong();

		@Override
		public synchronized void handleMessage(Message<?> message) {
			int sequence = sequenceOf(message);
			if (this.seen.get(sequence)) {
				this.duplicates.incrementAndGet();
			}
			this.seen.set(sequence);
			this.received.incrementAndGet();
		}

		long received() {
			return this.received.get();
		}

		long duplicates() {
			return this.duplicates.get();
		}

		synchronized BitSet seen() {
			return (BitSet) this.seen.clone();
		}

		public static final class Provider implements ModuleProvider {

			@Override
			public ModuleMetadata metadata() {
				return new ModuleMetadata(ModuleType.SINK, "sequence-check",
						"Test sink: records the sequence numbers it receives", List.of());
			}

			@Override
			public Module create(ModuleContext context) {
				return new SequenceCheckSink();
			}
		}
	}

	/** {@code fail-on --every=N}: throws for every message whose sequence number is a multiple of N. */
	public static final class FailingProcessor implements Processor {

		static final ModuleOption<Integer> EVERY = ModuleOption.ofInt("every")
			.withDefault(100)
			.withMin(1)
			.withDescription("fail for sequence numbers that are multiples of this");

		private final int every;

		private MessageChannel output;

		FailingProcessor(int every) {
			this.every = every;
		}

		@Override
		public void start(MessageChannel output) {
			this.output = output;
		}

		@Override
		public void handleMessage(Message<?> message) {
			int sequence = sequenceOf(message);
			if (sequence % this.every == 0) {
				throw new IllegalStateException("fail-on refuses sequence number " + sequence);
			}
			this.output.send(message);
		}

		public static final class Provider implements ModuleProvider {

			@Override
			public ModuleMetadata metadata() {
				return new ModuleMetadata(ModuleType.PROCESSOR, "fail-on",
						"Test processor: fails for some sequence numbers", List.of(EVERY));
			}

			@Override
			public Module create(ModuleContext context) {
				return new FailingProcessor(context.options().get(EVERY));
			}
		}
	}

	/**
	 * {@code dying --after=MS --when=run|start}: a source whose thread dies of an {@code OutOfMemoryError} after
	 * sending for a while ({@code run}), or whose start throws one ({@code start}).
	 */
	public static final class DyingSource implements Source {

		static final ModuleOption<Integer> AFTER = ModuleOption.ofInt("after")
			.withDefault(500)
			.withMin(0)
			.withDescription("milliseconds of sending before the thread dies");

		static final ModuleOption<String> WHEN = ModuleOption.ofChoice("when", "run", "start")
			.withDefault("run")
			.withDescription("die in the sending thread, or in start");

		private final ModuleContext context;

		private volatile boolean stopped;

		DyingSource(ModuleContext context) {
			this.context = context;
		}

		@Override
		public void start(MessageChannel output) {
			if (this.context.options().get(WHEN).equals("start")) {
				throw new OutOfMemoryError("Java heap space (dying source, at start)");
			}
			long deadline = System.nanoTime() + this.context.options().get(AFTER) * 1_000_000L;
			this.context.newThread("dying", () -> {
				while (!this.stopped && System.nanoTime() < deadline) {
					output.send(new GenericMessage<>("alive"));
					LockSupport.parkNanos(10_000_000L);
				}
				if (!this.stopped) {
					throw new OutOfMemoryError("Java heap space (dying source)");
				}
			}).start();
		}

		@Override
		public void stop() {
			this.stopped = true;
		}

		public static final class Provider implements ModuleProvider {

			@Override
			public ModuleMetadata metadata() {
				return new ModuleMetadata(ModuleType.SOURCE, "dying",
						"Test source: its thread dies of an OutOfMemoryError", List.of(AFTER, WHEN));
			}

			@Override
			public Module create(ModuleContext context) {
				return new DyingSource(context);
			}
		}
	}
}
