package io.xd.modules.analytics;

import java.util.Arrays;

/** The kinds of metric an {@link AnalyticsStore} keeps, each with the REST path segment Spring XD gave it. */
public enum MetricKind {

	/** A count that only grows: the {@code counter} sink. */
	COUNTER("counters", "counter"),

	/** A count per value of a message field: the {@code field-value-counter} sink. */
	FIELD_VALUE_COUNTER("field-value-counters", "field-value-counter"),

	/** Counts per minute, hour, day, month and year: the {@code aggregate-counter} sink. */
	AGGREGATE_COUNTER("aggregate-counters", "aggregate-counter"),

	/** The latest value: the {@code gauge} sink. */
	GAUGE("gauges", "gauge"),

	/** The latest value with its mean (or moving average), minimum, maximum and count: the {@code rich-gauge} sink. */
	RICH_GAUGE("rich-gauges", "rich-gauge");

	private final String path;

	private final String label;

	MetricKind(String path, String label) {
		this.path = path;
		this.label = label;
	}

	/** The REST path segment, as in {@code /metrics/field-value-counters}. */
	public String path() {
		return this.path;
	}

	/** The singular name users read, which is also the sink's name: {@code field-value-counter}. */
	public String label() {
		return this.label;
	}

	/**
	 * The kind of a REST path segment.
	 * @throws IllegalArgumentException naming the segments there are
	 */
	public static MetricKind ofPath(String path) {
		return Arrays.stream(values())
			.filter(kind -> kind.path.equals(path))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No metric kind '" + path + "': expected one of "
					+ Arrays.stream(values()).map(MetricKind::path).toList()));
	}
}
