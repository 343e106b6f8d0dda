package io.xd.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.Module;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.builtin.LoadGeneratorSource;
import io.xd.modules.internal.ModuleRegistry;

/**
 * What a processor hop costs on a direct binding: {@code load-generator | <processor> | throughput} through the real
 * local bus and the real module code, 100-byte payloads, one operation per message. In the same run:
 * <ul>
 * <li>{@link #noHop()}: {@code load-generator | throughput}, the floor;</li>
 * <li>{@link #transformPayload()} and {@link #filterTrue()}: {@code transform --expression=payload} and
 * {@code filter --expression=true}, beside {@link #lambdaPassHop()}, a hand-written processor that runs a
 * {@link Predicate} that is always true and passes the message on (the same work);</li>
 * <li>{@link #transformLength()}: {@code transform --expression=payload.length}, an expression that SpEL compiles,
 * beside {@link #lambdaLengthHop()}, a hand-written processor computing the same value with a {@link Function}.</li>
 * </ul>
 * The cost of a hop is the difference of a variant's time per message from {@code noHop}'s.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProcessorHopBenchmark extends XdBenchmark {

	/** Messages per benchmark call; each message counts as one operation. */
	static final int BATCH = 1000;

	static final int MESSAGE_SIZE = 100;

	private final ModuleRegistry registry = ModuleRegistry.fromClassPath();

	private final DirectChains chains = new DirectChains(this.registry);

	private LoadGeneratorSource source;

	private MessageChannel noHop;

	private MessageChannel transformPayload;

	private MessageChannel filterTrue;

	private MessageChannel lambdaPass;

	private MessageChannel transformLength;

	private MessageChannel lambdaLength;

	@Setup(Level.Trial)
	public void setUp() {
		this.source = (LoadGeneratorSource) module(ModuleType.SOURCE, "load-generator", 0,
				Map.of("messageSize", Integer.toString(MESSAGE_SIZE)));
		this.noHop = chain("nohop", null);
		this.transformPayload = chain("transform", module(ModuleType.PROCESSOR, "transform", 1,
				Map.of("expression", "payload")));
		this.filterTrue = chain("filter", module(ModuleType.PROCESSOR, "filter", 1,
				Map.of("expression", "true")));
		Predicate<Message<?>> always = message -> true;
		this.lambdaPass = chain("lambdapass", new LambdaProcessor(message -> always.test(message) ? message : null));
		this.transformLength = chain("length", module(ModuleType.PROCESSOR, "transform", 1,
				Map.of("expression", "payload.length")));
		Function<Object, Object> length = payload -> ((byte[]) payload).length;
		this.lambdaLength = chain("lambdalength", new LambdaProcessor(
				message -> new GenericMessage<>(length.apply(message.getPayload()), message.getHeaders())));
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.chains.close();
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long noHop() {
		return this.source.produce(this.noHop, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long transformPayload() {
		return this.source.produce(this.transformPayload, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long filterTrue() {
		return this.source.produce(this.filterTrue, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long lambdaPassHop() {
		return this.source.produce(this.lambdaPass, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long transformLength() {
		return this.source.produce(this.transformLength, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long lambdaLengthHop() {
		return this.source.produce(this.lambdaLength, BATCH, 0);
	}

	private MessageChannel chain(String stream, Module module) {
		return this.chains.chain(stream, module);
	}

	private Module module(ModuleType type, String name, int index, Map<String, String> options) {
		return DirectBindingBenchmark.create(this.registry, type, name, index, options);
	}

	/** A processor written by hand: applies a function and sends the result on, or drops the message on null. */
	private static final class LambdaProcessor implements Processor {

		private final Function<Message<?>, Message<?>> function;

		private MessageChannel output;

		LambdaProcessor(Function<Message<?>, Message<?>> function) {
			this.function = function;
		}

		@Override
		public void start(MessageChannel output) {
			this.output = output;
		}

		@Override
		public void handleMessage(Message<?> message) {
			Message<?> result = this.function.apply(message);
			if (result != null) {
				this.output.send(result);
			}
		}
	}
}
