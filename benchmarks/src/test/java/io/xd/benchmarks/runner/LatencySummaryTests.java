package io.xd.benchmarks.runner;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatencySummaryTests {

	private static final String SCRAPE = """
			# HELP xd_module_latency_seconds end-to-end latency of the messages received so far, by quantile
			# TYPE xd_module_latency_seconds gauge
			xd_module_latency_seconds{instance="1",module="throughput",quantile="0.5",stream="lat1",type="sink"} 2.9E-6
			xd_module_latency_seconds{instance="1",module="throughput",quantile="0.95",stream="lat1",type="sink"} 3.2E-5
			xd_module_latency_seconds{instance="1",module="throughput",quantile="0.99",stream="lat1",type="sink"} 0.0015
			xd_module_latency_seconds{instance="1",module="throughput",quantile="0.999",stream="lat1",type="sink"} 0.0036
			xd_module_latency_seconds{instance="1",module="throughput",quantile="1.0",stream="lat1",type="sink"} 0.0052
			xd_module_latency_seconds{instance="1",module="throughput",quantile="0.99",stream="other",type="sink"} 9.0
			# TYPE xd_module_latency_messages gauge
			xd_module_latency_messages{instance="1",module="throughput",stream="lat1",type="sink"} 5000.0
			xd_module_latency_messages{instance="1",module="throughput",stream="empty",type="sink"} 0.0
			xd_module_latency_seconds{instance="1",module="throughput",quantile="0.99",stream="empty",type="sink"} 0.0
			""";

	@Test
	void readsThePercentilesOfTheStreamsSinkInMicroseconds() {
		Prometheus meters = Prometheus.parse(SCRAPE);

		Map<String, Figure> latency = LatencySummary.of(meters, "lat1");

		assertThat(latency.keySet()).containsExactly("p50", "p95", "p99", "p99.9", "max");
		assertThat(latency.get("p50").get()).isCloseTo(2.9, org.assertj.core.data.Offset.offset(1e-9));
		assertThat(latency.get("p99").get()).isCloseTo(1500.0, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(latency.get("p99.9").get()).isCloseTo(3600.0, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(latency.get("max").get()).isCloseTo(5200.0, org.assertj.core.data.Offset.offset(1e-6));
		assertThat(LatencySummary.measured(meters, "lat1")).isEqualTo(5000);
	}

	@Test
	void isNotAvailableWithoutALatencyMeter() {
		Map<String, Figure> latency = LatencySummary.of(Prometheus.parse(SCRAPE), "nolatency");

		assertThat(latency.values()).allSatisfy(figure -> assertThat(figure.reason())
			.startsWith("no xd_module_latency_seconds meter for the sink"));
		assertThat(LatencySummary.measured(Prometheus.parse(SCRAPE), "nolatency")).isZero();
	}

	@Test
	void isNotAvailableWhenNoMessageCarriedATimestamp() {
		Map<String, Figure> latency = LatencySummary.of(Prometheus.parse(SCRAPE), "empty");

		assertThat(latency.get("p99").reason()).isEqualTo("the sink measured no timestamped message");
	}
}
