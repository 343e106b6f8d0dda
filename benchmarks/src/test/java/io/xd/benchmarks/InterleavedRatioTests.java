package io.xd.benchmarks;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InterleavedRatioTests {

	@Test
	void theRatioIsOfRatesOverAllSlicesAndTheRowShowsIt() {
		// 4 rounds of 20 000 messages a chain: the deployed chain took 2 s in all, the plain one 1.6 s
		InterleavedRatio.Result result = new InterleavedRatio.Result(4, 80_000, 2_000_000_000L, 1_600_000_000L, 0.75,
				0.8, 0.85, 1016, 1016);

		assertThat(result.deployedRate()).isEqualTo(40_000.0);
		assertThat(result.plainRate()).isEqualTo(50_000.0);
		assertThat(result.ratio()).isEqualTo(0.8);
		assertThat(result.row(1000))
			.isEqualTo("| 1,000 | 4 | 40k msg/s | 50k msg/s | **0.800** | 0.800 (0.750-0.850) | 1016 / 1016 |");
		assertThat(InterleavedRatio.HEADER.lines().findFirst().orElseThrow().split("\\|", -1))
			.hasSize(result.row(1000).split("\\|", -1).length);
	}
}
