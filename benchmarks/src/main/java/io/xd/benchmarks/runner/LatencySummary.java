package io.xd.benchmarks.runner;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The end-to-end latency percentiles of one stream, in microseconds, from the sink's {@code xd.module.latency}
 * meter ({@code xd_module_latency_seconds{quantile="0.99",...}} on {@code /actuator/prometheus}), which the
 * container publishes for a {@code throughput --latency=true} sink over every message it has received.
 */
final class LatencySummary {

	/** The gauge of each percentile, in seconds, tagged by {@code quantile}. */
	static final String LATENCY = "xd_module_latency_seconds";

	/** How many messages the percentiles cover. */
	static final String MEASURED = "xd_module_latency_messages";

	/** The percentiles in report order, with their quantile tags. */
	private static final Map<String, String> QUANTILES = quantiles();

	/** The percentiles in report order. */
	static final String[] PERCENTILES = QUANTILES.keySet().toArray(String[]::new);

	private LatencySummary() {
	}

	private static Map<String, String> quantiles() {
		Map<String, String> quantiles = new LinkedHashMap<>();
		quantiles.put("p50", "0.5");
		quantiles.put("p95", "0.95");
		quantiles.put("p99", "0.99");
		quantiles.put("p99.9", "0.999");
		quantiles.put("max", "1.0");
		return quantiles;
	}

	/** How many messages the sink of {@code stream} has measured the latency of; 0 when it has no latency meter. */
	static long measured(Prometheus meters, String stream) {
		Double count = meters.sum(MEASURED, sink(stream));
		return (count == null) ? 0 : Math.round(count);
	}

	/**
	 * The percentiles of the sink of {@code stream}; each n/a, with the reason, when the sink publishes no latency
	 * meter or measured no message.
	 */
	static Map<String, Figure> of(Prometheus meters, String stream) {
		Map<String, Figure> figures = new LinkedHashMap<>();
		Double count = meters.sum(MEASURED, sink(stream));
		QUANTILES.forEach((percentile, quantile) -> {
			Map<String, String> labels = new LinkedHashMap<>(sink(stream));
			labels.put("quantile", quantile);
			Double seconds = meters.sum(LATENCY, labels);
			if (count == null || seconds == null) {
				figures.put(percentile, Figure.na("no " + LATENCY + " meter for the sink (is it throughput "
						+ "--latency=true?)"));
			}
			else if (count == 0) {
				figures.put(percentile, Figure.na("the sink measured no timestamped message"));
			}
			else {
				figures.put(percentile, Figure.of(seconds * 1e6));
			}
		});
		return figures;
	}

	private static Map<String, String> sink(String stream) {
		return Map.of("stream", stream, "type", "sink");
	}
}
