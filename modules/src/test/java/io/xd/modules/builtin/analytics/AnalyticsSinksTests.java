package io.xd.modules.builtin.analytics;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.MessagingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleServices;
import io.xd.modules.analytics.AnalyticsStore;
import io.xd.modules.analytics.MemoryAnalyticsStore;
import io.xd.modules.analytics.Resolution;
import io.xd.modules.analytics.RichGauge;
import io.xd.modules.builtin.counter.CounterSink;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AnalyticsSinksTests {

	@TempDir
	Path data;

	private final MemoryAnalyticsStore store = new MemoryAnalyticsStore();

	private ModuleTestDriver sink(ModuleProvider provider, Map<String, String> options) {
		return ModuleTestDriver.of(provider, options, this.data, HostAccess.defaults(this.data),
				ModuleServices.NONE.with(AnalyticsStore.class, this.store));
	}

	@Test
	void fieldValueCounterCountsAFieldOfJsonTextBytesAndMapsWithNestedPathsAndLists() {
		try (ModuleTestDriver driver = sink(new FieldValueCounterSink.Provider(), Map.of("fieldName", "device"))) {
			driver.send("{\"device\":\"phone\"}")
				.send("{\"device\":\"tablet\"}".getBytes(StandardCharsets.UTF_8))
				.send(Map.of("device", "phone"))
				.send(Map.of("device", List.of("phone", "watch")))
				.send("{\"other\":1}")
				.send("{\"device\":7}");
		}
		assertThat(this.store.fieldValueCounts(ModuleTestDriver.STREAM_NAME))
			.contains(Map.of("phone", 3.0, "tablet", 1.0, "watch", 1.0, "7", 1.0));
		try (ModuleTestDriver driver = sink(new FieldValueCounterSink.Provider(),
				Map.of("fieldName", "user.agent.os", "name", "os"))) {
			driver.send("{\"user\":{\"agent\":{\"os\":\"linux\"}}}").send("{\"user\":\"flat\"}");
		}
		assertThat(this.store.fieldValueCounts("os")).contains(Map.of("linux", 1.0));
	}

	@Test
	void fieldValueCounterRefusesAPayloadThatIsNotJsonAndAMissingFieldName() {
		try (ModuleTestDriver driver = sink(new FieldValueCounterSink.Provider(), Map.of("fieldName", "device"))) {
			assertThatThrownBy(() -> driver.send("device=phone")).isInstanceOf(MessagingException.class)
				.hasMessageContaining("The field-value-counter sink cannot use this message: the payload is not JSON")
				.hasMessageContaining("device=phone");
		}
		assertThatThrownBy(() -> sink(new FieldValueCounterSink.Provider(), Map.of()))
			.isInstanceOf(ModuleOptionException.class)
			.hasMessageContaining("option 'fieldName' is required");
	}

	@Test
	void analyticsSinksNeedTheStoreAndSayWhichOneIsMissing() {
		assertThatThrownBy(() -> ModuleTestDriver.of(new GaugeSink.Provider(), Map.of()))
			.hasMessageContaining("needs a AnalyticsStore, which this container does not offer");
	}

	@Test
	void aggregateCounterCountsNowOrAtTheTimeFieldInTheDateFormatWithTheIncrement() {
		Instant before = Instant.now().truncatedTo(ChronoUnit.MINUTES);
		try (ModuleTestDriver driver = sink(new AggregateCounterSink.Provider(), Map.of("name", "now"))) {
			driver.send("a").send("b");
		}
		Instant after = Instant.now();
		assertThat(this.store.aggregateCounts("now", Resolution.MINUTE, before, after).orElseThrow()
			.counts().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2);

		// hours are kept for 60 days: two hours ago
		Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
		DateTimeFormatter format = DateTimeFormatter.ofPattern(AggregateCounterSink.DEFAULT_DATE_FORMAT)
			.withZone(ZoneOffset.UTC);
		try (ModuleTestDriver driver = sink(new AggregateCounterSink.Provider(), Map.of("name", "timed", "timeField",
				"payload.at", "incrementExpression", "payload.n"))) {
			driver.send("{\"at\":\"" + format.format(hour.plusSeconds(900)) + "\",\"n\":3}")
				.send(Map.of("at", format.format(hour.plusSeconds(3600)), "n", 2))
				.send(Map.of("at", hour.plusSeconds(300).toEpochMilli(), "n", 1));
		}
		assertThat(this.store.aggregateCounts("timed", Resolution.HOUR, hour, hour.plusSeconds(3600)).orElseThrow()
			.counts().values()).containsExactly(4L, 2L);

		try (ModuleTestDriver driver = sink(new AggregateCounterSink.Provider(), Map.of("name", "formatted",
				"timeField", "payload.created", "dateFormat", "EEE MMM d HH:mm:ss Z yyyy"))) {
			driver.send("{\"created\":\"Fri Jan 02 10:15:00 +0100 2026\"}");
			assertThatThrownBy(() -> driver.send("{\"created\":\"yesterday\"}"))
				.hasMessageContaining("timeField 'yesterday' does not match the dateFormat");
		}
		assertThat(this.store.aggregateCounts("formatted", Resolution.DAY, Instant.parse("2026-01-01T09:00:00Z"),
				Instant.parse("2026-01-02T09:00:00Z")).orElseThrow().counts().values()).containsExactly(0L, 1L);
		assertThatThrownBy(() -> sink(new AggregateCounterSink.Provider(), Map.of("dateFormat", "yyyy-MM-dd'T")))
			.hasMessageContaining("dateFormat");
	}

	@Test
	void gaugeTakesWholeNumbersAsXdDidAndRefusesTheRest() {
		try (ModuleTestDriver driver = sink(new GaugeSink.Provider(), Map.of("name", "temperature"))) {
			driver.send("21").send(22L);
			assertThat(this.store.gauge("temperature")).hasValue(22);
			driver.send(" 19 ".getBytes(StandardCharsets.UTF_8));
			assertThat(this.store.gauge("temperature")).hasValue(19);
			assertThatThrownBy(() -> driver.send("10.5")).isInstanceOf(MessagingException.class)
				.hasMessageContaining("The gauge sink cannot use this message: the payload is not a whole number: 10.5");
		}
		assertThat(this.store.gauge("temperature")).hasValue(19);
	}

	@Test
	void richGaugeRecordsNumbersWithTheGivenAlphaAndRefusesAnOutOfRangeAlpha() {
		try (ModuleTestDriver driver = sink(new RichGaugeSink.Provider(), Map.of())) {
			driver.send("1.5").send(2.5).send(MessageBuilder.withPayload("5").build());
		}
		assertThat(this.store.richGauge(ModuleTestDriver.STREAM_NAME)).contains(new RichGauge(5, -1, 3, 5, 1.5, 3));
		try (ModuleTestDriver driver = sink(new RichGaugeSink.Provider(), Map.of("name", "ema", "alpha", "0.5"))) {
			driver.send(10).send(20);
			assertThatThrownBy(() -> driver.send("NaN")).hasMessageContaining("not a finite number");
		}
		assertThat(this.store.richGauge("ema").orElseThrow().average()).isEqualTo(15);
		assertThatThrownBy(() -> sink(new RichGaugeSink.Provider(), Map.of("alpha", "1")))
			.hasMessageContaining("alpha must be -1 (the arithmetic mean) or between 0 and 1");
	}

	@Test
	void counterCountsInTheStoreToo() {
		try (ModuleTestDriver driver = sink(new CounterSink.Provider(), Map.of("name", "stored"))) {
			driver.send("a").send("b");
		}
		assertThat(this.store.counter("stored")).hasValue(2);
	}
}
