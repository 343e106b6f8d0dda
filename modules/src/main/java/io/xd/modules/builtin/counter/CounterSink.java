package io.xd.modules.builtin.counter;

import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;

import org.springframework.messaging.Message;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.analytics.AnalyticsStore;
import io.xd.modules.builtin.analytics.MetricSinks;

/**
 * The {@code counter} sink: counts messages in the counter of that name in the container's {@link AnalyticsStore}
 * (where {@code /metrics/counters} and {@code counter display} read it, and which keeps it across restarts), and in
 * the Micrometer counter {@code xd.counter} tagged {@code name=<name>}, registered in {@link Metrics#globalRegistry},
 * where an XD server has added its own registry, so it shows on {@code /actuator/prometheus} as
 * {@code xd_counter_total{name="..."}}. Streams that give the same name share the counter, as Spring XD's counters
 * did; the Micrometer counter starts from zero when its process starts. Outside a container that offers an analytics
 * store (tests, benchmarks), only the Micrometer counter counts.
 */
public final class CounterSink implements Sink {

	/** The meter's name; each counter is one of its {@code name} tags. */
	public static final String METER = "xd.counter";

	static final ModuleOption<String> NAME = MetricSinks.nameOption("counter");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "counter",
			"Counts messages in a named counter of the analytics store, also shown on /actuator/prometheus", List.of(NAME));

	private final Counter counter;

	private final AnalyticsStore store;

	private final String name;

	public CounterSink(ModuleContext context) {
		this.name = MetricSinks.name(context, NAME);
		this.counter = Counter.builder(METER)
			.description("Messages counted by counter sinks, by counter name")
			.tag("name", this.name)
			.register(Metrics.globalRegistry);
		this.store = context.services().find(AnalyticsStore.class).orElse(null);
	}

	@Override
	public void handleMessage(Message<?> message) {
		if (this.store != null) {
			this.store.incrementCounter(this.name, 1);
		}
		this.counter.increment();
	}

	/** The number counted so far (by every module sharing this counter's name). */
	public double count() {
		return this.counter.count();
	}

	/** Declares and creates the {@code counter} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, CounterSink::new);
		}
	}
}
