package io.xd.container;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;

import io.xd.bus.ConsumerFailedException;
import io.xd.bus.DeadLetterCounter;
import io.xd.bus.DirectConsumer;
import io.xd.bus.SendCounter;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.modules.Module;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.metrics.CountedInput;
import io.xd.modules.internal.metrics.EndToEndLatency;
import io.xd.modules.internal.metrics.MessageCounter;
import io.xd.modules.internal.metrics.MessageTotals;

/**
 * The meters of one module instance, registered with Micrometer under the tags {@code stream}, {@code module} (its
 * label), {@code type} and {@code instance}:
 * <ul>
 * <li>{@code xd.module.messages.in} / {@code xd.module.messages.out}: messages handled / sent (a source has no
 * input meters, a sink no output meters);</li>
 * <li>{@code xd.module.bytes.in} / {@code xd.module.bytes.out}: their payload sizes ({@code byte[]} length, or the
 * length in characters of a {@code String}; other payloads count 0);</li>
 * <li>{@code xd.module.errors}: messages whose handling threw in this module (a failure further down a direct
 * binding, thrown back through this module, is counted by the module where it happened; a message that the bus
 * delivers again counts once per attempt);</li>
 * <li>{@code xd.module.dead.letters}: messages the bus gave up on and moved to its error path (the Kafka bus's
 * dead-letter topic, the local bus's {@code topic:xd.errors}) after this module failed on them
 * ({@link DeadLetterCounter});</li>
 * <li>{@code xd.module.handling}: the time the module took to handle a message, measured on each handling thread's
 * first message (per binding it arrives through) and then on one message in {@value #SAMPLED_ONE_IN} of that thread,
 * so that neither the clock nor the timer is touched per message on the hot path;</li>
 * <li>{@code xd.module.latency} (tag {@code quantile}: 0.5, 0.95, 0.99, 0.999, 1.0) and
 * {@code xd.module.latency.messages}: the end-to-end latency of what a module that measures it has received
 * ({@link EndToEndLatency}, the {@code throughput} sink with {@code --latency=true}), over every message so far.</li>
 * </ul>
 * Counting goes through {@link MessageCounter}s: a message costs two plain stores in a cell that only the counting
 * thread writes (no atomic operation, no field shared by threads, no allocation), which a direct-bound stream of
 * tens of millions of messages a second can afford; the meters sum the threads' cells only when read (scraped, or
 * by {@link #rates()}), and see every message counted before the read. The latest failure (its time and cause) is
 * kept for the module's status ({@link #lastError()}). Several threads may hand messages to one
 * module (a processor with several producers upstream, a {@code queue:} channel with several consumers): each
 * counts in its own cell, so none of their counts is lost; which messages are timed is chosen from the same
 * per-thread count.
 * <p>
 * A direct binding's hop is counted once: when the local bus wires a module's output straight to the next module's
 * input, the next module's input meter counts each message for both ({@link DirectConsumer}), so that a message
 * costs one count per hop, not two. Such a message counts as sent even when the next module then fails on it (it
 * is counted in that module's {@code xd.module.errors}); over any other binding a message counts as sent once the
 * bus has taken it.
 */
public final class ModuleMeters {

	/** One message in this many (plus each counting thread's first) is timed for {@code xd.module.handling}. */
	static final int SAMPLED_ONE_IN = 1024;

	private static final long SAMPLE_MASK = SAMPLED_ONE_IN - 1;

	private final Counts in = new Counts();

	private final Counts out = new Counts();

	/**
	 * The counters of the direct hops from each producer into this module, made once per producer; weakly keyed
	 * (an {@code Output} has identity equality), so an undeployed producer's meters are not kept alive by this module.
	 */
	private final Map<Output, MessageCounter> hopsFrom = new WeakHashMap<>();

	private final LongAdder errors = new LongAdder();

	private final LongAdder deadLetters = new LongAdder();

	/** The latest failure, or {@code null} while there was none. */
	private volatile Failure lastError;

	private final Timer handling;

	private final MeterRegistry registry;

	private final List<Meter> meters = new ArrayList<>();

	private final boolean source;

	/** The latency gauges' object, or {@code null} for a module that does not measure latency. */
	private LatestLatency latency;

	private long lastCount;

	private long lastErrors;

	private long lastNanos = System.nanoTime();

	ModuleMeters(MeterRegistry registry, ModuleDeployment deployment) {
		this.registry = registry;
		ModuleType type = ModuleType.fromLabel(deployment.type());
		this.source = (type == ModuleType.SOURCE);
		Tags tags = tags(deployment);
		if (!this.source) {
			counter("xd.module.messages.in", "messages the module handled", null, this.in, Counts::messages, tags);
			counter("xd.module.bytes.in", "payload bytes the module handled", "bytes", this.in, Counts::bytes, tags);
		}
		if (type != ModuleType.SINK) {
			counter("xd.module.messages.out", "messages the module sent", null, this.out, Counts::messages, tags);
			counter("xd.module.bytes.out", "payload bytes the module sent", "bytes", this.out, Counts::bytes, tags);
		}
		counter("xd.module.errors", "messages whose handling threw", null, this.errors, LongAdder::sum, tags);
		counter("xd.module.dead.letters", "messages the bus moved to its error path after the module failed on them",
				null, this.deadLetters, LongAdder::sum, tags);
		if (this.source) {
			this.handling = null;
		}
		else {
			this.handling = Timer.builder("xd.module.handling")
				.description("time to handle a message, sampled on one message in " + SAMPLED_ONE_IN)
				.tags(tags)
				.register(registry);
			this.meters.add(this.handling);
		}
	}

	/**
	 * Hands a module that reports counts of its input ({@link CountedInput}, the {@code throughput} sink) the counts of
	 * its input meters, so that it does not count each message a second time; nothing for other modules.
	 */
	void shareInputCounts(Module module) {
		if (!this.source && module instanceof CountedInput counted) {
			counted.countedByContainer(this.in);
		}
	}

	/** Publishes the latency percentiles of a module that measures them; nothing for other modules. */
	void meterLatency(Module module, ModuleDeployment deployment) {
		if (!(module instanceof EndToEndLatency measuring) || measuring.endToEndLatency() == null) {
			return;
		}
		// Micrometer's gauges hold their object weakly: this instance keeps it for as long as the module runs
		LatestLatency latest = new LatestLatency(measuring);
		this.latency = latest;
		Tags tags = tags(deployment);
		quantile(latest, tags, "0.5", EndToEndLatency.Percentiles::p50Nanos);
		quantile(latest, tags, "0.95", EndToEndLatency.Percentiles::p95Nanos);
		quantile(latest, tags, "0.99", EndToEndLatency.Percentiles::p99Nanos);
		quantile(latest, tags, "0.999", EndToEndLatency.Percentiles::p999Nanos);
		quantile(latest, tags, "1.0", EndToEndLatency.Percentiles::maxNanos);
		this.meters.add(Gauge.builder("xd.module.latency.messages", latest, last -> last.get().count())
			.description("messages whose end-to-end latency was measured")
			.tags(tags)
			.register(this.registry));
	}

	private void quantile(LatestLatency latest, Tags tags, String quantile,
			ToLongFunction<EndToEndLatency.Percentiles> value) {
		this.meters.add(TimeGauge.builder("xd.module.latency", latest, TimeUnit.NANOSECONDS,
				last -> value.applyAsLong(last.get()))
			.description("end-to-end latency of the messages received so far, by quantile")
			.tags(tags)
			.tag("quantile", quantile)
			.register(this.registry));
	}

	private <T> void counter(String name, String description, String unit, T source, ToDoubleFunction<T> value,
			Tags tags) {
		this.meters.add(FunctionCounter.builder(name, source, value)
			.description(description)
			.baseUnit(unit)
			.tags(tags)
			.register(this.registry));
	}

	private static Tags tags(ModuleDeployment deployment) {
		return Tags.of("stream", deployment.stream(), "module", deployment.label(), "type",
				ModuleType.fromLabel(deployment.type()).label(), "instance", Integer.toString(deployment.sequence()));
	}

	/** Counts what {@code handler} handles; a direct binding may have it count a producer's sends too. */
	MessageHandler meterInput(MessageHandler handler) {
		return new MeteredHandler(handler, this.in.own);
	}

	/** What counts the module's sends, for the bus to call (or to hand to a directly bound consumer's meter). */
	SendCounter meterOutput() {
		return new Output();
	}

	/** The counter of the direct hop from {@code producer} into this module: one per producer, made on first use. */
	private synchronized MessageCounter hopFrom(Output producer) {
		return this.hopsFrom.computeIfAbsent(producer, key -> {
			MessageCounter hop = new MessageCounter();
			this.in.add(hop);
			key.meters().out.add(hop);
			return hop;
		});
	}

	/**
	 * Messages handled (or, for a source, sent) and messages whose handling threw, each per second since the previous
	 * call.
	 */
	synchronized Rates rates() {
		long count = this.source ? this.out.messages() : this.in.messages();
		long failed = this.errors.sum();
		long now = System.nanoTime();
		long elapsed = now - this.lastNanos;
		Rates rates = (elapsed > 0)
				? new Rates((count - this.lastCount) * 1e9 / elapsed, (failed - this.lastErrors) * 1e9 / elapsed)
				: new Rates(0.0, 0.0);
		this.lastCount = count;
		this.lastErrors = failed;
		this.lastNanos = now;
		return rates;
	}

	/** Messages whose handling threw in this module so far (each attempt of a redelivered one). */
	public long errors() {
		return this.errors.sum();
	}

	/** Messages the bus moved to its error path after this module failed on them. */
	public long deadLetters() {
		return this.deadLetters.sum();
	}

	/** The latest failure of a message in this module, or {@code null} while there was none. */
	public Failure lastError() {
		return this.lastError;
	}

	private void recordFailure(Throwable cause) {
		this.lastError = new Failure(System.currentTimeMillis(), cause);
	}

	public long messagesIn() {
		return this.in.messages();
	}

	public long messagesOut() {
		return this.out.messages();
	}

	/** Removes the meters from the registry, when the module is undeployed. */
	void remove() {
		this.meters.forEach(this.registry::remove);
	}

	private static long sizeOf(Message<?> message) {
		Object payload = message.getPayload();
		if (payload instanceof byte[] bytes) {
			return bytes.length;
		}
		if (payload instanceof String text) {
			return text.length();
		}
		return 0;
	}

	/**
	 * A module's own counts and those of the direct hops it shares with its neighbours: what its meters read. Only the
	 * list of hops changes, when the bus wires the module to a new neighbour (rarely; reads are per scrape).
	 */
	private static final class Counts implements MessageTotals {

		final MessageCounter own = new MessageCounter();

		private final List<MessageCounter> hops = new CopyOnWriteArrayList<>();

		void add(MessageCounter hop) {
			this.hops.add(hop);
		}

		@Override
		public long messages() {
			return sum(MessageCounter::messages);
		}

		@Override
		public long bytes() {
			return sum(MessageCounter::bytes);
		}

		@Override
		public long firstCountNanos() {
			long first = this.own.firstCountNanos();
			for (MessageCounter hop : this.hops) {
				long nanos = hop.firstCountNanos();
				if (nanos != 0 && (first == 0 || nanos - first < 0)) {
					first = nanos;
				}
			}
			return first;
		}

		private long sum(ToLongFunction<MessageCounter> count) {
			long sum = count.applyAsLong(this.own);
			for (MessageCounter hop : this.hops) {
				sum += count.applyAsLong(hop);
			}
			return sum;
		}
	}

	/** A module's output, as the bus counts it: each message the bus took, unless a direct consumer counts it. */
	private final class Output implements SendCounter {

		@Override
		public void sent(Message<?> message) {
			ModuleMeters.this.out.own.record(sizeOf(message));
		}

		ModuleMeters meters() {
			return ModuleMeters.this;
		}
	}

	/**
	 * A module's input: counts each message, times the sampled ones, counts failures. Its count is the module's own,
	 * or that of a direct hop, shared with the producing module's output.
	 */
	private final class MeteredHandler implements DirectConsumer, DeadLetterCounter {

		private final MessageHandler delegate;

		private final MessageCounter counter;

		MeteredHandler(MessageHandler delegate, MessageCounter counter) {
			this.delegate = delegate;
			this.counter = counter;
		}

		@Override
		public MessageHandler countingSendsOf(SendCounter producer) {
			if (producer instanceof Output output) {
				return new MeteredHandler(this.delegate, hopFrom(output));
			}
			// a producer counted by something else than module meters: each end counts
			return message -> {
				try {
					handleMessage(message);
				}
				finally {
					producer.sent(message);
				}
			};
		}

		@Override
		public void handleMessage(Message<?> message) {
			// one path for timed and untimed messages: a second call of the module with the message, even a rare
			// one, would keep the JIT from eliding the message's allocation where the whole chain is inlined
			boolean timed = (this.counter.record(sizeOf(message)) & SAMPLE_MASK) == 1;
			long start = timed ? System.nanoTime() : 0L;
			try {
				this.delegate.handleMessage(message);
			}
			catch (RuntimeException | Error ex) {
				failed(ex);
				throw ex;
			}
			if (timed) {
				handled(start);
			}
		}

		/** Records the time of a sampled message that the module handled without failing. */
		private void handled(long start) {
			ModuleMeters.this.handling.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
		}

		private void failed(Throwable ex) {
			// a failure further down a direct binding is counted by the module where it happened
			if (!ConsumerFailedException.isReported(ex)) {
				ModuleMeters.this.errors.increment();
				recordFailure(ex);
			}
		}

		@Override
		public void deadLettered(Throwable cause) {
			ModuleMeters.this.deadLetters.increment();
			// the bus's exception wraps the module's: the latest failure keeps the module's own, counted above, unless
			// the message failed before it reached the module (a record the bus could not convert)
			Failure last = ModuleMeters.this.lastError;
			if (last == null || !causedBy(cause, last.cause())) {
				recordFailure(cause);
			}
		}

		private static boolean causedBy(Throwable ex, Throwable cause) {
			for (Throwable t = ex; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
				if (t == cause) {
					return true;
				}
			}
			return false;
		}
	}

	/** Messages handled (a source: sent) and failed, per second. */
	record Rates(double messages, double errors) {
	}

	/**
	 * A failure of a message in the module.
	 *
	 * @param time when, in milliseconds since the epoch
	 * @param cause what was thrown
	 */
	public record Failure(long time, Throwable cause) {
	}

	/** The module's percentiles, computed at most once per scrape (each quantile's gauge reads the same copy). */
	private static final class LatestLatency {

		private static final long FRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

		private final EndToEndLatency module;

		private EndToEndLatency.Percentiles last;

		private long lastNanos;

		LatestLatency(EndToEndLatency module) {
			this.module = module;
		}

		synchronized EndToEndLatency.Percentiles get() {
			long now = System.nanoTime();
			if (this.last == null || now - this.lastNanos > FRESH_NANOS) {
				EndToEndLatency.Percentiles latest = this.module.endToEndLatency();
				this.last = (latest != null) ? latest : new EndToEndLatency.Percentiles(0, 0, 0, 0, 0, 0);
				this.lastNanos = now;
			}
			return this.last;
		}
	}
}
