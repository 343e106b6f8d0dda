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
	void aJvmRunsItsFirstStreamInItsModeThenTheOtherModeSettlingThenFourLaterOnesABBA() {
		assertThat(jvm(PeerTable.AT_LEAST_ONCE).stages()).containsExactly(
				new PeerSuite.Stage("first", PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage(PeerSuite.SETTLING, PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage("later", PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage("later", PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage("later", PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage("later", PeerTable.AT_LEAST_ONCE));
		assertThat(jvm(PeerTable.EXACTLY_ONCE).stages()).containsExactly(
				new PeerSuite.Stage("first", PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage(PeerSuite.SETTLING, PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage("later", PeerTable.EXACTLY_ONCE),
				new PeerSuite.Stage("later", PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage("later", PeerTable.AT_LEAST_ONCE),
				new PeerSuite.Stage("later", PeerTable.EXACTLY_ONCE));
	}

	@Test
	void everyLaterStreamComesAfterBothModesHaveRunInItsJvm() {
		for (String mode : List.of(PeerTable.AT_LEAST_ONCE, PeerTable.EXACTLY_ONCE)) {
			List<PeerSuite.Stage> stages = jvm(mode).stages();
			int firstLater = stages.indexOf(stages.stream().filter(s -> s.stream().equals("later")).findFirst()
				.orElseThrow());
			assertThat(stages.subList(0, firstLater).stream().map(PeerSuite.Stage::mode).distinct()).hasSize(2);
		}
	}

	@Test
	void twoJvmsOneAfterTheOtherMeasureEachModeOnceFirstAndFourTimesLaterPairedSideBySide() {
		List<PeerSuite.Stage> round = new ArrayList<>(jvm(PeerTable.EXACTLY_ONCE).stages());
		round.addAll(jvm(PeerTable.AT_LEAST_ONCE).stages());

		List<String> later = round.stream().filter(stage -> stage.stream().equals("later")).map(PeerSuite.Stage::mode)
			.toList();
		assertThat(later).containsExactly(PeerTable.EXACTLY_ONCE, PeerTable.AT_LEAST_ONCE, PeerTable.AT_LEAST_ONCE,
				PeerTable.EXACTLY_ONCE, PeerTable.AT_LEAST_ONCE, PeerTable.EXACTLY_ONCE, PeerTable.EXACTLY_ONCE,
				PeerTable.AT_LEAST_ONCE);
		assertThat(round.stream().filter(stage -> stage.stream().equals("first")).map(PeerSuite.Stage::mode))
			.containsExactly(PeerTable.EXACTLY_ONCE, PeerTable.AT_LEAST_ONCE);
		// the table pairs the n-th measurement of one mode with the n-th of the other: here, neighbours in one JVM
		List<Integer> exactlyOnce = new ArrayList<>();
		List<Integer> atLeastOnce = new ArrayList<>();
		for (int i = 0; i < later.size(); i++) {
			(later.get(i).equals(PeerTable.EXACTLY_ONCE) ? exactlyOnce : atLeastOnce).add(i);
		}
		for (int n = 0; n < exactlyOnce.size(); n++) {
			assertThat(Math.abs(exactlyOnce.get(n) - atLeastOnce.get(n))).isEqualTo(1);
			assertThat(exactlyOnce.get(n) / 4).isEqualTo(atLeastOnce.get(n) / 4);
		}
	}

}
