package io.xd.modules.analytics;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The Redis analytics store against a real {@code redis-server}: two stores, as two containers on two hosts would
 * have, add to the same metrics, and each kind reads back as the memory store reads it.
 */
class RedisAnalyticsStoreIntegrationTests {

	/**
	 * The stores' fixed clock: 10:15:30 UTC on the 26th of next month. The buckets' expiry ({@code PEXPIREAT}) runs
	 * on the Redis server's own clock, so it must lie in the real future: a fixed date in the past expired the minute
	 * buckets as soon as they were written once two days (their retention) had gone by. The 26th keeps the three days
	 * before it in the same month.
	 */
	private static final Instant NOW = ZonedDateTime.now(ZoneOffset.UTC)
		.withDayOfMonth(1)
		.plusMonths(1)
		.withDayOfMonth(26)
		.truncatedTo(ChronoUnit.DAYS)
		.withHour(10)
		.withMinute(15)
		.withSecond(30)
		.toInstant();

	private static final AnalyticsLimits LIMITS = new AnalyticsLimits(3, 10, Duration.ofDays(2), Duration.ofDays(60),
			Duration.ofDays(5 * 366));

	@TempDir
	static Path directory;

	private static RedisTestServer server;

	private static RedisAnalyticsStore first;

	private static RedisAnalyticsStore second;

	@BeforeAll
	static void start() {
		server = RedisTestServer.start(directory.resolve("redis"));
		first = store();
		second = store();
	}

	private static RedisAnalyticsStore store() {
		return new RedisAnalyticsStore(RedisURI.create("127.0.0.1", server.port()), "xd.analytics.", LIMITS,
				Clock.fixed(NOW, ZoneOffset.UTC));
	}

	@AfterAll
	static void stop() {
		for (AutoCloseable closeable : new AutoCloseable[] { first, second, server }) {
			try {
				if (closeable != null) {
					closeable.close();
				}
			}
			catch (Exception ex) {
				// go on stopping the others
			}
		}
	}

	@Test
	void twoStoresAddToOneCounterFromManyThreadsWithoutLosingAny() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<?>> done = new ArrayList<>();
		for (RedisAnalyticsStore store : List.of(first, second, first, second)) {
			done.add(threads.submit(() -> {
				for (int i = 0; i < 500; i++) {
					store.incrementCounter("shared", 1);
				}
			}));
		}
		for (Future<?> future : done) {
			future.get();
		}
		threads.shutdown();
		assertThat(first.counter("shared")).hasValue(2000);
		assertThat(second.counter("shared")).hasValue(2000);
		assertThat(second.names(MetricKind.COUNTER)).contains("shared");
		assertThat(first.delete(MetricKind.COUNTER, "shared")).isTrue();
		assertThat(second.counter("shared")).isEmpty();
		assertThat(second.delete(MetricKind.COUNTER, "shared")).isFalse();
	}

	@Test
	void fieldValueCountersAddUpAcrossStoresWithinTheirLimit() {
		for (String value : new String[] { "a", "b", "a", "c", "d", "a", "e", "b", "far-too-long-value" }) {
			first.incrementFieldValue("devices", value, 1);
		}
		second.incrementFieldValue("devices", "a", 1);
		assertThat(second.fieldValueCounts("devices")).contains(Map.of("a", 4.0, "b", 2.0, "c", 1.0, "_other", 3.0));
		assertThat(second.fieldValueCounts("devices").orElseThrow().keySet()).containsExactly("a", "_other", "b", "c");
		assertThat(first.fieldValueCounts("none")).isEmpty();
	}

	@Test
	void aggregateCountersCountPerBucketWithZerosAndLeaveExpiredBucketsOut() {
		first.incrementAggregate("hits", NOW, 1);
		second.incrementAggregate("hits", NOW.minusSeconds(60), 2);
		first.incrementAggregate("hits", NOW.minus(Duration.ofHours(3)), 4);
		second.incrementAggregate("hits", NOW.minus(Duration.ofDays(3)), 8);

		AggregateCounts minutes = second.aggregateCounts("hits", Resolution.MINUTE, NOW.minusSeconds(120), NOW)
			.orElseThrow();
		assertThat(minutes.total()).isEqualTo(15);
		Instant minute = NOW.truncatedTo(ChronoUnit.MINUTES);
		assertThat(minutes.counts()).containsExactly(Map.entry(minute.minusSeconds(120), 0L),
				Map.entry(minute.minusSeconds(60), 2L), Map.entry(minute, 1L));
		assertThat(first.aggregateCounts("hits", Resolution.HOUR, NOW.minus(Duration.ofHours(3)), NOW).orElseThrow()
			.counts().values()).containsExactly(4L, 0L, 0L, 3L);
		assertThat(first.aggregateCounts("hits", Resolution.DAY, NOW.minus(Duration.ofDays(3)), NOW).orElseThrow()
			.counts().values()).containsExactly(8L, 0L, 0L, 7L);
		assertThat(first.aggregateCounts("hits", Resolution.MONTH, NOW, NOW).orElseThrow().counts().values())
			.containsExactly(15L);
		assertThat(first.aggregateCounts("hits", Resolution.MINUTE, NOW.minus(Duration.ofDays(3)),
				NOW.minus(Duration.ofDays(3))).orElseThrow().counts().values()).containsExactly(0L);
		assertThat(first.delete(MetricKind.AGGREGATE_COUNTER, "hits")).isTrue();
		assertThat(second.aggregateCounts("hits", Resolution.MONTH, NOW, NOW)).isEmpty();
	}

	@Test
	void gaugesAndRichGaugesComputeAsTheMemoryStoreDoes() {
		first.setGauge("temperature", 21);
		second.setGauge("temperature", 19);
		assertThat(first.gauge("temperature")).hasValue(19);

		MemoryAnalyticsStore memory = new MemoryAnalyticsStore();
		double[] values = { 2, 4.25, 9, -1.5, 3 };
		for (int i = 0; i < values.length; i++) {
			RedisAnalyticsStore store = (i % 2 == 0) ? first : second;
			store.recordRichGauge("mean", values[i], -1);
			store.recordRichGauge("ema", values[i], 0.3);
			memory.recordRichGauge("mean", values[i], -1);
			memory.recordRichGauge("ema", values[i], 0.3);
		}
		for (String name : List.of("mean", "ema")) {
			RichGauge expected = memory.richGauge(name).orElseThrow();
			RichGauge actual = second.richGauge(name).orElseThrow();
			assertThat(actual.value()).isEqualTo(expected.value());
			assertThat(actual.alpha()).isEqualTo(expected.alpha());
			assertThat(actual.average()).isCloseTo(expected.average(), within(1e-12));
			assertThat(actual.min()).isEqualTo(-1.5);
			assertThat(actual.max()).isEqualTo(9);
			assertThat(actual.count()).isEqualTo(5);
		}
		assertThat(first.names(MetricKind.RICH_GAUGE)).containsExactly("ema", "mean");
		assertThat(first.richGauge("none")).isEmpty();
	}
}
