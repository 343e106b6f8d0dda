package io.xd.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.messaging.MessageChannel;

import io.xd.bus.local.LocalMessageBus;
import io.xd.container.ModuleRunner;
import io.xd.container.ModuleRunner.RunningModule;
import io.xd.core.ChannelNames;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;
import io.xd.modules.ModuleType;
import io.xd.modules.builtin.LoadGeneratorSource;
import io.xd.modules.internal.ModuleRegistry;

/**
 * {@code load-generator | throughput} with {@code module.*.count=0} as a container runs it: both modules deployed by
 * the container's {@link ModuleRunner} on a {@link LocalMessageBus}, so each message goes source → the source's
 * output meters → the direct binding → the sink's input meters → sink, with the meters registered in a Prometheus
 * registry as in a server. One operation per message. In the same run:
 * <ul>
 * <li>{@link #plainCallChain()}: the same work with no framework ({@link PlainCallChain}: the same payload
 * allocation, the same counting); the ceiling, and the baseline of the ratios in {@code jmh-thresholds.txt};</li>
 * <li>{@link #xdDeployedChainMixed()}: the same deployment beside two more streams ending in other sinks
 * ({@code counter} and {@code log --level=TRACE}, which logs nothing at the default level): half of each call's
 * messages go through the first stream, a quarter through each of the others, so that the call sites all deployed
 * streams share (the meters', the binding's) see several receiver types, as in a singlenode running several
 * streams.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DeployedChainBenchmark extends XdBenchmark {

	/** Messages per benchmark call; each message counts as one operation. */
	static final int BATCH = 1000;

	@Param({ "100", "1000", "10000", "100000" })
	int messageSize;

	private LocalMessageBus bus;

	private PrometheusMeterRegistry meters;

	private Path dataDirectory;

	private final List<RunningModule> deployed = new ArrayList<>();

	private LoadGeneratorSource source;

	private MessageChannel output;

	private LoadGeneratorSource counterSource;

	private MessageChannel counterOutput;

	private LoadGeneratorSource logSource;

	private MessageChannel logOutput;

	private final PlainCallChain plain = new PlainCallChain();

	@Setup(Level.Trial)
	public void setUp() throws Exception {
		this.bus = new LocalMessageBus();
		this.meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		this.dataDirectory = Files.createTempDirectory("xd-bench");
		ModuleRunner runner = new ModuleRunner(ModuleRegistry.fromClassPath(), this.bus, this.meters,
				this.dataDirectory);
		RunningModule main = deployStream(runner, "bench", "throughput", Map.of("reportEveryMs", "0"));
		this.source = (LoadGeneratorSource) main.module();
		this.output = main.outputChannel();
		RunningModule counted = deployStream(runner, "counted", "counter", Map.of());
		this.counterSource = (LoadGeneratorSource) counted.module();
		this.counterOutput = counted.outputChannel();
		RunningModule logged = deployStream(runner, "logged", "log", Map.of("level", "TRACE"));
		this.logSource = (LoadGeneratorSource) logged.module();
		this.logOutput = logged.outputChannel();

	}

	/**
	 * Deploys {@code load-generator --messageCount=0 | <sink>} as the container does (sink first, then the source,
	 * whose own producer thread sends nothing) and returns the source, whose loop the benchmark runs on its thread.
	 */
	private RunningModule deployStream(ModuleRunner runner, String stream, String sink, Map<String, String> options) {
		String pipe = ChannelNames.pipe(stream, 0);
		this.deployed.add(runner.deploy(new ModuleDeployment(stream, sink, sink, ModuleType.SINK.toString(), 1, 0,
				options, ModuleDeploymentProperties.DEFAULTS, pipe, null, null)));
		RunningModule source = runner.deploy(new ModuleDeployment(stream, "load-generator", "load-generator",
				ModuleType.SOURCE.toString(), 0, 0,
				Map.of("messageSize", Integer.toString(this.messageSize), "messageCount", "0"),
				ModuleDeploymentProperties.DEFAULTS, null, pipe, ChannelNames.streamTap(stream, "load-generator", 0)));
		this.deployed.add(0, source);
		return source;
	}

	@TearDown(Level.Trial)
	public void tearDown() throws Exception {
		long counted = this.deployed.stream().mapToLong(module -> module.meters().messagesIn()).sum();
		this.deployed.forEach(RunningModule::undeploy);
		this.bus.close();
		this.meters.close();
		Files.walk(this.dataDirectory).sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
		if (counted == 0 && this.plain.counted() == 0) {
			throw new IllegalStateException("Nothing was counted: the benchmark measured nothing");
		}
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long xdDeployedChain() {
		return this.source.produce(this.output, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long xdDeployedChainMixed() {
		return this.source.produce(this.output, BATCH / 2, 0)
				+ this.counterSource.produce(this.counterOutput, BATCH / 4, 0)
				+ this.logSource.produce(this.logOutput, BATCH / 4, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void plainCallChain() {
		this.plain.run(BATCH, this.messageSize);
	}
}
