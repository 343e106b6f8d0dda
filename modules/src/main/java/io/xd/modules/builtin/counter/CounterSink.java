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

/**
 * The {@code counter} sink: counts messages in the Micrometer counter {@code xd.counter} tagged
 * {@code name=<name>}, registered in {@link Metrics#globalRegistry}, where an XD server has added its own registry,
 * so it shows on {@code /actuator/prometheus} as {@code xd_counter_total{name="..."}}. Streams that give the same
 * name share the counter, as Spring XD's counters did; a counter starts from zero when its process starts.
 */
public final class CounterSink implements Sink {

	/** The meter's name; each counter is one of its {@code name} tags. */
	public static final String METER = "xd.counter";

	static final ModuleOption<String> NAME = ModuleOption.ofString("name")
		.withRule(text -> !text.isBlank() && text.length() <= 200, "be a name of 1 to 200 characters")
		.withDescription("the counter's name (the meter's name tag); defaults to the stream name");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "counter",
			"Counts messages in a named counter, shown on /actuator/prometheus", List.of(NAME));

	private final Counter counter;

	public CounterSink(ModuleContext context) {
		String name = context.options().get(NAME);
		this.counter = Counter.builder(METER)
			.description("Messages counted by counter sinks, by counter name")
			.tag("name", (name == null) ? context.streamName() : name)
			.register(Metrics.globalRegistry);
	}

	@Override
	public void handleMessage(Message<?> message) {
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
