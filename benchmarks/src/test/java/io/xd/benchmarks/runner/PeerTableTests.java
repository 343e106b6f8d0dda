package io.xd.benchmarks.runner;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PeerTableTests {

	private static final PeerTable.Case FIRST = new PeerTable.Case("bridge", 100, 1, "first");

	private static final PeerTable.Case LATER = new PeerTable.Case("bridge", 100, 1, "later");

	@Test
	void rowHoldsTheMediansOfTheRoundsAndTheirRatiosPerMode() {
		PeerTable table = new PeerTable();
		for (double rate : List.of(100.0, 300.0, 200.0)) {
			table.add(FIRST, PeerTable.XD, PeerTable.AT_LEAST_ONCE, Figure.of(rate));
		}
		for (double rate : List.of(400.0, 500.0)) {
			table.add(FIRST, PeerTable.STREAMS, PeerTable.AT_LEAST_ONCE, Figure.of(rate));
		}
		table.add(FIRST, PeerTable.XD, PeerTable.EXACTLY_ONCE, Figure.of(50));
		table.add(FIRST, PeerTable.STREAMS, PeerTable.EXACTLY_ONCE, Figure.of(300));

		Object[] row = table.rows().get(0);

		assertThat(row).hasSize(PeerTable.COLUMNS.size());
		assertThat(List.of(row).subList(0, 4)).containsExactly("bridge", 100, 1, "first");
		assertThat(row[4]).isEqualTo(Figure.of(200));
		assertThat(row[5]).isEqualTo(Figure.of(450));
		assertThat(((SuiteJson.Rounded) row[6]).figure().get()).isEqualTo(200 / 450.0);
		assertThat(((SuiteJson.Rounded) row[6]).decimals()).isEqualTo(2);
		assertThat(((SuiteJson.Rounded) row[9]).figure().get()).isEqualTo(50 / 300.0);
		assertThat(((SuiteJson.Rounded) row[10]).figure().get()).isEqualTo(4.0);
		assertThat(((SuiteJson.Rounded) row[11]).figure().get()).isEqualTo(1.5);
		assertThat(row[12]).isEqualTo("100, 300, 200; 400, 500 | 50; 300");
		assertThat(table.ratio(FIRST, PeerTable.AT_LEAST_ONCE).get()).isEqualTo(200 / 450.0);
	}

	@Test
	void modeCostPairsEachCasesRoundsAndPoolsTheirRatiosWithAnIntervalForTheirMedian() {
		PeerTable table = new PeerTable();
		// exactly-once / at-least-once per round: FIRST 0.9, 1.1, 0.8, n/a; LATER 0.95, 1.0, 0.85, 1.2
		double[][] first = { { 100, 90 }, { 100, 110 }, { 100, 80 }, { Double.NaN, 100 } };
		double[][] later = { { 200, 190 }, { 200, 200 }, { 200, 170 }, { 200, 240 } };
		for (double[] round : first) {
			table.add(FIRST, PeerTable.XD, PeerTable.AT_LEAST_ONCE,
					Double.isNaN(round[0]) ? Figure.na("too few samples") : Figure.of(round[0]));
			table.add(FIRST, PeerTable.XD, PeerTable.EXACTLY_ONCE, Figure.of(round[1]));
		}
		for (double[] round : later) {
			table.add(LATER, PeerTable.XD, PeerTable.AT_LEAST_ONCE, Figure.of(round[0]));
			table.add(LATER, PeerTable.XD, PeerTable.EXACTLY_ONCE, Figure.of(round[1]));
		}
		table.add(LATER, PeerTable.STREAMS, PeerTable.AT_LEAST_ONCE, Figure.of(100));
		table.add(LATER, PeerTable.STREAMS, PeerTable.EXACTLY_ONCE, Figure.of(50));

		PeerTable.ModeCost all = table.modeCost(PeerTable.XD, key -> true);

		// sorted: 0.8, 0.85, 0.9, 0.95, 1.0, 1.1, 1.2; B(7, 1/2) puts 0.8% below the lowest, 6.3% up to the second
		assertThat(all.pairs()).isEqualTo(7);
		assertThat(all.median().get()).isEqualTo(0.95);
		assertThat(all.low().get()).isEqualTo(0.8);
		assertThat(all.high().get()).isEqualTo(1.2);
		assertThat(all.atLeastOnceAhead()).isEqualTo(5);
		assertThat(all.describe()).isEqualTo("0.950 (95% interval 0.800-1.200) over 7 pairs, at-least-once at least "
				+ "as fast in 5");
		PeerTable.ModeCost laterOnly = table.modeCost(PeerTable.XD, LATER::equals);
		assertThat(laterOnly.pairs()).isEqualTo(4);
		assertThat(laterOnly.median().get()).isEqualTo(0.975);
		assertThat(laterOnly.low().isPresent()).isFalse();
		assertThat(laterOnly.describe()).isEqualTo("0.975 (no interval under 6 pairs) over 4 pairs, at-least-once at "
				+ "least as fast in 3");
		assertThat(table.modeCost(PeerTable.STREAMS, key -> true).median().get()).isEqualTo(0.5);
		assertThat(table.modeCost(PeerTable.XD, key -> false).median().isPresent()).isFalse();
	}

	@Test
	void aRoundWithoutARateIsLeftOutOfTheMedianAndAMissingSideMakesTheRatioNa() {
		PeerTable table = new PeerTable();
		table.add(FIRST, PeerTable.XD, PeerTable.AT_LEAST_ONCE, Figure.na("the counter did not reach 100"));
		table.add(FIRST, PeerTable.XD, PeerTable.AT_LEAST_ONCE, Figure.of(120));
		table.add(LATER, PeerTable.STREAMS, PeerTable.AT_LEAST_ONCE, Figure.na("too few samples"));

		assertThat(table.median(FIRST, PeerTable.XD, PeerTable.AT_LEAST_ONCE)).isEqualTo(Figure.of(120));
		assertThat(table.ratio(FIRST, PeerTable.AT_LEAST_ONCE).isPresent()).isFalse();
		assertThat(table.median(LATER, PeerTable.STREAMS, PeerTable.AT_LEAST_ONCE).isPresent()).isFalse();
		assertThat(table.cases()).containsExactly(FIRST, LATER);
		assertThat(table.rows().get(0)[12]).isEqualTo("n/a, 120;  | ; ");
	}
}
