package io.xd.benchmarks.runner;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AckLatencyTests {

	@Test
	void readsTheWholeRunAsColdAndTheSteadyStateAsWarmInMicroseconds() {
		AckLatency latency = AckLatency.parse("""
				10000 records sent, 997.207818 records/sec (0.10 MB/sec), 59.13 ms avg latency, 1757.00 ms max latency, \
				2 ms 50th, 343 ms 95th, 402 ms 99th, 447 ms 99.9th.
				9000 steady state records sent, 1081.470800 records/sec (0.10 MB/sec), 31.19 ms avg latency, \
				287.00 ms max latency, 1 ms 50th, 199 ms 95th, 248 ms 99th, 278 ms 99.9th.
				""");

		assertThat(latency.rate("cold").value()).isEqualTo(997.207818);
		assertThat(latency.percentiles("cold")).containsKeys(LatencySummary.PERCENTILES);
		assertThat(latency.percentiles("cold").get("p50").value()).isEqualTo(2000.0);
		assertThat(latency.percentiles("cold").get("p99").value()).isEqualTo(402_000.0);
		assertThat(latency.percentiles("cold").get("max").value()).isEqualTo(1_757_000.0);
		assertThat(latency.rate("warm").value()).isEqualTo(1081.4708);
		assertThat(latency.percentiles("warm").get("p99.9").value()).isEqualTo(278_000.0);
	}

	@Test
	void aMissingSummaryIsNotAvailableWithTheReason() {
		AckLatency latency = AckLatency.parse("org.apache.kafka.common.errors.TimeoutException: Topic not present\n");

		assertThat(latency.rate("warm").isPresent()).isFalse();
		assertThat(latency.percentiles("cold").get("p99").reason()).isEqualTo("no ProducerPerformance summary");
	}
}
