package io.xd.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class BenchReportTests {

	@TempDir
	Path out;

	private Path samples;

	@BeforeEach
	void findSamples() throws URISyntaxException {
		this.samples = Path.of(getClass().getResource("/bench/direct.json").toURI()).getParent();
	}

	@Test
	void showsEverySuiteWithTitleNotesAndRunHeader() throws IOException {
		String html = render(this.samples);

		assertThat(html).contains("<h2>Direct binding through singlenode</h2>")
			.contains("<h2>Kafka bus: throughput and latency</h2>")
			.contains("<li>one broker (KRaft), replication factor 1</li>")
			.contains("Runs 2026-11-23 10:00 UTC to 2026-11-23 10:20 UTC")
			.contains("2 CPUs \u00b7 Java 17.0.15 \u00b7 Linux 6.1")
			.contains("<a href=\"#suite-kafka\">")
			.doesNotContain("<script")
			.doesNotContain("http://www.w3.org/1999/xhtml")
			.doesNotContain("<link");
	}

	@Test
	void formatsTableCellsWithThousandsSeparatorsAndNullAsDash() throws IOException {
		String html = render(this.samples);

		assertThat(html).contains("<th class=\"num\">size</th><th class=\"num\">XD msg/s</th>")
			.contains("<tr><td class=\"num\">100</td><td class=\"num\">84,065,978</td><td class=\"num\">12,900,000</td></tr>")
			.contains("<td class=\"num\">100,000</td><td class=\"num\">139,870.5</td><td class=\"num empty\">\u2014</td>");
	}

	@Test
	void drawsEachChartInlineAndAsFileWithOneRectPerBar() throws IOException {
		String html = render(this.samples);

		assertThat(count(html, "<svg ")).isEqualTo(3);
		assertThat(this.out).isDirectoryContaining("glob:**/direct-1.svg")
			.isDirectoryContaining("glob:**/kafka-1.svg")
			.isDirectoryContaining("glob:**/kafka-2.svg");
		String direct = Files.readString(this.out.resolve("direct-1.svg"));
		// four sizes for XD, two for Spring XD 2015 (null where it was not measured)
		assertThat(count(direct, "<rect")).isEqualTo(6);
		assertThat(count(direct, "<rect class=\"bar\"")).isEqualTo(6);
		assertThat(count(Files.readString(this.out.resolve("kafka-1.svg")), "<rect")).isEqualTo(6);
		assertThat(direct).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"")
			.contains(">XD</text>", ">Spring XD 2015</text>")
			.contains("<title>XD \u2014 message size (bytes) 100: 84,065,978 msg/s</title>")
			.contains(">84.1M</text>", ">13.1M</text>", ">140k</text>")
			.contains(">message size (bytes)</text>", ">msg/s</text>");
		assertThat(html).contains(direct.substring(direct.indexOf("<svg")).trim());
	}

	@Test
	void keepsOneColourPerSeriesNameAcrossCharts() throws IOException {
		render(this.samples);

		String direct = Files.readString(this.out.resolve("direct-1.svg"));
		String kafka = Files.readString(this.out.resolve("kafka-1.svg"));
		assertThat(barFill(direct, "XD")).isEqualTo(barFill(kafka, "XD"));
		assertThat(barFill(direct, "Spring XD 2015")).isNotEqualTo(barFill(kafka, "kafka-producer-perf-test"));
	}

	@Test
	void drawsLineChartOnLogarithmicScale() throws IOException {
		render(this.samples);

		String svg = Files.readString(this.out.resolve("kafka-2.svg"));
		assertThat(svg).doesNotContain("<rect")
			.contains(">p50</text>", ">p99</text>", ">p99.9</text>")
			.contains("<title>p99 \u2014 rate (msg/s) 100,000: 42 latency (ms)</title>")
			// decades of the log axis from 1 ms to 10 s
			.contains(">1</text>", ">10</text>", ">100</text>", ">1k</text>", ">10k</text>");
		// 4 + 4 + 3 measured points, the null one left out
		assertThat(count(svg, "</title></circle>")).isEqualTo(11);
		// the p99.9 line is broken at its missing point: two moves in one path
		assertThat(svg).containsPattern("<path d=\"M[^\"]*M[^\"]*\" fill=\"none\"");
	}

	@Test
	void skipsFileWithoutSuite() throws IOException {
		BenchReport report = BenchReport.read(this.samples);
		String html = render(this.samples);

		assertThat(report.suites()).extracting(BenchSuite::suite).containsExactly("direct", "kafka");
		assertThat(report.warnings()).containsExactly("orphan.json: skipped, no \"suite\" field");
		assertThat(html).doesNotContain("A JSON file that is not a suite result")
			.contains("<li>orphan.json: skipped, no &quot;suite&quot; field</li>");
	}

	@Test
	void escapesTextFromTheResults(@TempDir Path in) throws IOException {
		Files.writeString(in.resolve("evil.json"), """
				{"suite": "x\\"><script>alert(1)</script>", "title": "<script>alert('t')</script> & co",
				 "notes": ["<img src=x onerror=alert(1)>"], "machine": {"os": "<b>os</b>"},
				 "table": {"columns": ["<i>n</i>"], "rows": [["</td><script>"]]},
				 "charts": [{"title": "<script>c</script>", "xLabel": "a<b", "yLabel": "\\"y\\"",
				   "series": [{"name": "<script>s</script>", "points": [{"x": "<x>", "y": 1}]}]}]}
				""");

		String html = render(in);

		assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("<img").doesNotContain("<b>")
			.doesNotContain("<i>");
		assertThat(html).contains("<h2>&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; &amp; co</h2>")
			.contains("<td>&lt;/td&gt;&lt;script&gt;</td>")
			.contains(">&lt;script&gt;s&lt;/script&gt;</text>");
		// the suite name becomes a safe file name and id
		assertThat(this.out).isDirectoryContaining("glob:**/x-script-alert-1-script-1.svg");
		String svg = Files.readString(this.out.resolve("x-script-alert-1-script-1.svg"));
		assertThat(svg.toLowerCase()).doesNotContain("<script");
		assertThat(count(svg, "<rect")).isEqualTo(1);
	}

	@Test
	void toleratesMissingOptionalFieldsAndBadFiles(@TempDir Path in) throws IOException {
		Files.writeString(in.resolve("bare.json"), "{\"suite\": \"bare\"}");
		Files.writeString(in.resolve("broken.json"), "{\"suite\": ");
		Files.writeString(in.resolve("jmh.json"), "[{\"benchmark\": \"a.B.c\"}]");
		Files.writeString(in.resolve("odd.json"), """
				{"suite": "odd", "charts": [{"type": "pie"}, {"type": "line", "series": [{"name": "s",
				 "points": [{"x": "big", "y": 1}, {"x": 5, "y": 2}]}]}, {"series": []}]}
				""");

		BenchReport report = BenchReport.read(in);
		String html = render(in);

		assertThat(report.suites()).extracting(BenchSuite::suite).containsExactly("bare", "odd");
		assertThat(report.warnings()).hasSize(4)
			.anySatisfy(warning -> assertThat(warning).startsWith("broken.json: skipped, not readable as JSON"))
			.contains("jmh.json: skipped, no \"suite\" field")
			.contains("odd.json chart 1: skipped, unknown type \"pie\" (bar or line)")
			.contains("odd.json chart 2: a point of \"s\" without a numeric x is left out");
		assertThat(html).contains("<h2>bare</h2>");
		assertThat(count(html, "<svg ")).isEqualTo(2);
		assertThat(Files.readString(this.out.resolve("odd-2.svg"))).contains(">no data</text>");
	}

	@Test
	void commandLineWritesTheReportWhereAsked() throws IOException {
		Path report = this.out.resolve("site/bench.html");
		PrintStream stdout = System.out;
		ByteArrayOutputStream captured = new ByteArrayOutputStream();
		PrintStream stderr = System.err;
		System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
		System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
		try {
			BenchReport.main(new String[] { this.samples.toString(), "--out", report.toString() });
		}
		finally {
			System.setOut(stdout);
			System.setErr(stderr);
		}

		assertThat(report).exists();
		assertThat(this.out.resolve("site/kafka-2.svg")).exists();
		assertThat(captured.toString(StandardCharsets.UTF_8)).contains("(2 suites) and 3 SVG files");
	}

	private String render(Path in) throws IOException {
		Path html = this.out.resolve("report.html");
		BenchReport.read(in).write(html);
		return Files.readString(html);
	}

	private static int count(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
			count++;
		}
		return count;
	}

	private static String barFill(String svg, String series) {
		Matcher matcher = Pattern.compile("fill=\"(#[0-9a-f]{6})\"><title>" + Pattern.quote(series) + " \u2014")
			.matcher(svg);
		assertThat(matcher.find()).as("a bar of %s", series).isTrue();
		return matcher.group(1);
	}
}
