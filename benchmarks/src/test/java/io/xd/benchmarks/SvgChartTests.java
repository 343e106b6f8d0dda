package io.xd.benchmarks;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.xd.benchmarks.BenchSuite.Chart;
import io.xd.benchmarks.BenchSuite.Point;
import io.xd.benchmarks.BenchSuite.Series;
import io.xd.benchmarks.BenchSuite.Value;
import io.xd.benchmarks.SvgChart.Scale;

import static org.assertj.core.api.Assertions.assertThat;

class SvgChartTests {

	@Test
	void linearAxisStartsAtZeroWithRoundTicks() {
		Scale scale = Scale.linear(139870, 84065978, true);

		assertThat(scale.ticks()).containsExactly(0.0, 2e7, 4e7, 6e7, 8e7, 1e8);
		assertThat(scale.fraction(5e7)).isEqualTo(0.5);
	}

	@Test
	void logarithmicAxisSpansWholeDecades() {
		assertThat(Scale.log(1.2, 1240).ticks()).containsExactly(1.0, 10.0, 100.0, 1000.0, 10000.0);
		assertThat(Scale.log(20, 80).ticks()).containsExactly(10.0, 20.0, 50.0, 100.0);
		assertThat(Scale.log(1, 1e13).ticks()).containsExactly(1.0, 1e3, 1e6, 1e9, 1e12, 1e15);
	}

	@Test
	void ordersNumericCategoriesAndLeavesUnmeasuredBarsOut() {
		Chart chart = new Chart("t", Chart.Type.BAR, "", "", false, false, List.of(
				new Series("a", List.of(point(1000, 2.0), point(100, 1.0))),
				new Series("b", List.of(point(100, null), point(10, 3.0)))));

		String svg = SvgChart.render(chart, "c", new SvgChart.Palette());

		assertThat(svg.split("<rect", -1)).hasSize(4);
		assertThat(svg.indexOf(">10</text>")).isLessThan(svg.indexOf(">100</text>"));
		assertThat(svg.indexOf(">100</text>")).isLessThan(svg.indexOf(">1,000</text>"));
		assertThat(svg).contains("role=\"img\" aria-labelledby=\"c-title\"").contains("<title id=\"c-title\">t</title>");
	}

	private static Point point(long x, Double y) {
		return new Point(new Value(java.math.BigDecimal.valueOf(x), null), y);
	}
}
