package io.xd.benchmarks.runner;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class FigureTests {

	@Test
	void printsAMissingFigureAsNotAvailableWithItsReasonNeverAsZero() {
		Figure missing = Figure.na("no summary");

		assertThat(missing.format("%.0f")).isEqualTo("n/a (no summary)");
		assertThat(missing.rounded(1)).isNull();
		assertThatIllegalStateException().isThrownBy(missing::get);
	}

	@Test
	void keepsTheReasonThroughArithmetic() {
		Figure missing = Figure.na("no offsets");

		assertThat(missing.times(2)).isEqualTo(missing);
		assertThat(Figure.of(3).dividedBy(missing)).isEqualTo(missing);
		assertThat(Figure.of(3).dividedBy(Figure.of(0)).reason()).isEqualTo("division by zero");
		assertThat(Figure.of(3).dividedBy(Figure.of(2)).get()).isEqualTo(1.5);
	}

	@Test
	void maxPrefersAPresentFigure() {
		assertThat(Figure.na("x").max(Figure.of(1)).get()).isEqualTo(1);
		assertThat(Figure.of(2).max(Figure.na("x")).get()).isEqualTo(2);
		assertThat(Figure.of(2).max(Figure.of(5)).get()).isEqualTo(5);
	}

	@Test
	void roundsForJson() {
		assertThat(Figure.of(1234.567).rounded(1)).isEqualTo(new BigDecimal("1234.6"));
		assertThat(Figure.of(0.125).rounded(2)).isEqualTo(new BigDecimal("0.13"));
	}

	@Test
	void rejectsNaN() {
		assertThatIllegalArgumentException().isThrownBy(() -> Figure.of(Double.NaN));
	}
}
