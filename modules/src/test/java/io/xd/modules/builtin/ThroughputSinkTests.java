package io.xd.modules.builtin;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

class ThroughputSinkTests {

	private static final Pattern RATES = Pattern.compile("Messages: +(\\d+) in +([\\d.]+)s = +([\\d.]+)/s, "
			+ "Messages: +(\\d+) in +([\\d.]+)s = +([\\d.]+)/s");

	private static final Pattern BYTES = Pattern.compile("Throughput: +(\\d+) in +([\\d.]+)s = +([\\d.]+)MB/s, "
			+ "Throughput: +(\\d+) in +([\\d.]+)s = +([\\d.]+)MB/s");

	@Test
	void countsEveryMessageAndByteFromSeveralThreads() throws Exception {
		ThroughputSink sink = Modules.create(new ThroughputSink.Provider(), Map.of("reportEveryMs", "0"));
		sink.start();
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < 4; p++) {
			producers.add(new Thread(() -> {
				for (int i = 0; i < 250_000; i++) {
					sink.handleMessage(ModuleMessages.of(new byte[100]));
				}
			}));
		}
		producers.forEach(Thread::start);
		for (Thread producer : producers) {
			producer.join();
		}
		sink.stop();

		assertThat(sink.totals().messages()).isEqualTo(1_000_000);
		assertThat(sink.totals().bytes()).isEqualTo(100_000_000);
	}

	@Test
	void logsIntervalAndCumulativeRatesFromTheTimeThatElapsed() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.throughput.teststream")) {
			ThroughputSink sink = Modules.create(new ThroughputSink.Provider(), Map.of("reportEveryMs", "200"));
			sink.start();
			for (int i = 0; i < 1000; i++) {
				sink.handleMessage(ModuleMessages.of(new byte[1024]));
			}

			await().atMost(5, TimeUnit.SECONDS).until(() -> log.lines().stream().anyMatch(l -> l.startsWith("Throughput")));
			sink.stop();

			Matcher rates = firstMatch(log.lines(), RATES);
			long interval = Long.parseLong(rates.group(1));
			double intervalSeconds = Double.parseDouble(rates.group(2));
			assertThat(interval).isEqualTo(1000);
			assertThat(intervalSeconds).isBetween(0.19, 1.0);
			assertThat(Double.parseDouble(rates.group(3))).isCloseTo(interval / intervalSeconds,
					within(interval / intervalSeconds * 0.06));
			assertThat(Long.parseLong(rates.group(4))).isEqualTo(1000);

			Matcher bytes = firstMatch(log.lines(), BYTES);
			assertThat(Long.parseLong(bytes.group(1))).isEqualTo(1000 * 1024);
			double megabytesPerSecond = Double.parseDouble(bytes.group(3));
			assertThat(megabytesPerSecond).isCloseTo(1000 * 1024 / 1048576.0 / Double.parseDouble(bytes.group(2)),
					within(megabytesPerSecond * 0.06));
		}
	}

	@Test
	void logsASummaryWithTheTotalsWhenStopped() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.throughput.summary")) {
			ThroughputSink sink = Modules.create(new ThroughputSink.Provider(),
					Map.of("reportEveryMs", "0", "logger", "summary"));
			sink.start();
			for (int i = 0; i < 500; i++) {
				sink.handleMessage(ModuleMessages.of(new byte[10]));
			}
			sink.stop();
			sink.stop();

			assertThat(log.lines()).hasSize(1);
			assertThat(log.lines().get(0)).matches("Summary: Messages: 500 in [\\d.]+s = [\\d.]+/s, "
					+ "Throughput: 5000 bytes = [\\d.]+MB/s");
		}
	}

	@Test
	void saysSoWhenNoMessageArrived() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.throughput.teststream")) {
			ThroughputSink sink = Modules.create(new ThroughputSink.Provider(), Map.of());
			sink.start();
			sink.stop();

			assertThat(log.lines()).containsExactly("Summary: no messages received");
		}
	}

	@Test
	void showsElapsedTimeInTheChosenUnit() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.throughput.teststream")) {
			ThroughputSink sink = Modules.create(new ThroughputSink.Provider(),
					Map.of("reportEveryMs", "100", "timeUnit", "ms"));
			sink.start();
			sink.handleMessage(ModuleMessages.of("x"));
			await().atMost(5, TimeUnit.SECONDS).until(() -> !log.lines().isEmpty());
			sink.stop();

			assertThat(log.lines().get(0)).matches("Messages: +1 in +\\d+\\.\\d\\dms = +[\\d.]+/s, .*");
		}
	}

	@Test
	void countsTheUtf8LengthOfTextPayloads() {
		ThroughputSink sink = Modules.create(new ThroughputSink.Provider(), Map.of("reportEveryMs", "0"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("h\u00e9llo \u20ac \ud83d\ude00"));
		sink.handleMessage(ModuleMessages.of(42));
		sink.stop();

		assertThat(sink.totals().messages()).isEqualTo(2);
		assertThat(sink.totals().bytes()).isEqualTo(1 + 2 + 3 + 1 + 3 + 1 + 4);
	}

	@Test
	void computesLatencyPercentilesFromTheTimestampsOfSeveralThreads() throws Exception {
		ThroughputSink sink = Modules.create(new ThroughputSink.Provider(),
				Map.of("reportEveryMs", "0", "latency", "true"));
		sink.start();
		List<Thread> producers = new ArrayList<>();
		for (int p = 0; p < 4; p++) {
			producers.add(new Thread(() -> {
				// latencies of 1 ms, 2 ms, ..., 1000 ms from each thread
				for (int k = 1; k <= 1000; k++) {
					sink.handleMessage(ModuleMessages.of(sentAgo(k * 1_000_000L, 100)));
				}
			}));
		}
		producers.forEach(Thread::start);
		for (Thread producer : producers) {
			producer.join();
		}
		sink.stop();

		ThroughputSink.Latency latency = sink.latency();
		assertThat(latency.count()).isEqualTo(4000);
		assertThat(latency.unmeasured()).isZero();
		assertThat(latency.p50Nanos()).isCloseTo(500_000_000L, within(3_000_000L));
		assertThat(latency.p95Nanos()).isCloseTo(950_000_000L, within(3_000_000L));
		assertThat(latency.p99Nanos()).isCloseTo(990_000_000L, within(3_000_000L));
		assertThat(latency.p999Nanos()).isCloseTo(999_000_000L, within(3_000_000L));
		assertThat(latency.maxNanos()).isCloseTo(1_000_000_000L, within(3_000_000L));
		assertThat(sink.latencyHistogram().getTotalCount()).isEqualTo(4000);
	}

	@Test
	void logsLatencyPercentilesInEveryReportAndInTheSummary() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.throughput.teststream")) {
			ThroughputSink sink = Modules.create(new ThroughputSink.Provider(),
					Map.of("reportEveryMs", "100", "latency", "true"));
			sink.start();
			for (int i = 0; i < 100; i++) {
				sink.handleMessage(ModuleMessages.of(sentAgo(2_000_000L, 20)));
			}
			await().atMost(5, TimeUnit.SECONDS).until(() -> log.lines().stream().anyMatch(l -> l.startsWith("Latency")));
			sink.stop();

			String percentiles = "p50=([\\d.]+)us p95=[\\d.]+us p99=[\\d.]+us p99\\.9=[\\d.]+us max=([\\d.]+)us";
			Matcher report = firstMatch(log.lines(), Pattern.compile("Latency: " + percentiles + ", Latency: "
					+ percentiles));
			assertThat(Double.parseDouble(report.group(1))).isBetween(2000.0, 4000.0);
			assertThat(Double.parseDouble(report.group(3))).isBetween(2000.0, 4000.0);
			firstMatch(log.lines(), Pattern.compile("Summary: Latency: " + percentiles + " over 100 messages"));
		}
	}

	@Test
	void countsMessagesWithoutAUsableTimestampAsUnmeasured() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.throughput.teststream")) {
			ThroughputSink sink = Modules.create(new ThroughputSink.Provider(),
					Map.of("reportEveryMs", "0", "latency", "true"));
			sink.start();
			sink.handleMessage(ModuleMessages.of("text"));
			sink.handleMessage(ModuleMessages.of(new byte[11]));
			sink.handleMessage(ModuleMessages.of(sentAgo(-1_000_000_000L, 12)));
			sink.handleMessage(ModuleMessages.of(sentAgo(1_000L, 12)));
			sink.stop();

			assertThat(sink.latency().count()).isEqualTo(1);
			assertThat(sink.latency().unmeasured()).isEqualTo(3);
			assertThat(sink.totals().messages()).isEqualTo(4);
			assertThat(log.lines()).last().asString().matches(
					"Summary: Latency: p50=.* over 1 messages \\(3 messages without a usable timestamp\\)");
		}
	}

	@Test
	void measuresNoLatencyUnlessAskedTo() {
		ThroughputSink sink = Modules.create(new ThroughputSink.Provider(), Map.of("reportEveryMs", "0"));
		sink.start();
		sink.handleMessage(ModuleMessages.of(sentAgo(1_000L, 12)));
		sink.stop();

		assertThat(sink.latency()).isEqualTo(ThroughputSink.Latency.NONE);
		assertThat(sink.latencyHistogram().getTotalCount()).isZero();
	}

	@Test
	void refusesALatencyValueThatIsNotABoolean() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new ThroughputSink.Provider(), Map.of("latency", "yes")))
			.withMessageContaining("option 'latency' expects true or false, but got 'yes'");
	}

	/** A payload of {@code size} bytes stamped, like load-generator's, with a time {@code nanos} before now. */
	private static byte[] sentAgo(long nanos, int size) {
		byte[] payload = new byte[size];
		ByteBuffer.wrap(payload).putLong(4, System.nanoTime() - nanos);
		return payload;
	}

	private static Matcher firstMatch(List<String> lines, Pattern pattern) {
		for (String line : lines) {
			Matcher matcher = pattern.matcher(line);
			if (matcher.matches()) {
				return matcher;
			}
		}
		throw new AssertionError("No line matches " + pattern + " in " + lines);
	}
}
