package io.xd.benchmarks.runner;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamRunTests {

	@Test
	void readsThePacedSourcesDuration() {
		assertThat(StreamRun.sourceDuration(Suites.timedLoad(1000, 3) + " | throughput --latency=true"))
			.contains(Duration.ofSeconds(3));
		assertThat(StreamRun.sourceDuration(Suites.timedLoad(200, 20) + " > queue:q1")).contains(Duration.ofSeconds(20));
	}

	@Test
	void findsNoDurationForACountedSourceOrOneGivenAfterIt() {
		assertThat(StreamRun.sourceDuration("load-generator --messageCount=1000 --messageSize=100 | throughput"))
			.isEmpty();
		assertThat(StreamRun.sourceDuration("queue:q > throughput --duration=5s")).isEmpty();
		assertThat(StreamRun.sourceDuration("load-generator --messageCount=10 | filter --duration=5s")).isEmpty();
		assertThat(StreamRun.sourceDuration("load-generator --duration=1500ms | throughput")).isEmpty();
	}
}
