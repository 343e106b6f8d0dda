package io.xd.benchmarks.runner;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One suite's results in the shape {@code io.xd.benchmarks.BenchReport} reads ({@code suite}, {@code title},
 * {@code date}, {@code machine}, {@code notes}, {@code table} with {@code columns} and {@code rows}, {@code charts}
 * with {@code series} of {@code {x, y}} points), written to {@code target/bench/<suite>.json}. A {@link Figure}
 * that is n/a becomes {@code null} in the table and charts, and its reason a note.
 */
final class SuiteJson {

	private final Bench bench;

	private final ObjectNode root;

	private final ArrayNode notes;

	private final List<String> columns = new ArrayList<>();

	private final ArrayNode columnsNode;

	private final ArrayNode rows;

	private final ArrayNode charts;

	private final List<String> missing = new ArrayList<>();

	SuiteJson(Bench bench, String suite, String title) {
		this.bench = bench;
		this.root = bench.mapper.createObjectNode();
		this.root.put("suite", suite);
		this.root.put("title", title);
		this.root.put("date", bench.date());
		this.root.set("machine", bench.machine());
		this.notes = this.root.putArray("notes");
		ObjectNode table = this.root.putObject("table");
		this.columnsNode = table.putArray("columns");
		this.rows = table.putArray("rows");
		this.charts = this.root.putArray("charts");
	}

	SuiteJson note(String note) {
		this.notes.add(note);
		return this;
	}

	SuiteJson columns(String... names) {
		for (String name : names) {
			this.columns.add(name);
			this.columnsNode.add(name);
		}
		return this;
	}

	/**
	 * Adds a table row. Cells are numbers, texts, {@code null}, {@link Figure}s (written with one decimal, or as
	 * many as a {@link #rounded} cell says; an n/a
	 * figure as {@code null} with a note naming its column and the row's first cell).
	 */
	SuiteJson row(Object... cells) {
		ArrayNode row = this.rows.addArray();
		for (int i = 0; i < cells.length; i++) {
			Object cell = cells[i];
			Figure figure = (cell instanceof Rounded rounded) ? rounded.figure() : (cell instanceof Figure f) ? f : null;
			if (figure != null && !figure.isPresent()) {
				String column = i < this.columns.size() ? this.columns.get(i) : "column " + (i + 1);
				this.missing.add("n/a: " + column + " at " + this.columns.get(0) + " " + cells[0] + ": "
						+ figure.reason() + ".");
			}
			add(row, cell);
		}
		return this;
	}

	/** An array of the suite's own beside the table and charts ({@code BenchReport} shows only those). */
	ArrayNode array(String name) {
		return this.root.putArray(name);
	}

	/** An object of the suite's own beside the table and charts ({@code BenchReport} shows only those). */
	ObjectNode object(String name) {
		return this.root.putObject(name);
	}

	/** Adds a chart; add its series with {@link Chart#series}. */
	Chart chart(String title, String type, String xLabel, String yLabel, boolean logY) {
		ObjectNode chart = this.charts.addObject();
		chart.put("title", title);
		chart.put("type", type);
		chart.put("xLabel", xLabel);
		chart.put("yLabel", yLabel);
		if (logY) {
			chart.put("logY", true);
		}
		return new Chart(chart.putArray("series"));
	}

	/** Writes {@code target/bench/<suite>.json}, the notes of n/a figures last. */
	Path write() throws IOException {
		this.missing.forEach(this.notes::add);
		Path file = this.bench.out().resolve(this.root.get("suite").asString() + ".json");
		Files.writeString(file, this.bench.mapper.writerWithDefaultPrettyPrinter().writeValueAsString(this.root) + "\n");
		return file;
	}

	static void add(ArrayNode array, Object value) {
		if (value == null) {
			array.addNull();
		}
		else if (value instanceof Figure || value instanceof Rounded) {
			BigDecimal rounded = (value instanceof Rounded cell) ? cell.figure().rounded(cell.decimals())
					: ((Figure) value).rounded(1);
			if (rounded == null) {
				array.addNull();
			}
			else {
				array.add(rounded);
			}
		}
		else if (value instanceof Integer || value instanceof Long) {
			array.add(((Number) value).longValue());
		}
		else if (value instanceof Number number) {
			array.add(number.doubleValue());
		}
		else {
			array.add(value.toString());
		}
	}

	/** A figure to be written with {@code decimals} places rather than one. */
	static Rounded rounded(Figure figure, int decimals) {
		return new Rounded(figure, decimals);
	}

	/**
	 * A table cell: a figure and how many decimals to write it with.
	 *
	 * @param figure the figure
	 * @param decimals places after the point
	 */
	record Rounded(Figure figure, int decimals) {
	}

	/** A chart's series. */
	static final class Chart {

		private final ArrayNode series;

		private Chart(ArrayNode series) {
			this.series = series;
		}

		/**
		 * Adds a series from x values and y values of the same length; a y that is an n/a {@link Figure} or
		 * {@code null} is a point without a value.
		 */
		Chart series(String name, List<?> xs, List<?> ys) {
			ObjectNode one = this.series.addObject();
			one.put("name", name);
			ArrayNode points = one.putArray("points");
			for (int i = 0; i < xs.size(); i++) {
				ObjectNode point = points.addObject();
				ArrayNode pair = point.arrayNode();
				add(pair, xs.get(i));
				add(pair, ys.get(i));
				point.set("x", pair.get(0));
				point.set("y", pair.get(1));
			}
			return this;
		}
	}
}
