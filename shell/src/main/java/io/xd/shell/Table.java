package io.xd.shell;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain text table: a header row, a dashed line under it, then one line per row, columns left-aligned and
 * separated by two spaces. Nothing but spaces and dashes, so that output can be read by scripts (split on two or more
 * spaces) and compared in tests.
 *
 * <pre>
 * Stream Name  Stream Definition  Status
 * -----------  -----------------  --------
 * ticktock     time | log         deployed
 * </pre>
 *
 * <p>Line breaks and tabs inside a cell become spaces, and lines carry no trailing spaces. Not thread-safe.
 */
public final class Table {

	private static final String GAP = "  ";

	private final List<String> headers;

	private final List<List<String>> rows = new ArrayList<>();

	/**
	 * Starts a table.
	 * @param headers the column titles
	 */
	public Table(String... headers) {
		this.headers = List.of(headers);
	}

	/**
	 * Adds a row.
	 * @param cells one value per column; {@code null} is shown as an empty cell, missing trailing cells too
	 * @return this table
	 * @throws IllegalArgumentException when there are more cells than columns
	 */
	public Table row(String... cells) {
		if (cells.length > this.headers.size()) {
			throw new IllegalArgumentException("A row of " + cells.length + " cells in a table of "
					+ this.headers.size() + " columns");
		}
		List<String> row = new ArrayList<>(Arrays.asList(cells));
		while (row.size() < this.headers.size()) {
			row.add("");
		}
		row.replaceAll(Table::clean);
		this.rows.add(row);
		return this;
	}

	/**
	 * The number of rows added, the header not counted.
	 * @return the row count
	 */
	public int size() {
		return this.rows.size();
	}

	/**
	 * Renders the table.
	 * @return the lines of the table, separated and ended by {@code \n}
	 */
	public String render() {
		int[] widths = new int[this.headers.size()];
		for (int column = 0; column < widths.length; column++) {
			widths[column] = this.headers.get(column).length();
			for (List<String> row : this.rows) {
				widths[column] = Math.max(widths[column], row.get(column).length());
			}
		}
		StringBuilder out = new StringBuilder();
		line(out, this.headers, widths);
		List<String> dashes = new ArrayList<>();
		for (int width : widths) {
			dashes.add("-".repeat(width));
		}
		line(out, dashes, widths);
		for (List<String> row : this.rows) {
			line(out, row, widths);
		}
		return out.toString();
	}

	@Override
	public String toString() {
		return render();
	}

	private static void line(StringBuilder out, List<String> cells, int[] widths) {
		StringBuilder line = new StringBuilder();
		for (int column = 0; column < widths.length; column++) {
			if (column > 0) {
				line.append(GAP);
			}
			String cell = cells.get(column);
			line.append(cell).append(" ".repeat(widths[column] - cell.length()));
		}
		out.append(line.toString().stripTrailing()).append('\n');
	}

	private static String clean(String cell) {
		return (cell == null) ? "" : cell.replaceAll("[\\t\\r\\n]+", " ").strip();
	}

}
