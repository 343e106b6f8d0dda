package io.xd.modules.analytics;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class MemoryAnalyticsStoreTests {

	private static final Instant NOW = Instant.parse("2026-11-26T10:15:30Z");

	private static final AnalyticsLimits LIMITS = new AnalyticsLimits(3, 10, Duration.ofDays(2), Duration.ofDays(60),
			Duration.ofDays(5 * 366));

	@TempDir
	Path data;

	private MemoryAnalyticsStore store(Path snapshot) {
		return new MemoryAnalyticsStore(snapshot, LIMITS, Clock.fixed(NOW, ZoneOffset.UTC));
	}

	@Test
	void countsAndListsAndDeletesCounters() {
		MemoryAnalyticsStore store = store(null);
		assertThat(store.counter("clicks")).isEmpty();
		store.incrementCounter("clicks", 1);
		assertThat(store.incrementCounter("clicks", 2)).isEqualTo(3);
		store.incrementCounter("a.b", 1);
		assertThat(store.names(MetricKind.COUNTER)).containsExactly("a.b", "clicks");
		assertThat(store.delete(MetricKind.COUNTER, "clicks")).isTrue();
		assertThat(store.delete(MetricKind.COUNTER, "clicks")).isFalse();
		assertThat(store.counter("clicks")).isEmpty();
	}

	@Test
	void refusesNamesThatAreNotSafeInAUrlOrAKey() {
		MemoryAnalyticsStore store = store(null);
		assertThatIllegalArgumentException().isThrownBy(() -> store.incrementCounter("a/b", 1))
			.withMessageContaining("A metric name must be 1 to 200 letters");
		assertThatIllegalArgumentException().isThrownBy(() -> store.setGauge("-x", 1));
		assertThatIllegalArgumentException().isThrownBy(() -> store.setGauge("a*", 1));
	}

	@Test
	void fieldValueCountersCountNewValuesBeyondTheLimitAndLongValuesAsOther() {
		MemoryAnalyticsStore store = store(null);
		for (String value : new String[] { "a", "b", "a", "c", "d", "a", "e", "b", "far-too-long-value" }) {
			store.incrementFieldValue("devices", value, 1);
		}
		assertThat(store.fieldValueCounts("devices")).contains(Map.of("a", 3.0, "b", 2.0, "c", 1.0, "_other", 3.0));
		assertThat(store.fieldValueCounts("devices").orElseThrow().keySet()).containsExactly("_other", "a", "b", "c");
		assertThat(store.fieldValueCounts("none")).isEmpty();
	}

	@Test
	void aggregateCountersCountPerBucketWithZerosAndDropBucketsPastTheirRetention() {
		MemoryAnalyticsStore store = store(null);
		store.incrementAggregate("hits", NOW, 1);
		store.incrementAggregate("hits", NOW.minusSeconds(60), 2);
		store.incrementAggregate("hits", NOW.minus(Duration.ofHours(3)), 4);
		// beyond the 2 days of minute buckets: counted in hours, days, months and the total only
		store.incrementAggregate("hits", NOW.minus(Duration.ofDays(3)), 8);

		AggregateCounts minutes = store
			.aggregateCounts("hits", Resolution.MINUTE, NOW.minusSeconds(120), NOW).orElseThrow();
		assertThat(minutes.total()).isEqualTo(15);
		assertThat(minutes.counts()).containsExactly(Map.entry(Instant.parse("2026-11-26T10:13:00Z"), 0L),
				Map.entry(Instant.parse("2026-11-26T10:14:00Z"), 2L), Map.entry(Instant.parse("2026-11-26T10:15:00Z"), 1L));
		AggregateCounts hours = store.aggregateCounts("hits", Resolution.HOUR, NOW.minus(Duration.ofHours(3)), NOW)
			.orElseThrow();
		assertThat(hours.counts().values()).containsExactly(4L, 0L, 0L, 3L);
		assertThat(store.aggregateCounts("hits", Resolution.DAY, NOW.minus(Duration.ofDays(3)), NOW).orElseThrow()
			.counts().values()).containsExactly(8L, 0L, 0L, 7L);
		assertThat(store.aggregateCounts("hits", Resolution.MONTH, NOW, NOW).orElseThrow().counts())
			.containsExactly(Map.entry(Instant.parse("2026-11-01T00:00:00Z"), 15L));
		assertThat(store.aggregateCounts("hits", Resolution.YEAR, NOW, NOW).orElseThrow().counts().values())
			.containsExactly(15L);
		assertThat(store.aggregateCounts("hits", Resolution.MINUTE, NOW.minus(Duration.ofDays(3)),
				NOW.minus(Duration.ofDays(3))).orElseThrow().counts().values()).containsExactly(0L);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> store.aggregateCounts("hits", Resolution.MINUTE, NOW.minus(Duration.ofDays(30)), NOW))
			.withMessageContaining("more than 10000 minute buckets");
	}

	@Test
	void richGaugesKeepTheMeanOrAMovingAverageWithMinMaxAndCount() {
		MemoryAnalyticsStore store = store(null);
		store.recordRichGauge("mean", 2, -1);
		store.recordRichGauge("mean", 4, -1);
		RichGauge mean = store.recordRichGauge("mean", 9, -1);
		assertThat(mean).isEqualTo(new RichGauge(9, -1, 5, 9, 2, 3));

		store.recordRichGauge("ema", 10, 0.5);
		store.recordRichGauge("ema", 20, 0.5);
		RichGauge ema = store.recordRichGauge("ema", 0, 0.5);
		assertThat(ema.average()).isCloseTo(7.5, within(1e-9));
		assertThat(ema.min()).isZero();
		assertThat(ema.max()).isEqualTo(20);
		assertThatIllegalArgumentException().isThrownBy(() -> store.recordRichGauge("bad", 1, 1.5))
			.withMessageContaining("alpha must be -1");
	}

	@Test
	void aSnapshotBringsEveryKindBackAfterARestartAndIsWrittenOnlyAfterChanges() throws Exception {
		Path snapshot = this.data.resolve("analytics").resolve("snapshot.json");
		MemoryAnalyticsStore store = store(snapshot);
		store.incrementCounter("c", 5);
		store.incrementFieldValue("f", "x", 2);
		store.incrementAggregate("a", NOW, 3);
		store.setGauge("g", -7);
		store.recordRichGauge("r", 1.5, 0.25);
		store.recordRichGauge("r", 2.5, 0.25);
		assertThat(store.saveIfChanged()).isTrue();
		assertThat(store.saveIfChanged()).isFalse();
		store.incrementCounter("c", 1);
		store.close();
		assertThat(Files.list(snapshot.getParent())).containsExactly(snapshot);

		MemoryAnalyticsStore restarted = store(snapshot);
		restarted.load();
		assertThat(restarted.counter("c")).hasValue(6);
		assertThat(restarted.fieldValueCounts("f")).contains(Map.of("x", 2.0));
		assertThat(restarted.aggregateCounts("a", Resolution.HOUR, NOW, NOW).orElseThrow().counts().values())
			.containsExactly(3L);
		assertThat(restarted.gauge("g")).hasValue(-7);
		assertThat(restarted.richGauge("r")).isEqualTo(store.richGauge("r"));
		assertThat(restarted.saveIfChanged()).isFalse();
	}

	@Test
	void aSnapshotThatIsNotJsonStopsTheStartWithItsName() throws Exception {
		Path snapshot = Files.writeString(this.data.resolve("snapshot.json"), "{not json");
		MemoryAnalyticsStore store = store(snapshot);
		org.assertj.core.api.Assertions.assertThatThrownBy(store::load)
			.hasMessageContaining(snapshot.toString())
			.hasMessageContaining("move it away");
	}
}
