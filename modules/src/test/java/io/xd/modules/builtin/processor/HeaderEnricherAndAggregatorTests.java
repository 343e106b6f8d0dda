package io.xd.modules.builtin.processor;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.ModuleOptionException;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code header-enricher} and {@code aggregator}. */
class HeaderEnricherAndAggregatorTests {

	@Test
	void headerEnricherSetsHeadersFromExpressions() {
		ModuleTestDriver enricher = ModuleTestDriver.of(new HeaderEnricherProcessor.Provider(),
				Map.of("headers", "{\"foo\":\"payload.toUpperCase()\",\"len\":\"payload.length()\",\"kept\":\"'new'\"}"));

		enricher.send(MessageBuilder.withPayload("abc").setHeader("kept", "old").build());

		Message<?> out = enricher.received().get(0);
		assertThat(out.getPayload()).isEqualTo("abc");
		assertThat(out.getHeaders()).containsEntry("foo", "ABC").containsEntry("len", 3).containsEntry("kept", "old");
	}

	@Test
	void headerEnricherOverwritesWhenAsked() {
		ModuleTestDriver enricher = ModuleTestDriver.of(new HeaderEnricherProcessor.Provider(),
				Map.of("headers", "{\"kept\":\"'new'\"}", "overwrite", "true"));
		enricher.send(MessageBuilder.withPayload("abc").setHeader("kept", "old").build());
		assertThat(enricher.received().get(0).getHeaders()).containsEntry("kept", "new");
	}

	@Test
	void headerEnricherRefusesAForbiddenExpressionNamingTheHeader() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new HeaderEnricherProcessor.Provider(),
					Map.of("headers", "{\"foo\":\"T(java.lang.System).exit(1)\"}")))
			.withMessageContaining("processor:header-enricher: option 'headers'")
			.withMessageContaining("(header 'foo': type references T(...) are not allowed)");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new HeaderEnricherProcessor.Provider(), Map.of("headers", "[1]")))
			.withMessageContaining("not a JSON object");
	}

	@Test
	void aggregatorReleasesAListEveryCountMessages() {
		try (ModuleTestDriver aggregator = ModuleTestDriver.of(new AggregatorProcessor.Provider(),
				Map.of("count", "3"))) {
			aggregator.send(MessageBuilder.withPayload("a").setHeader("h", 1).build()).send("b").send("c").send("d");

			assertThat(aggregator.receivedPayloads()).containsExactly(List.of("a", "b", "c"));
			assertThat(aggregator.received().get(0).getHeaders()).containsEntry("h", 1);
			assertThat(aggregator.<AggregatorProcessor>module().held()).isEqualTo(1);
		}
	}

	@Test
	void aggregatorGroupsByCorrelation() {
		try (ModuleTestDriver aggregator = ModuleTestDriver.of(new AggregatorProcessor.Provider(),
				Map.of("count", "2", "correlation", "payload % 2"))) {
			aggregator.sendAll(List.of(1, 2, 3, 4));
			assertThat(aggregator.receivedPayloads()).containsExactly(List.of(1, 3), List.of(2, 4));
		}
	}

	@Test
	void aggregatorReleasesAfterTheTimeout() {
		try (ModuleTestDriver aggregator = ModuleTestDriver.of(new AggregatorProcessor.Provider(),
				Map.of("count", "10", "timeout", "50"))) {
			aggregator.send("a").send("b");
			assertThat(aggregator.awaitReceived(1, Duration.ofSeconds(5)).get(0).getPayload())
				.isEqualTo(List.of("a", "b"));
		}
	}

	@Test
	void aggregatorReleasesWhatItHoldsOnStop() {
		ModuleTestDriver aggregator = ModuleTestDriver.of(new AggregatorProcessor.Provider(), Map.of("count", "10"));
		aggregator.send("a");
		aggregator.close();
		assertThat(aggregator.receivedPayloads()).containsExactly(List.of("a"));
	}

	@Test
	void aggregatorBoundsTheNumberOfOpenGroups() {
		try (ModuleTestDriver aggregator = ModuleTestDriver.of(new AggregatorProcessor.Provider(),
				Map.of("count", "2", "correlation", "payload"))) {
			for (int i = 0; i <= AggregatorProcessor.MAX_GROUPS; i++) {
				aggregator.send(i);
			}
			assertThat(aggregator.receivedPayloads()).containsExactly(List.of(0));
			assertThat(aggregator.<AggregatorProcessor>module().held()).isEqualTo(AggregatorProcessor.MAX_GROUPS);
		}
	}
}
