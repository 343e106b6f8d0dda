package io.xd.benchmarks;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReportFormatTests {

	@Test
	void compactsToThreeSignificantDigitsWithSiPrefix() {
		assertThat(ReportFormat.compact(84065978)).isEqualTo("84.1M");
		assertThat(ReportFormat.compact(13064)).isEqualTo("13.1k");
		assertThat(ReportFormat.compact(950)).isEqualTo("950");
		assertThat(ReportFormat.compact(20_000_000)).isEqualTo("20M");
		assertThat(ReportFormat.compact(2.5e9)).isEqualTo("2.5G");
		assertThat(ReportFormat.compact(999_999)).isEqualTo("1M");
		assertThat(ReportFormat.compact(0)).isEqualTo("0");
		assertThat(ReportFormat.compact(0.1 + 0.2)).isEqualTo("0.3");
		assertThat(ReportFormat.compact(-1500)).isEqualTo("-1.5k");
	}

	@Test
	void groupsThousandsAndKeepsUpToThreeDecimals() {
		assertThat(ReportFormat.grouped(new BigDecimal("84065978"))).isEqualTo("84,065,978");
		assertThat(ReportFormat.grouped(new BigDecimal("139870.5"))).isEqualTo("139,870.5");
		assertThat(ReportFormat.grouped(new BigDecimal("12.34567"))).isEqualTo("12.346");
		assertThat(ReportFormat.grouped(new BigDecimal("0.0012345"))).isEqualTo("0.00123");
		assertThat(ReportFormat.grouped(new BigDecimal("1E+3"))).isEqualTo("1,000");
		assertThat(ReportFormat.grouped(-1234567.0)).isEqualTo("-1,234,567");
	}

	@Test
	void escapesMarkupAndDropsCharactersXmlForbids() {
		assertThat(ReportFormat.escape("<a href='x'>\"&\"</a>"))
			.isEqualTo("&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
		assertThat(ReportFormat.escape("bell\u0007 tab\t \ud83d\ude80 lone\ud83d")).isEqualTo("bell tab\t \ud83d\ude80 lone");
	}
}
