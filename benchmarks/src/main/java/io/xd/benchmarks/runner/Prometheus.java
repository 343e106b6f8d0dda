package io.xd.benchmarks.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition (version 0.0.4, what Actuator's {@code /actuator/prometheus}
 * serves): {@code name{label="value",...} value [timestamp]} per line; comments and blank lines are skipped, and
 * so are lines that do not parse.
 */
final class Prometheus {

	private final List<Metric> metrics;

	private Prometheus(List<Metric> metrics) {
		this.metrics = metrics;
	}

	/**
	 * One sample line.
	 *
	 * @param name the metric name, e.g. {@code xd_module_messages_in_total}
	 * @param labels the labels in the order written
	 * @param value the value
	 */
	record Metric(String name, Map<String, String> labels, double value) {
	}

	static Prometheus parse(String text) {
		List<Metric> metrics = new ArrayList<>();
		for (String line : text.split("\n")) {
			String trimmed = line.strip();
			if (trimmed.isEmpty() || trimmed.startsWith("#")) {
				continue;
			}
			Metric metric = parseLine(trimmed);
			if (metric != null) {
				metrics.add(metric);
			}
		}
		return new Prometheus(List.copyOf(metrics));
	}

	List<Metric> metrics() {
		return this.metrics;
	}

	/**
	 * The sum of the samples named {@code name} whose labels include every entry of {@code labels}, or
	 * {@code null} when there is none (a meter not registered yet, or already removed).
	 */
	Double sum(String name, Map<String, String> labels) {
		Double sum = null;
		for (Metric metric : this.metrics) {
			if (metric.name().equals(name) && metric.labels().entrySet().containsAll(labels.entrySet())) {
				sum = (sum == null ? 0 : sum) + metric.value();
			}
		}
		return sum;
	}

	private static Metric parseLine(String line) {
		int brace = line.indexOf('{');
		int space = line.indexOf(' ');
		Map<String, String> labels = new LinkedHashMap<>();
		String name;
		int rest;
		if (brace >= 0 && (space < 0 || brace < space)) {
			name = line.substring(0, brace);
			rest = parseLabels(line, brace + 1, labels);
			if (rest < 0) {
				return null;
			}
		}
		else if (space > 0) {
			name = line.substring(0, space);
			rest = space;
		}
		else {
			return null;
		}
		String[] fields = line.substring(rest).strip().split("\\s+");
		if (name.isEmpty() || fields.length == 0 || fields[0].isEmpty()) {
			return null;
		}
		try {
			return new Metric(name, Collections.unmodifiableMap(labels), parseValue(fields[0]));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/** Reads {@code a="x",b="y"}} from {@code from}; returns the index after the closing brace, or -1. */
	private static int parseLabels(String line, int from, Map<String, String> labels) {
		int i = from;
		while (i < line.length()) {
			char c = line.charAt(i);
			if (c == '}') {
				return i + 1;
			}
			if (c == ',' || c == ' ') {
				i++;
				continue;
			}
			int equals = line.indexOf('=', i);
			if (equals < 0 || equals + 1 >= line.length() || line.charAt(equals + 1) != '"') {
				return -1;
			}
			String key = line.substring(i, equals).strip();
			StringBuilder value = new StringBuilder();
			int j = equals + 2;
			for (; j < line.length() && line.charAt(j) != '"'; j++) {
				char v = line.charAt(j);
				if (v == '\\' && j + 1 < line.length()) {
					char escaped = line.charAt(++j);
					value.append(escaped == 'n' ? '\n' : escaped);
				}
				else {
					value.append(v);
				}
			}
			if (j >= line.length()) {
				return -1;
			}
			labels.put(key, value.toString());
			i = j + 1;
		}
		return -1;
	}

	private static double parseValue(String text) {
		return switch (text) {
			case "+Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			case "NaN" -> Double.NaN;
			default -> Double.parseDouble(text);
		};
	}
}
