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
