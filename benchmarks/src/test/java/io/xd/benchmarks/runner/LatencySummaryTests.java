package io.xd.benchmarks.runner;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatencySummaryTests {

	@Test
	void readsTheLastSummaryWhateverTheLoggerColumnLooksLike() {
		String log = """
				2026-11-23T10:00:01.000Z  INFO 1 --- [xd] [reporter] x.s.t.latlocal1000t1a2b : Latency: p50=9.0us p95=9.0us p99=9.0us p99.9=9.0us max=9.0us, Latency: p50=9.0us
				2026-11-23T10:00:02.000Z  INFO 1 --- [xd] [main] x.s.throughput.latlocal1000t1a2b : Summary: Messages: 5000 in 5.00s = 1000.00/s, Throughput: 500000 bytes = 0.10MB/s
				2026-11-23T10:00:02.001Z  INFO 1 --- [xd] [main] x.s.throughput.latlocal1000t1a2b : Summary: Latency: p50=2.9us p95=32.0us p99=1500.0us p99.9=3600.0us max=5200.0us over 5000 messages
				""";

		Map<String, Figure> latency = LatencySummary.parse(log);

		assertThat(latency.keySet()).containsExactly("p50", "p95", "p99", "p99.9", "max");
		assertThat(latency.get("p50").get()).isEqualTo(2.9);
		assertThat(latency.get("p99").get()).isEqualTo(1500.0);
		assertThat(latency.get("p99.9").get()).isEqualTo(3600.0);
		assertThat(latency.get("max").get()).isEqualTo(5200.0);
	}

	@Test
	void isNotAvailableWithoutASummary() {
		Map<String, Figure> latency = LatencySummary.parse("Summary: no messages received\n");

		assertThat(latency.values()).allSatisfy(figure -> assertThat(figure.format("%.1f"))
			.isEqualTo("n/a (no latency summary from the throughput sink)"));
	}

	@Test
	void isNotAvailableForASummaryWithoutTimestamps() {
		Map<String, Figure> latency = LatencySummary.parse("Summary: Latency: no timestamped messages\n");

		assertThat(latency.get("p99").reason()).startsWith("the sink's summary has no p99");
	}
}
