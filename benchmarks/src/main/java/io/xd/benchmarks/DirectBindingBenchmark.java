package io.xd.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.integration.channel.DirectChannel;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.bus.BindingProperties;
import io.xd.bus.local.LocalMessageBus;
import io.xd.core.ChannelNames;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.builtin.LoadGeneratorSource;
import io.xd.modules.builtin.ThroughputSink;
import io.xd.modules.internal.ModuleRegistry;
import io.xd.modules.internal.metrics.MessageCounter;

/**
 * The seed's direct-binding test, {@code load-generator | throughput} with {@code module.*.count=0}, as a
 * microbenchmark: the real {@code load-generator} loop sends through the real local bus to the real
 * {@code throughput} sink, one operation per message. Beside it, in the same run:
 * <ul>
 * <li>{@link #plainCallChain()}: the same work with no framework ({@link PlainCallChain}), a loop allocating the
 * same payloads and handing them to the same kind of counter;</li>
 * <li>{@link #springIntegrationDirectChannel()}: the mechanism behind Spring XD's 2015 figures, a Spring
 * Integration {@link DirectChannel} sending {@code MessageBuilder.withPayload(payload).build()} to a handler that
 * counts with the same counter.</li>
 * </ul>
 * Ratios of the first to the other two are what matter; {@link JmhReport} prints them.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DirectBindingBenchmark extends XdBenchmark {

	/** Messages per benchmark call; each message counts as one operation. */
	static final int BATCH = 1000;

	@Param({ "100", "1000", "10000", "100000" })
	int messageSize;

	private LocalMessageBus bus;

	private LoadGeneratorSource source;

	private ThroughputSink sink;

	private MessageChannel output;

	private final PlainCallChain plain = new PlainCallChain();

	private DirectChannel channel;

	private MessageCounter channelCounter;

	@Setup(Level.Trial)
	public void setUp() {
		ModuleRegistry registry = ModuleRegistry.fromClassPath();
		this.source = (LoadGeneratorSource) create(registry, ModuleType.SOURCE, "load-generator", 0,
				Map.of("messageSize", Integer.toString(this.messageSize)));
		this.sink = (ThroughputSink) create(registry, ModuleType.SINK, "throughput", 1, Map.of("reportEveryMs", "0"));
		this.sink.start();
		this.bus = new LocalMessageBus();
		String pipe = ChannelNames.pipe("bench", 0);
		this.bus.bindConsumer(pipe, this.sink, BindingProperties.NONE);
		this.output = this.bus
			.bindProducer(pipe, ChannelNames.streamTap("bench", "load-generator", 0), BindingProperties.NONE)
			.channel();


		MessageCounter counted = new MessageCounter();
		this.channelCounter = counted;
		this.channel = new DirectChannel();
		this.channel.subscribe(message -> counted.record(((byte[]) message.getPayload()).length));
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.bus.close();
		this.sink.stop();
		if (this.sink.totals().messages() == 0 && this.plain.counted() == 0
				&& this.channelCounter.messages() == 0) {
			throw new IllegalStateException("Nothing was counted: the benchmark measured nothing");
		}
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long xdDirectBinding() {
		return this.source.produce(this.output, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void plainCallChain() {
		this.plain.run(BATCH, this.messageSize);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void springIntegrationDirectChannel() {
		for (int i = 0; i < BATCH; i++) {
			this.channel.send(MessageBuilder.withPayload(new byte[this.messageSize]).build());
		}
	}

	static Module create(ModuleRegistry registry, ModuleType type, String name, int index,
			Map<String, String> options) {
		ModuleProvider provider = registry.find(type, name).orElseThrow();
		return provider.create(new ModuleContext("bench", name, index, provider.metadata().resolve(options)));
	}
}
