package io.xd.benchmarks;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.xd.benchmarks.BenchSuite.Chart;
import io.xd.benchmarks.BenchSuite.Point;
import io.xd.benchmarks.BenchSuite.Series;
import io.xd.benchmarks.BenchSuite.Value;

/**
 * Draws one {@link Chart} as a self-contained SVG element: styling is in presentation attributes, so the same markup
 * reads the same inline in the report and as a standalone file. A bar chart groups one bar per series by distinct x
 * value; its bars are its only {@code <rect>} elements. A line chart plots numeric x, each point a marker. Every bar
 * and marker carries a {@code <title>} with its exact value.
 */
final class SvgChart {

	static final int WIDTH = 720;

	private static final int PLOT_HEIGHT = 260;

	private static final int PAD = 16;

	private static final int LEGEND_ROW = 18;

	private static final String FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

	private static final String INK = "#222";

	private static final String MUTED = "#555";

	private static final String AXIS = "#888";

	private static final String GRID = "#e4e4e4";

	private final Chart chart;

	private final String id;

	private final Palette palette;

	private final StringBuilder svg = new StringBuilder();

	private int left;

	private int top;

	private int plotWidth;

	private SvgChart(Chart chart, String id, Palette palette) {
		this.chart = chart;
		this.id = id;
		this.palette = palette;
	}

	/**
	 * Renders a chart.
	 * @param chart what to draw
	 * @param id unique in the page that embeds the chart; made of letters, digits, {@code -} and {@code _}
	 * @param palette the report's series colours
	 * @return an {@code <svg>} element with the SVG namespace, without an XML declaration
	 */
	static String render(Chart chart, String id, Palette palette) {
		return new SvgChart(chart, id, palette).draw();
	}

	private String draw() {
		boolean bars = this.chart.type() == Chart.Type.BAR;
		List<Double> values = new ArrayList<>();
		this.chart.series().forEach(series -> series.points().stream()
			.map(Point::y)
			.filter(y -> y != null && Double.isFinite(y) && (!this.chart.logY() || y > 0))
			.forEach(values::add));
		Scale y = values.isEmpty() ? Scale.linear(0, 1, true)
				: this.chart.logY() ? Scale.log(min(values), max(values))
						: Scale.linear(min(values), max(values), true);

		List<List<String>> legendRows = legendRows();
		this.top = PAD + 26 + legendRows.size() * LEGEND_ROW + 14;
		int tickWidth = y.ticks().stream().mapToInt(tick -> textWidth(ReportFormat.compact(tick), 11)).max().orElse(0);
		this.left = PAD + (this.chart.yLabel().isEmpty() ? 0 : 20) + tickWidth + 8;
		this.plotWidth = WIDTH - this.left - PAD - 8;

		List<Value> categories = bars ? categories() : List.of();
		Scale x = bars ? null : xScale();
		List<String> xTickLabels = bars ? categories.stream().map(Value::display).toList()
				: x.ticks().stream().map(ReportFormat::compact).toList();
		int longest = xTickLabels.stream().mapToInt(label -> textWidth(label, 11)).max().orElse(0);
		boolean rotate = bars && !categories.isEmpty() && longest > this.plotWidth / categories.size() - 6;
		int xTickHeight = rotate ? (int) Math.ceil(longest * 0.6) + 16 : 18;
		int height = this.top + PLOT_HEIGHT + xTickHeight + (this.chart.xLabel().isEmpty() ? 0 : 22) + PAD;

		this.svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH)
			.append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
			.append("\" role=\"img\" aria-labelledby=\"").append(this.id).append("-title\" font-family=\"")
			.append(ReportFormat.escape(FONT)).append("\" font-size=\"12\" fill=\"").append(INK).append("\">\n");
		this.svg.append("<title id=\"").append(this.id).append("-title\">")
			.append(ReportFormat.escape(this.chart.title().isEmpty() ? "Chart" : this.chart.title()))
			.append("</title>\n");
		// a path, not a rect, so that a bar chart's rects are its bars
		this.svg.append("<path d=\"M0 0H").append(WIDTH).append('V').append(height)
			.append("H0Z\" fill=\"#fff\"/>\n");
		text(WIDTH / 2.0, PAD + 14, "middle", "font-size=\"15\" font-weight=\"600\"", this.chart.title());
		drawLegend(legendRows, bars);
		drawYAxis(y);
		if (values.isEmpty()) {
			text(this.left + this.plotWidth / 2.0, this.top + PLOT_HEIGHT / 2.0, "middle",
					"fill=\"" + MUTED + "\"", "no data");
		}
		if (bars) {
			drawBars(categories, y, xTickLabels, rotate);
		}
		else {
			drawLines(x, y);
		}
		line(this.left, this.top + PLOT_HEIGHT, this.left + this.plotWidth, this.top + PLOT_HEIGHT, AXIS);
		line(this.left, this.top, this.left, this.top + PLOT_HEIGHT, AXIS);
		if (!this.chart.xLabel().isEmpty()) {
			text(this.left + this.plotWidth / 2.0, this.top + PLOT_HEIGHT + xTickHeight + 16, "middle",
					"fill=\"" + MUTED + "\"", this.chart.xLabel());
		}
		if (!this.chart.yLabel().isEmpty()) {
			double cy = this.top + PLOT_HEIGHT / 2.0;
			text(PAD + 4, cy, "middle", "fill=\"" + MUTED + "\" transform=\"rotate(-90 " + num(PAD + 4) + ' '
					+ num(cy) + ")\"", this.chart.yLabel());
		}
		this.svg.append("</svg>");
		return this.svg.toString();
	}

	private List<List<String>> legendRows() {
		List<List<String>> rows = new ArrayList<>();
		int available = WIDTH - 2 * PAD;
		int used = available;
		for (Series series : this.chart.series()) {
			int width = legendItemWidth(series.name());
			if (used + width > available) {
				rows.add(new ArrayList<>());
				used = 0;
			}
			rows.get(rows.size() - 1).add(series.name());
			used += width;
		}
		return rows;
	}

	private void drawLegend(List<List<String>> rows, boolean bars) {
		for (int row = 0; row < rows.size(); row++) {
			List<String> names = rows.get(row);
			int width = names.stream().mapToInt(SvgChart::legendItemWidth).sum() - 18;
			double x = (WIDTH - width) / 2.0;
			double cy = PAD + 32 + row * LEGEND_ROW;
			for (String name : names) {
				String colour = this.palette.colour(name);
				if (bars) {
					this.svg.append("<path d=\"M").append(num(x)).append(' ').append(num(cy - 6))
						.append("h12v12h-12Z\" fill=\"").append(colour).append("\"/>\n");
				}
				else {
					line(x, cy, x + 14, cy, colour, "stroke-width=\"2\"");
					this.svg.append("<circle cx=\"").append(num(x + 7)).append("\" cy=\"").append(num(cy))
						.append("\" r=\"3.5\" fill=\"").append(colour).append("\"/>\n");
				}
				text(x + 20, cy + 4, "start", "", name);
				x += legendItemWidth(name);
			}
		}
	}

	private void drawYAxis(Scale y) {
		for (double tick : y.ticks()) {
			double py = plotY(y, tick);
			if (tick != y.ticks().get(0)) {
				line(this.left, py, this.left + this.plotWidth, py, GRID);
			}
			text(this.left - 8, py + 4, "end", "font-size=\"11\" fill=\"" + MUTED + "\"", ReportFormat.compact(tick));
		}
	}

	private void drawBars(List<Value> categories, Scale y, List<String> labels, boolean rotate) {
		List<Series> series = this.chart.series();
		if (categories.isEmpty() || series.isEmpty()) {
			return;
		}
		double group = (double) this.plotWidth / categories.size();
		double slot = Math.min(group * 0.8 / series.size(), 64);
		double start = (group - slot * series.size()) / 2;
		double baseline = plotY(y, y.log() ? y.lo() : 0);
		boolean labelled = slot >= 30;
		for (int c = 0; c < categories.size(); c++) {
			Object key = categories.get(c).key();
			for (int s = 0; s < series.size(); s++) {
				Series one = series.get(s);
				Double value = one.points().stream()
					.filter(point -> point.x().key().equals(key))
					.map(Point::y)
					.filter(Objects::nonNull)
					.findFirst()
					.orElse(null);
				if (value == null || !Double.isFinite(value) || (y.log() && value <= 0)) {
					continue;
				}
				double x = this.left + c * group + start + s * slot + 1;
				double top = Math.min(plotY(y, value), baseline);
				double height = Math.abs(baseline - plotY(y, value));
				this.svg.append("<rect class=\"bar\" x=\"").append(num(x)).append("\" y=\"").append(num(top))
					.append("\" width=\"").append(num(slot - 2)).append("\" height=\"").append(num(height))
					.append("\" fill=\"").append(this.palette.colour(one.name())).append("\"><title>")
					.append(ReportFormat.escape(pointTitle(one.name(), labels.get(c), value)))
					.append("</title></rect>\n");
				if (labelled) {
					text(x + (slot - 2) / 2, top - 4, "middle", "font-size=\"10\" fill=\"" + MUTED + "\"",
							ReportFormat.compact(value));
				}
			}
			double cx = this.left + (c + 0.5) * group;
			double ty = this.top + PLOT_HEIGHT + 16;
			text(cx, ty, rotate ? "end" : "middle", "font-size=\"11\" fill=\"" + MUTED + "\""
					+ (rotate ? " transform=\"rotate(-35 " + num(cx) + ' ' + num(ty) + ")\"" : ""), labels.get(c));
		}
	}

	private void drawLines(Scale x, Scale y) {
		for (double tick : x.ticks()) {
			double px = plotX(x, tick);
			if (tick != x.ticks().get(0)) {
				line(px, this.top, px, this.top + PLOT_HEIGHT, GRID);
			}
			text(px, this.top + PLOT_HEIGHT + 16, "middle", "font-size=\"11\" fill=\"" + MUTED + "\"",
					ReportFormat.compact(tick));
		}
		for (Series series : this.chart.series()) {
			String colour = this.palette.colour(series.name());
			List<Point> points = series.points().stream()
				.sorted(Comparator.comparing(point -> point.x().number()))
				.toList();
			StringBuilder path = new StringBuilder();
			StringBuilder markers = new StringBuilder();
			boolean broken = true;
			for (Point point : points) {
				double px = point.x().number().doubleValue();
				Double py = point.y();
				if (py == null || !Double.isFinite(py) || (y.log() && py <= 0) || (x.log() && px <= 0)) {
					// a gap in the measurements is a gap in the line
					broken = true;
					continue;
				}
				double sx = plotX(x, px);
				double sy = plotY(y, py);
				path.append(broken ? 'M' : 'L').append(num(sx)).append(' ').append(num(sy));
				broken = false;
				markers.append("<circle cx=\"").append(num(sx)).append("\" cy=\"").append(num(sy))
					.append("\" r=\"4\" fill=\"").append(colour).append("\" stroke=\"#fff\" stroke-width=\"1.5\">")
					.append("<title>")
					.append(ReportFormat.escape(pointTitle(series.name(), point.x().display(), py)))
					.append("</title></circle>\n");
			}
			if (path.length() > 0) {
				this.svg.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(colour)
					.append("\" stroke-width=\"2\" stroke-linejoin=\"round\"/>\n");
			}
			this.svg.append(markers);
		}
	}

	private String pointTitle(String series, String x, double y) {
		String where = this.chart.xLabel().isEmpty() ? x : this.chart.xLabel() + " " + x;
		String unit = this.chart.yLabel().isEmpty() ? "" : " " + this.chart.yLabel();
		return series + " \u2014 " + where + ": " + ReportFormat.grouped(y) + unit;
	}

	/** Distinct x values: ascending when all are numbers, else in the order first written. */
	private List<Value> categories() {
		Map<Object, Value> distinct = new LinkedHashMap<>();
		this.chart.series().forEach(series -> series.points().forEach(point -> distinct.putIfAbsent(point.x().key(),
				point.x())));
		List<Value> categories = new ArrayList<>(distinct.values());
		if (categories.stream().allMatch(Value::isNumber)) {
			categories.sort(Comparator.comparing(Value::number, BigDecimal::compareTo));
		}
		return categories;
	}

	private Scale xScale() {
		List<Double> xs = new ArrayList<>();
		this.chart.series().forEach(series -> series.points().stream()
			.map(point -> point.x().number().doubleValue())
			.filter(x -> !this.chart.logX() || x > 0)
			.forEach(xs::add));
		if (xs.isEmpty()) {
			return Scale.linear(0, 1, false);
		}
		return this.chart.logX() ? Scale.log(min(xs), max(xs)) : Scale.linear(min(xs), max(xs), false);
	}

	private double plotX(Scale x, double value) {
		return this.left + x.fraction(value) * this.plotWidth;
	}

	private double plotY(Scale y, double value) {
		return this.top + (1 - y.fraction(value)) * PLOT_HEIGHT;
	}

	private void line(double x1, double y1, double x2, double y2, String colour) {
		line(x1, y1, x2, y2, colour, "");
	}

	private void line(double x1, double y1, double x2, double y2, String colour, String attributes) {
		this.svg.append("<line x1=\"").append(num(x1)).append("\" y1=\"").append(num(y1)).append("\" x2=\"")
			.append(num(x2)).append("\" y2=\"").append(num(y2)).append("\" stroke=\"").append(colour).append('"')
			.append(attributes.isEmpty() ? "" : " " + attributes).append("/>\n");
	}

	private void text(double x, double y, String anchor, String attributes, String content) {
		if (content.isEmpty()) {
			return;
		}
		this.svg.append("<text x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" text-anchor=\"")
			.append(anchor).append('"').append(attributes.isEmpty() ? "" : " " + attributes).append('>')
			.append(ReportFormat.escape(content)).append("</text>\n");
	}

	private static int legendItemWidth(String name) {
		return 20 + textWidth(name, 12) + 18;
	}

	/** An estimate: there are no font metrics without a renderer. */
	private static int textWidth(String text, int fontSize) {
		return (int) Math.ceil(text.length() * fontSize * 0.6);
	}

	private static String num(double value) {
		String text = String.format(Locale.ROOT, "%.1f", value);
		return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
	}

	private static double min(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
	}

	private static double max(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
	}

	/**
	 * An axis: its range and labelled ticks. A linear axis is widened to round ticks, about five intervals of 1, 2,
	 * 2.5 or 5 times a power of ten; a logarithmic one to whole decades, ticked at powers of ten (and at 2 and 5
	 * times them when it spans two decades or less).
	 *
	 * @param log whether the axis is logarithmic
	 * @param lo the lowest value on the axis
	 * @param hi the highest value on the axis
	 * @param ticks the labelled values, ascending, {@code lo} and {@code hi} included
	 */
	record Scale(boolean log, double lo, double hi, List<Double> ticks) {

		static Scale linear(double min, double max, boolean fromZero) {
			double from = fromZero ? Math.min(0, min) : min;
			double to = fromZero ? Math.max(0, max) : max;
			if (from == to) {
				double pad = from == 0 ? 1 : Math.abs(from) / 2;
				from = fromZero && from >= 0 ? from : from - pad;
				to += pad;
			}
			double step = niceStep((to - from) / 5);
			long first = (long) Math.floor(from / step + 1e-9);
			long last = (long) Math.ceil(to / step - 1e-9);
			List<Double> ticks = new ArrayList<>();
			for (long k = first; k <= last; k++) {
				ticks.add(k * step);
			}
			return new Scale(false, first * step, last * step, List.copyOf(ticks));
		}

		static Scale log(double min, double max) {
			int first = (int) Math.floor(Math.log10(min));
			int last = (int) Math.ceil(Math.log10(max));
			if (last == first) {
				last++;
			}
			int every = Math.max(1, (last - first + 5) / 6);
			// so that the top of the axis is a labelled decade
			last = first + (last - first + every - 1) / every * every;
			List<Double> ticks = new ArrayList<>();
			for (int decade = first; decade <= last; decade += every) {
				double power = Math.pow(10, decade);
				ticks.add(power);
				if (last - first <= 2 && decade < last) {
					ticks.add(2 * power);
					ticks.add(5 * power);
				}
			}
			return new Scale(true, Math.pow(10, first), Math.pow(10, last), List.copyOf(ticks));
		}

		static double niceStep(double rough) {
			double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
			double residual = rough / magnitude;
			double nice = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 2.5 ? 2.5 : residual <= 5 ? 5 : 10;
			return nice * magnitude;
		}

		/** Where a value lies on the axis, 0 at {@code lo} and 1 at {@code hi}. */
		double fraction(double value) {
			if (this.log) {
				return (Math.log10(value) - Math.log10(this.lo)) / (Math.log10(this.hi) - Math.log10(this.lo));
			}
			return (value - this.lo) / (this.hi - this.lo);
		}
	}

	/** Series colours by name: a name keeps its colour in every chart of a report. Not thread-safe. */
	static final class Palette {

		// Tableau 10, the colours that stand out most on white first
		private static final String[] COLOURS = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2",
				"#9c755f", "#ff9da7", "#edc948", "#bab0ac" };

		private final Map<String, String> byName = new HashMap<>();

		String colour(String name) {
			String colour = this.byName.get(name);
			if (colour == null) {
				colour = COLOURS[this.byName.size() % COLOURS.length];
				this.byName.put(name, colour);
			}
			return colour;
		}
	}
}
