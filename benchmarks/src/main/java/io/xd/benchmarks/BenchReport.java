package io.xd.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.xd.benchmarks.BenchSuite.Chart;
import io.xd.benchmarks.BenchSuite.Table;
import io.xd.benchmarks.BenchSuite.Value;

/**
 * Renders the results of {@code bin/xd-bench}, one JSON file per suite (see {@link BenchSuite} for the shape), as
 * one self-contained HTML page: no script, no network, no external style sheet, every chart an inline SVG. Each
 * chart is also written beside the page as {@code <suite>-<n>.svg} (n from 1) for the docs to embed.
 * <p>
 * Usage: {@code BenchReport [<dir>] [--out <file>]}, by default {@code target/bench} and {@code <dir>/report.html}.
 * Reads every {@code *.json} file of the directory in name order; a file that is not JSON or has no {@code suite}
 * is skipped with a note on standard error and at the foot of the page. Exits with status 2 on bad arguments or a
 * missing directory.
 */
public final class BenchReport {

	private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	private static final String STYLE = """
			body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
			  color: #222; background: #fff; max-width: 960px; margin: 0 auto; padding: 24px; line-height: 1.45; }
			header { border-bottom: 1px solid #ddd; padding-bottom: 12px; margin-bottom: 8px; }
			h1 { font-size: 1.6em; margin: 0 0 4px; }
			h2 { font-size: 1.3em; margin: 32px 0 4px; }
			.meta { color: #666; font-size: 0.9em; margin: 2px 0; }
			nav a { margin-right: 14px; color: #4e79a7; }
			ul.notes { color: #444; margin: 8px 0; padding-left: 20px; }
			table { border-collapse: collapse; margin: 12px 0; font-variant-numeric: tabular-nums; }
			th, td { padding: 4px 14px; border-bottom: 1px solid #e6e6e6; text-align: left; }
			th { border-bottom: 2px solid #ccc; font-weight: 600; }
			th.num, td.num { text-align: right; }
			td.empty { color: #999; }
			tbody tr:nth-child(even) { background: #f8f8f8; }
			figure { margin: 16px 0; }
			figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
			figcaption { font-size: 0.8em; color: #888; }
			figcaption a { color: #888; }
			footer { border-top: 1px solid #ddd; margin-top: 40px; padding-top: 8px; color: #888; font-size: 0.85em; }
			""";

	private final List<String> files = new ArrayList<>();

	private final List<BenchSuite> suites = new ArrayList<>();

	private final List<String> warnings = new ArrayList<>();

	private BenchReport() {
	}

	public static void main(String[] args) throws IOException {
		Path dir = null;
		Path out = null;
		for (int i = 0; i < args.length; i++) {
			if (args[i].equals("--out") && i + 1 < args.length) {
				out = Path.of(args[++i]);
			}
			else if (args[i].equals("-h") || args[i].equals("--help")) {
				System.out.println("usage: BenchReport [<dir>] [--out <report.html>]");
				return;
			}
			else if (args[i].startsWith("-") || dir != null) {
				System.err.println("usage: BenchReport [<dir>] [--out <report.html>]");
				System.exit(2);
			}
			else {
				dir = Path.of(args[i]);
			}
		}
		dir = dir != null ? dir : Path.of("target", "bench");
		if (!Files.isDirectory(dir)) {
			System.err.println("BenchReport: no directory " + dir);
			System.exit(2);
		}
		BenchReport report = read(dir);
		report.warnings().forEach(warning -> System.err.println("BenchReport: " + warning));
		out = out != null ? out : dir.resolve("report.html");
		List<Path> written = report.write(out);
		System.out.println("BenchReport: wrote " + out + " (" + report.suites().size() + " suites) and "
				+ (written.size() - 1) + " SVG files beside it");
	}

	/**
	 * Reads every {@code *.json} file of a directory, in name order.
	 * @throws IOException if the directory cannot be listed; unreadable files are skipped with a warning instead
	 */
	static BenchReport read(Path dir) throws IOException {
		List<Path> paths = new ArrayList<>();
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.json")) {
			stream.forEach(paths::add);
		}
		paths.sort(Comparator.comparing(path -> path.getFileName().toString()));
		JsonMapper mapper = JsonMapper.builder().build();
		BenchReport report = new BenchReport();
		for (Path path : paths) {
			String name = path.getFileName().toString();
			if (!Files.isRegularFile(path)) {
				continue;
			}
			JsonNode root;
			try {
				root = mapper.readTree(Files.readString(path));
			}
			catch (IOException | JacksonException ex) {
				report.warnings.add(name + ": skipped, not readable as JSON (" + firstLine(ex.getMessage()) + ")");
				continue;
			}
			report.files.add(name);
			BenchSuite.parse(name, root, report.warnings).ifPresent(report.suites::add);
		}
		return report;
	}

	List<BenchSuite> suites() {
		return this.suites;
	}

	/** Files skipped and parts left out, each a sentence starting with the file name. */
	List<String> warnings() {
		return this.warnings;
	}

	/**
	 * Writes the page and, beside it, one SVG file per chart.
	 * @param out the HTML file; its directory is created if needed
	 * @return the files written, the page first
	 */
	List<Path> write(Path out) throws IOException {
		Path folder = out.toAbsolutePath().getParent();
		Files.createDirectories(folder);
		List<Path> written = new ArrayList<>();
		written.add(out);
		SvgChart.Palette palette = new SvgChart.Palette();
		TreeSet<String> dates = this.suites.stream().map(BenchSuite::date).filter(Objects::nonNull)
			.map(BenchReport::formatDate).collect(Collectors.toCollection(TreeSet::new));
		Set<String> machines = this.suites.stream().map(suite -> describeMachine(suite.machine()))
			.filter(machine -> !machine.isEmpty()).collect(Collectors.toCollection(TreeSet::new));

		StringBuilder html = new StringBuilder();
		html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
			.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
			.append("<title>XD benchmark report</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
		html.append("<header>\n<h1>XD benchmark report</h1>\n");
		List<String> summary = new ArrayList<>();
		if (dates.size() == 1) {
			summary.add("Run " + dates.iterator().next());
		}
		else if (dates.size() > 1) {
			summary.add("Runs " + dates.first() + " to " + dates.last());
		}
		if (machines.size() == 1) {
			summary.add(machines.iterator().next());
		}
		else if (machines.size() > 1) {
			summary.add("machines differ, see each suite");
		}
		if (!summary.isEmpty()) {
			html.append("<p class=\"meta\">").append(escape(String.join(" \u00b7 ", summary))).append("</p>\n");
		}

		Set<String> stems = new HashSet<>();
		List<String> suiteStems = new ArrayList<>();
		for (BenchSuite suite : this.suites) {
			suiteStems.add(uniqueStem(suite.suite(), stems));
		}
		if (this.suites.size() > 1) {
			html.append("<nav>");
			for (int i = 0; i < this.suites.size(); i++) {
				html.append("<a href=\"#suite-").append(suiteStems.get(i)).append("\">")
					.append(escape(this.suites.get(i).title())).append("</a>");
			}
			html.append("</nav>\n");
		}
		html.append("</header>\n");
		if (this.suites.isEmpty()) {
			html.append("<p>No benchmark results: no JSON file with a \"suite\" field.</p>\n");
		}

		for (int i = 0; i < this.suites.size(); i++) {
			BenchSuite suite = this.suites.get(i);
			String stem = suiteStems.get(i);
			html.append("\n<section id=\"suite-").append(stem).append("\">\n<h2>").append(escape(suite.title()))
				.append("</h2>\n");
			List<String> meta = new ArrayList<>();
			meta.add("suite " + suite.suite());
			if (dates.size() > 1 && suite.date() != null) {
				meta.add(formatDate(suite.date()));
			}
			if (machines.size() > 1 && !suite.machine().isEmpty()) {
				meta.add(describeMachine(suite.machine()));
			}
			html.append("<p class=\"meta\">").append(escape(String.join(" \u00b7 ", meta))).append("</p>\n");
			if (!suite.notes().isEmpty()) {
				html.append("<ul class=\"notes\">\n");
				suite.notes().forEach(note -> html.append("<li>").append(escape(note)).append("</li>\n"));
				html.append("</ul>\n");
			}
			if (suite.table() != null) {
				appendTable(html, suite.table());
			}
			for (int n = 1; n <= suite.charts().size(); n++) {
				Chart chart = suite.charts().get(n - 1);
				String name = stem + "-" + n;
				String svg = SvgChart.render(chart, "chart-" + name, palette);
				Path file = folder.resolve(name + ".svg");
				Files.writeString(file, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg + "\n");
				written.add(file);
				html.append("<figure>\n").append(svg).append("\n<figcaption><a href=\"").append(name)
					.append(".svg\">").append(name).append(".svg</a></figcaption>\n</figure>\n");
			}
			html.append("</section>\n");
		}

		html.append("\n<footer>\n<p>Generated by io.xd.benchmarks.BenchReport from ")
			.append(escape(this.files.isEmpty() ? "no JSON files" : String.join(", ", this.files))).append(".</p>\n");
		if (!this.warnings.isEmpty()) {
			html.append("<p>Skipped or left out:</p>\n<ul>\n");
			this.warnings.forEach(warning -> html.append("<li>").append(escape(warning)).append("</li>\n"));
			html.append("</ul>\n");
		}
		html.append("</footer>\n</body>\n</html>\n");
		Files.writeString(out, html);
		return written;
	}

	private static void appendTable(StringBuilder html, Table table) {
		int width = table.width();
		html.append("<table>\n<thead><tr>");
		for (int c = 0; c < width; c++) {
			String heading = c < table.columns().size() ? table.columns().get(c) : "";
			html.append(table.isNumeric(c) ? "<th class=\"num\">" : "<th>").append(escape(heading)).append("</th>");
		}
		html.append("</tr></thead>\n<tbody>\n");
		for (List<Value> row : table.rows()) {
			html.append("<tr>");
			for (int c = 0; c < width; c++) {
				if (c >= row.size()) {
					html.append("<td></td>");
					continue;
				}
				Value cell = row.get(c);
				String type = cell.isNull() ? " class=\"num empty\"" : cell.isNumber() ? " class=\"num\"" : "";
				html.append("<td").append(type).append('>').append(escape(cell.display())).append("</td>");
			}
			html.append("</tr>\n");
		}
		html.append("</tbody>\n</table>\n");
	}

	/** {@code 2 CPUs · Java 17.0.15 · Linux 6.1}, then any other fields as {@code name: value}. */
	static String describeMachine(Map<String, String> machine) {
		List<String> parts = new ArrayList<>();
		machine.forEach((name, value) -> {
			switch (name) {
				case "cpus" -> parts.add(value + (value.equals("1") ? " CPU" : " CPUs"));
				case "java" -> parts.add("Java " + value);
				case "os" -> parts.add(value);
				default -> parts.add(name + ": " + value);
			}
		});
		return String.join(" \u00b7 ", parts);
	}

	/** An ISO-8601 date with offset as {@code yyyy-MM-dd HH:mm UTC}; anything else as written. */
	static String formatDate(String date) {
		try {
			return DATE.format(OffsetDateTime.parse(date));
		}
		catch (DateTimeParseException ex) {
			return date;
		}
	}

	/** A file name stem from a suite name: letters, digits, {@code .}, {@code _} and {@code -}, unique. */
	private static String uniqueStem(String suite, Set<String> used) {
		String stem = suite.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[.-]+|-+$", "");
		stem = stem.isEmpty() ? "suite" : stem;
		String unique = stem;
		for (int n = 2; !used.add(unique); n++) {
			unique = stem + "-" + n;
		}
		return unique;
	}

	private static String escape(String text) {
		return ReportFormat.escape(text);
	}

	private static String firstLine(String message) {
		if (message == null) {
			return "no detail";
		}
		int newline = message.indexOf('\n');
		return newline < 0 ? message : message.substring(0, newline);
	}
}
