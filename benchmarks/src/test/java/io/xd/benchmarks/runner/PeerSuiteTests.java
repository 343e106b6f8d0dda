package io.xd.benchmarks.runner;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PeerSuiteTests {

	private static PeerSuite.Hop jvm(String mode) {
		return new PeerSuite.Hop(PeerTable.XD, "bridge", mode, 100, 1, 1_000, "round 1/1");
	}

	@Test
	void aJvmRunsItsFirstStreamInItsModeThenALaterStreamInEachModeItsOwnFirst() {
		assertThat(jvm(PeerTable.AT_LEAST_ONCE).stages()).containsExactly(
				new PeerSuite.Stage("first", PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage("later", PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage("later", PeerTable.EXACTLY_ONCE));
		assertThat(jvm(PeerTable.EXACTLY_ONCE).stages()).containsExactly(
				new PeerSuite.Stage("first", PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage("later", PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage("later", PeerTable.AT_LEAST_ONCE));
	}

	@Test
	void twoJvmsOneAfterTheOtherMeasureEachModeOnceFirstAndTwiceLaterInTheOrderABBA() {
		List<PeerSuite.Stage> round = new ArrayList<>(jvm(PeerTable.EXACTLY_ONCE).stages());
		round.addAll(jvm(PeerTable.AT_LEAST_ONCE).stages());

		List<String> later = round.stream().filter(stage -> stage.stream().equals("later")).map(PeerSuite.Stage::mode)
			.toList();
		assertThat(later).containsExactly(PeerTable.EXACTLY_ONCE, PeerTable.AT_LEAST_ONCE, PeerTable.AT_LEAST_ONCE,
				PeerTable.EXACTLY_ONCE);
		assertThat(round.stream().filter(stage -> stage.stream().equals("first")).map(PeerSuite.Stage::mode))
			.containsExactly(PeerTable.EXACTLY_ONCE, PeerTable.AT_LEAST_ONCE);
		assertThat(round.stream().filter(PeerSuite.Stage::exactlyOnce)).hasSize(3);
	}

}
