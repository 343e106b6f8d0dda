package io.xd.benchmarks.runner;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The end-to-end latency percentiles of one stream, in microseconds, from the {@code throughput} sink's summary
 * ({@code Summary: Latency: p50=2.9us p95=32.0us p99=1500.0us p99.9=3600.0us max=5200.0us over N messages}).
 * <p>
 * The sink keeps its HdrHistogram to itself and publishes no meter for it, so this is the one figure the runner
 * still reads from the singlenode's log. It reads only the part of the log written while the stream ran and
 * matches the message text, never the logger column, which Spring Boot abbreviates.
 */
final class LatencySummary {

	/** The percentiles in report order. */
	static final String[] PERCENTILES = { "p50", "p95", "p99", "p99.9", "max" };

	private static final Pattern SUMMARY = Pattern.compile("Summary: Latency: (.*)$", Pattern.MULTILINE);

	private LatencySummary() {
	}

	/**
	 * The percentiles of the last summary in {@code log}; each n/a, with the reason, when there is no summary or
	 * the summary lacks it.
	 */
	static Map<String, Figure> parse(String log) {
		Matcher matcher = SUMMARY.matcher(log);
		String summary = null;
		while (matcher.find()) {
			summary = matcher.group(1);
		}
		Map<String, Figure> figures = new LinkedHashMap<>();
		for (String percentile : PERCENTILES) {
			if (summary == null) {
				figures.put(percentile, Figure.na("no latency summary from the throughput sink"));
				continue;
			}
			Matcher value = Pattern.compile("(?:^|\\s)" + Pattern.quote(percentile) + "=([0-9.]+)us").matcher(summary);
			figures.put(percentile, value.find() ? Figure.of(Double.parseDouble(value.group(1)))
					: Figure.na("the sink's summary has no " + percentile + " (" + summary.strip() + ")"));
		}
		return figures;
	}
}
