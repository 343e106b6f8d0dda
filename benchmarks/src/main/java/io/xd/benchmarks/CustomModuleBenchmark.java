package io.xd.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.messaging.MessageChannel;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.builtin.BridgeProcessor;
import io.xd.modules.builtin.LoadGeneratorSource;
import io.xd.modules.internal.CustomModule;
import io.xd.modules.internal.JarLimits;
import io.xd.modules.internal.ModuleJar;
import io.xd.modules.internal.ModuleRegistry;

/**
 * Whether a custom module is as fast as a built-in one: {@code load-generator | bridge | throughput} on a direct
 * binding, 100-byte payloads, one operation per message, where the processor is the built-in {@code bridge}
 * ({@link #builtInHop()}) or the very same code packed into a module jar and loaded like an uploaded module, in a
 * {@code ModuleClassLoader} of its own ({@link #customHop()}). {@link #noHop()} ({@code load-generator | throughput})
 * is the floor. A custom module is called through the same interfaces as a built-in one and its classes are linked
 * once, so the two should not differ beyond noise.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CustomModuleBenchmark extends XdBenchmark {

	static final int BATCH = 1000;

	private final ModuleRegistry registry = ModuleRegistry.fromClassPath();

	private final DirectChains chains = new DirectChains(this.registry);

	private LoadGeneratorSource source;

	private CustomModule custom;

	private Path jar;

	private MessageChannel noHop;

	private MessageChannel builtIn;

	private MessageChannel customHop;

	@Setup(Level.Trial)
	public void setUp() throws IOException {
		this.source = (LoadGeneratorSource) DirectBindingBenchmark.create(this.registry, ModuleType.SOURCE,
				"load-generator", 0, Map.of("messageSize", Integer.toString(ProcessorHopBenchmark.MESSAGE_SIZE)));
		this.jar = moduleJar();
		ModuleJar.check(this.jar, JarLimits.DEFAULT);
		this.custom = ModuleJar.load(this.jar, ModuleType.PROCESSOR, "custom-bridge", ModuleJar.sha256(this.jar));
		Module fromJar = create(this.custom);
		if (fromJar.getClass() == BridgeProcessor.class
				|| fromJar.getClass().getClassLoader() != this.custom.classLoader()) {
			throw new IllegalStateException("The custom processor was not loaded from its jar");
		}
		this.noHop = this.chains.chain("nohop", null);
		this.builtIn = this.chains.chain("builtin", create(this.registry.find(ModuleType.PROCESSOR, "bridge")
			.orElseThrow()));
		this.customHop = this.chains.chain("custom", fromJar);
	}

	@TearDown(Level.Trial)
	public void tearDown() throws IOException {
		this.custom.retire();
		Files.deleteIfExists(this.jar);
		this.chains.close();
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long noHop() {
		return this.source.produce(this.noHop, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long builtInHop() {
		return this.source.produce(this.builtIn, BATCH, 0);
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long customHop() {
		return this.source.produce(this.customHop, BATCH, 0);
	}

	private static Module create(ModuleProvider provider) {
		return provider.create(new ModuleContext("bench", "bridge", 1, provider.metadata().resolve(Map.of())));
	}

	/**
	 * A module jar of the built-in bridge's class files, copied from XD's class path: loaded from the jar, they are
	 * classes of their own ({@code io.xd.modules.builtin} is hidden from custom modules).
	 */
	private static Path moduleJar() throws IOException {
		Path jar = Files.createTempFile("custom-bridge", ".jar");
		try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
			for (Class<?> type : List.of(BridgeProcessor.class, BridgeProcessor.Provider.class)) {
				String name = type.getName().replace('.', '/') + ".class";
				zip.putNextEntry(new JarEntry(name));
				try (InputStream in = CustomModuleBenchmark.class.getClassLoader().getResourceAsStream(name)) {
					if (in == null) {
						throw new UncheckedIOException(new IOException("No class file " + name));
					}
					in.transferTo(zip);
				}
			}
			zip.putNextEntry(new JarEntry(ModuleJar.SERVICE_FILE));
			zip.write((BridgeProcessor.Provider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
		}
		return jar;
	}
}
