package io.xd.modules.builtin.counter;

import java.util.Map;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleMessages;
import io.xd.modules.builtin.file.ModuleFixtures;

import static org.assertj.core.api.Assertions.assertThat;

class CounterSinkTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@BeforeEach
	void addRegistry() {
		Metrics.addRegistry(this.registry);
	}

	@AfterEach
	void removeRegistry() {
		Metrics.removeRegistry(this.registry);
	}

	@Test
	void countsMessagesInTheNamedCounterOfRegistriesAddedToTheGlobalOne() {
		CounterSink sink = ModuleFixtures.create(new CounterSink.Provider(), Map.of("name", "clicks"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("a"));
		sink.handleMessage(ModuleMessages.of("b"));

		assertThat(this.registry.get(CounterSink.METER).tag("name", "clicks").counter().count()).isEqualTo(2);
	}

	@Test
	void sinksWithTheSameNameShareTheCounterAndTheNameDefaultsToTheStream() {
		CounterSink first = ModuleFixtures.create(new CounterSink.Provider(), Map.of());
		CounterSink second = ModuleFixtures.create(new CounterSink.Provider(), Map.of("name", "teststream"));
		double before = first.count();
		first.handleMessage(ModuleMessages.of("a"));
		second.handleMessage(ModuleMessages.of("b"));

		assertThat(first.count() - before).isEqualTo(2);
		assertThat(this.registry.get(CounterSink.METER).tag("name", "teststream").counter()).isNotNull();
	}
}
