package io.xd.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.messaging.MessageChannel;

import io.xd.bus.BindingProperties;
import io.xd.bus.local.LocalMessageBus;
import io.xd.core.ChannelNames;
import io.xd.modules.Module;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.builtin.ThroughputSink;
import io.xd.modules.internal.ModuleRegistry;

/**
 * {@code source [| processor] | throughput} chains bound on local buses of their own, as a container binds
 * co-located modules, for the benchmarks of one processor hop. Not thread-safe: built in a trial's set-up.
 */
final class DirectChains implements AutoCloseable {

	private final ModuleRegistry registry;

	private final List<LocalMessageBus> buses = new ArrayList<>();

	private final List<ThroughputSink> sinks = new ArrayList<>();

	DirectChains(ModuleRegistry registry) {
		this.registry = registry;
	}

	/** Binds a chain through {@code module} (a processor, or null for none) and returns the source's channel. */
	MessageChannel chain(String stream, Module module) {
		LocalMessageBus bus = new LocalMessageBus();
		this.buses.add(bus);
		ThroughputSink sink = (ThroughputSink) DirectBindingBenchmark.create(this.registry, ModuleType.SINK,
				"throughput", 2, Map.of("reportEveryMs", "0"));
		sink.start();
		this.sinks.add(sink);
		String first = ChannelNames.pipe(stream, 0);
		if (module == null) {
			bus.bindConsumer(first, sink, BindingProperties.NONE);
		}
		else {
			Processor processor = (Processor) module;
			String second = ChannelNames.pipe(stream, 1);
			bus.bindConsumer(second, sink, BindingProperties.NONE);
			processor.start(bus
				.bindProducer(second, ChannelNames.streamTap(stream, "processor", 1), BindingProperties.NONE)
				.channel());
			bus.bindConsumer(first, processor, BindingProperties.NONE);
		}
		return bus.bindProducer(first, ChannelNames.streamTap(stream, "load-generator", 0), BindingProperties.NONE)
			.channel();
	}

	/**
	 * Closes the buses and stops the sinks.
	 * @throws IllegalStateException when no sink counted a message: the benchmark measured nothing
	 */
	@Override
	public void close() {
		this.buses.forEach(LocalMessageBus::close);
		this.sinks.forEach(ThroughputSink::stop);
		// each benchmark method drives one of the chains
		if (this.sinks.stream().allMatch(sink -> sink.totals().messages() == 0)) {
			throw new IllegalStateException("No sink counted anything: the benchmark measured nothing");
		}
	}
}
