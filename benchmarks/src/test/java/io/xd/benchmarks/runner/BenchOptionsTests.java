package io.xd.benchmarks.runner;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BenchOptionsTests {

	@Test
	void runsEverySuiteInOrderByDefault() {
		BenchOptions.XdBench options = BenchOptions.xdBench("--quick");

		assertThat(options.quick()).isTrue();
		assertThat(options.suites()).containsExactly("direct", "kafka", "latency", "saturation", "partitions",
				"tuning", "footprint", "exactly-once", "contention");
	}

	@Test
	void runsTheNamedSuitesInTheOrderGiven() {
		assertThat(BenchOptions.xdBench("saturation", "latency").suites()).containsExactly("saturation", "latency");
	}

	@Test
	void runsANamedOnlySuiteWhenNamedButNotByDefault() {
		assertThat(BenchOptions.xdBench("--quick", "peer").suites()).containsExactly("peer");
		assertThat(BenchOptions.xdBench().suites()).doesNotContain("peer");
	}

	@Test
	void takesThePeerSuitesRoundsOrLeavesThemToTheSuite() {
		assertThat(BenchOptions.xdBench("--rounds", "5", "peer").rounds()).isEqualTo(5);
		assertThat(BenchOptions.xdBench("peer").rounds()).isNull();
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("--rounds", "0", "peer"))
			.withMessageContaining("--rounds");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("peer", "--rounds"))
			.withMessage("--rounds needs a value (see --help)");
	}

	@Test
	void runsTheChaosSuiteOnlyWhenNamedWithItsSeedAndDuration() {
		BenchOptions.XdBench options = BenchOptions.xdBench("--quick", "--seed", "42", "--duration", "90s", "chaos");

		assertThat(options.suites()).containsExactly("chaos");
		assertThat(options.seed()).isEqualTo(42L);
		assertThat(options.duration()).isEqualTo(Duration.ofSeconds(90));
		assertThat(BenchOptions.xdBench("chaos").seed()).isNull();
		assertThat(BenchOptions.xdBench("--duration", "10m", "chaos").duration()).isEqualTo(Duration.ofMinutes(10));
		assertThat(BenchOptions.xdBench("chaos").brokers()).isEqualTo(1);
		assertThat(BenchOptions.xdBench("--brokers", "3", "chaos").brokers()).isEqualTo(3);
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("--brokers", "2", "chaos"))
			.withMessageContaining("--brokers takes 1 or 3");
		assertThat(BenchOptions.xdBench().suites()).doesNotContain("chaos");
	}

	@Test
	void rejectsABadSeedOrDuration() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("--seed", "x", "chaos"))
			.withMessage("--seed takes a whole number, not 'x'");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("--duration", "10", "chaos"))
			.withMessage("--duration takes a positive number with s, m or h (90s, 10m, 1h), not '10'");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("chaos", "--seed"))
			.withMessage("--seed needs a value (see --help)");
	}

	@Test
	void rejectsAnUnknownSuite() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.xdBench("speed"))
			.withMessage("Unknown argument: speed (see --help)");
	}

	@Test
	void replacesTheRecordCountsOfTheSizesNamed() {
		BenchOptions.KafkaBench options = BenchOptions.kafkaBench("--sizes", "100,1000", "--records", "100=5000",
				"--rounds", "3");

		assertThat(options.sizes()).containsExactly(100, 1000);
		assertThat(options.records()).containsEntry(100, 5000L).containsEntry(1000, 2_000_000L);
		assertThat(options.rounds()).isEqualTo(3);
	}

	@Test
	void needsARecordCountForEverySize() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.kafkaBench("--sizes", "512"))
			.withMessage("No record count for size 512: give one with --records 512=COUNT");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.kafkaBench("--records", "100:5"))
			.withMessage("--records takes SIZE=COUNT pairs separated by commas, not '100:5'");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchOptions.kafkaBench("--rounds"))
			.withMessage("--rounds needs a value (see --help)");
	}
}
