package io.xd.benchmarks;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;

/**
 * One suite's results as {@code bin/xd-bench} writes them, one JSON file per suite, and what {@link BenchReport}
 * renders. Only {@code suite} is required; a missing optional part is empty, and a part of the wrong shape is left
 * out with a warning rather than failing the whole report.
 *
 * @param suite the suite's short name, also the stem of its chart files
 * @param title the heading shown for the suite, {@code suite} when absent
 * @param date when the suite ran, as written (ISO-8601 expected), or {@code null}
 * @param machine what it ran on, in the order written ({@code cpus}, {@code java}, {@code os}, anything else)
 * @param notes free text lines shown under the title
 * @param table the results table, or {@code null}
 * @param charts the charts, in the order written
 */
record BenchSuite(String suite, String title, String date, Map<String, String> machine, List<String> notes,
		Table table, List<Chart> charts) {

	/**
	 * Reads a suite from the root of one JSON file.
	 * @param file the file's name, for warnings
	 * @param root the parsed file
	 * @param warnings where problems are reported, each a sentence naming the file
	 * @return the suite, or empty when the file has no {@code suite} (reported in {@code warnings})
	 */
	static Optional<BenchSuite> parse(String file, JsonNode root, List<String> warnings) {
		String suite = root == null || !root.isObject() ? null : scalar(root.get("suite"));
		if (suite == null || suite.isBlank()) {
			warnings.add(file + ": skipped, no \"suite\" field");
			return Optional.empty();
		}
		String title = scalar(root.get("title"));
		Map<String, String> machine = new LinkedHashMap<>();
		JsonNode machineNode = root.path("machine");
		if (machineNode.isObject()) {
			machineNode.properties().forEach(entry -> {
				String value = scalar(entry.getValue());
				if (value != null) {
					machine.put(entry.getKey(), value);
				}
			});
		}
		List<String> notes = new ArrayList<>();
		JsonNode notesNode = root.path("notes");
		if (notesNode.isArray()) {
			notesNode.forEach(note -> Optional.ofNullable(scalar(note)).ifPresent(notes::add));
		}
		else if (scalar(notesNode) != null) {
			notes.add(scalar(notesNode));
		}
		Table table = root.path("table").isObject() ? Table.parse(root.get("table")) : null;
		List<Chart> charts = new ArrayList<>();
		JsonNode chartsNode = root.path("charts");
		for (int i = 0; i < chartsNode.size(); i++) {
			Chart.parse(chartsNode.get(i), file + " chart " + (i + 1), warnings).ifPresent(charts::add);
		}
		return Optional.of(new BenchSuite(suite, title == null || title.isBlank() ? suite : title,
				scalar(root.get("date")), Collections.unmodifiableMap(machine), List.copyOf(notes), table,
				List.copyOf(charts)));
	}

	/** The text of a string, number or boolean; {@code null} for anything else, JSON null included. */
	static String scalar(JsonNode node) {
		return node == null || node.isNull() || !node.isValueNode() ? null : node.asString();
	}

	/**
	 * A table cell or an x value: a number, a text, or nothing (JSON null).
	 *
	 * @param number the value when it is a number, else {@code null}
	 * @param text the value when it is a string or boolean, else {@code null}
	 */
	record Value(BigDecimal number, String text) {

		static final Value NULL = new Value(null, null);

		static Value of(JsonNode node) {
			if (node == null || node.isNull() || node.isMissingNode()) {
				return NULL;
			}
			if (node.isNumber()) {
				return new Value(node.decimalValue(), null);
			}
			// an object or array where a value belongs is shown as its JSON text
			return new Value(null, node.isValueNode() ? node.asString() : node.toString());
		}

		boolean isNull() {
			return this.number == null && this.text == null;
		}

		boolean isNumber() {
			return this.number != null;
		}

		/** Equal for 100 and 100.0, so that they make one category. */
		Object key() {
			return this.number != null ? this.number.stripTrailingZeros() : this.text;
		}

		/** Numbers with thousands separators, null as an em dash. */
		String display() {
			if (this.number != null) {
				return ReportFormat.grouped(this.number);
			}
			return this.text != null ? this.text : ReportFormat.EM_DASH;
		}
	}

	/**
	 * The results table. Rows may be shorter or longer than the header; the renderer pads them.
	 *
	 * @param columns the column headings
	 * @param rows the cells, row by row
	 */
	record Table(List<String> columns, List<List<Value>> rows) {

		static Table parse(JsonNode node) {
			List<String> columns = new ArrayList<>();
			node.path("columns").forEach(column -> columns.add(Optional.ofNullable(scalar(column)).orElse("")));
			List<List<Value>> rows = new ArrayList<>();
			node.path("rows").forEach(row -> {
				List<Value> cells = new ArrayList<>();
				if (row.isArray()) {
					row.forEach(cell -> cells.add(Value.of(cell)));
				}
				else {
					cells.add(Value.of(row));
				}
				rows.add(List.copyOf(cells));
			});
			return new Table(List.copyOf(columns), List.copyOf(rows));
		}

		int width() {
			return Math.max(this.columns.size(), this.rows.stream().mapToInt(List::size).max().orElse(0));
		}

		/** A column is numeric, and right-aligned, when it holds numbers and nulls only. */
		boolean isNumeric(int column) {
			return this.rows.stream()
				.map(row -> column < row.size() ? row.get(column) : Value.NULL)
				.allMatch(cell -> cell.isNull() || cell.isNumber());
		}
	}

	/**
	 * One chart.
	 *
	 * @param title the chart's heading
	 * @param type bars grouped by x value, or lines over numeric x
	 * @param xLabel the x axis label
	 * @param yLabel the y axis label, also the unit shown with exact values
	 * @param logY whether the y axis is logarithmic
	 * @param logX whether the x axis of a line chart is logarithmic
	 * @param series the series, in legend order
	 */
	record Chart(String title, Type type, String xLabel, String yLabel, boolean logY, boolean logX,
			List<Series> series) {

		enum Type {

			BAR, LINE

		}

		static Optional<Chart> parse(JsonNode node, String where, List<String> warnings) {
			if (!node.isObject()) {
				warnings.add(where + ": skipped, not an object");
				return Optional.empty();
			}
			String typeName = Optional.ofNullable(scalar(node.get("type"))).orElse("bar");
			Type type;
			try {
				type = Type.valueOf(typeName.toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				warnings.add(where + ": skipped, unknown type \"" + typeName + "\" (bar or line)");
				return Optional.empty();
			}
			List<Series> series = new ArrayList<>();
			JsonNode seriesNode = node.path("series");
			for (int i = 0; i < seriesNode.size(); i++) {
				JsonNode one = seriesNode.get(i);
				String name = Optional.ofNullable(scalar(one.get("name"))).orElse("series " + (i + 1));
				List<Point> points = new ArrayList<>();
				for (JsonNode point : one.path("points")) {
					Value x = Value.of(point.get("x"));
					JsonNode y = point.get("y");
					if (x.isNull() || (type == Type.LINE && !x.isNumber())) {
						warnings.add(where + ": a point of \"" + name + "\" without a"
								+ (type == Type.LINE ? " numeric" : "n") + " x is left out");
						continue;
					}
					points.add(new Point(x, y != null && y.isNumber() ? y.doubleValue() : null));
				}
				series.add(new Series(name, List.copyOf(points)));
			}
			return Optional.of(new Chart(text(node, "title"), type, text(node, "xLabel"), text(node, "yLabel"),
					flag(node, "logY"), flag(node, "logX"), List.copyOf(series)));
		}

		private static String text(JsonNode node, String name) {
			return Optional.ofNullable(scalar(node.get(name))).orElse("");
		}

		private static boolean flag(JsonNode node, String name) {
			JsonNode value = node.get(name);
			return value != null && value.isBoolean() && value.booleanValue();
		}
	}

	/**
	 * A named series of points.
	 *
	 * @param name the legend entry
	 * @param points the points, in the order written
	 */
	record Series(String name, List<Point> points) {
	}

	/**
	 * One measurement.
	 *
	 * @param x a number, or for bar charts also a text category
	 * @param y the value, {@code null} where nothing was measured
	 */
	record Point(Value x, Double y) {
	}
}
