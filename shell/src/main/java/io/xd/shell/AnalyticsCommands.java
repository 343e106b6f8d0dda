package io.xd.shell;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.xd.shell.ShellCommand.Invocation;
import tools.jackson.databind.JsonNode;

import org.springframework.shell.core.command.ExitStatus;

/**
 * Spring XD's analytics commands over {@code /metrics/...}: {@code counter}, {@code field-value-counter},
 * {@code aggregate-counter}, {@code gauge} and {@code rich-gauge}, each with {@code list}, {@code display} and
 * {@code delete}.
 */
final class AnalyticsCommands {

	private static final String GROUP = "Analytics Commands";

	private static final String NAME = "the name of the metric";

	private static final String PATTERN = "a java.text.DecimalFormat pattern for the numbers, such as #,##0.00";

	private final ShellSession session;

	/** What "now" is for --lastHours and --lastDays. */
	private final Supplier<Instant> clock;

	AnalyticsCommands(ShellSession session) {
		this(session, Instant::now);
	}

	AnalyticsCommands(ShellSession session, Supplier<Instant> clock) {
		this.session = session;
		this.clock = clock;
	}

	List<ShellCommand> commands() {
		List<ShellCommand> commands = new ArrayList<>();
		for (Kind kind : Kind.values()) {
			commands.add(ShellCommand.named(kind.command + " list")
				.group(GROUP)
				.description("List the " + kind.plural)
				.action(invocation -> list(invocation, kind)));
			commands.add(ShellCommand.named(kind.command + " delete")
				.group(GROUP)
				.description("Delete a " + kind.singular + " and what it counted")
				.positional("name", NAME)
				.action(invocation -> delete(invocation, kind)));
		}
		for (Kind kind : List.of(Kind.COUNTER, Kind.GAUGE)) {
			commands.add(ShellCommand.named(kind.command + " display")
				.group(GROUP)
				.description("Display the value of a " + kind.singular)
				.positional("name", NAME)
				.optional("pattern", PATTERN)
				.action(invocation -> displayValue(invocation, kind)));
		}
		commands.add(ShellCommand.named("field-value-counter display")
			.group(GROUP)
			.description("Display the counts of a field-value counter, highest first")
			.positional("name", NAME)
			.optional("pattern", PATTERN)
			.optional("size", "how many values to show", "25")
			.action(this::displayFieldValues));
		commands.add(ShellCommand.named("aggregate-counter display")
			.group(GROUP)
			.description("Display the counts of an aggregate counter per minute, hour, day or month")
			.positional("name", NAME)
			.optional("from", "the start, as 'yyyy-MM-dd HH:mm:ss' (UTC) or ISO-8601")
			.optional("to", "the end, as 'yyyy-MM-dd HH:mm:ss' (UTC) or ISO-8601; now by default")
			.optional("lastHours", "show the last n hours (instead of --from)")
			.optional("lastDays", "show the last n days (instead of --from)")
			.optional("resolution", "minute, hour, day or month", "hour")
			.optional("pattern", PATTERN)
			.action(this::displayAggregate));
		commands.add(ShellCommand.named("rich-gauge display")
			.group(GROUP)
			.description("Display the value, mean, min, max and count of a rich gauge")
			.positional("name", NAME)
			.optional("pattern", PATTERN)
			.action(this::displayRichGauge));
		return commands;
	}

	private ExitStatus list(Invocation invocation, Kind kind) {
		JsonNode page = this.session.admin().get("/metrics/" + kind.path + "?size=10000");
		Table table = new Table(kind.title + " name");
		for (JsonNode metric : Json.content(page)) {
			table.row(Json.text(metric, "name"));
		}
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus delete(Invocation invocation, Kind kind) {
		String name = invocation.option("name");
		this.session.admin().delete(path(kind, name));
		invocation.out().println("Deleted " + kind.deleted + " '" + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus displayValue(Invocation invocation, Kind kind) {
		JsonNode metric = this.session.admin().get(path(kind, invocation.option("name")));
		invocation.out().println(number(metric.path("value"), format(invocation)));
		return ExitStatus.OK;
	}

	private ExitStatus displayFieldValues(Invocation invocation) {
		String name = invocation.option("name");
		int size = positive("size", invocation.option("size"));
		DecimalFormat format = format(invocation);
		JsonNode metric = this.session.admin().get(path(Kind.FIELD_VALUE_COUNTER, name));
		Table table = new Table("VALUE", "COUNT");
		int shown = 0;
		int total = 0;
		for (Map.Entry<String, JsonNode> count : metric.path("counts").properties()) {
			total++;
			if (shown < size) {
				table.row(count.getKey(), number(count.getValue(), format));
				shown++;
			}
		}
		invocation.out().println("FieldValueCounter=" + name);
		invocation.out().print(table.render());
		if (total > shown) {
			invocation.out().println("The " + shown + " highest of " + total + " values; --size shows more");
		}
		return ExitStatus.OK;
	}

	private ExitStatus displayAggregate(Invocation invocation) {
		String name = invocation.option("name");
		String from = invocation.option("from");
		String lastHours = invocation.option("lastHours");
		String lastDays = invocation.option("lastDays");
		int given = ((from != null) ? 1 : 0) + ((lastHours != null) ? 1 : 0) + ((lastDays != null) ? 1 : 0);
		if (given > 1) {
			throw new IllegalArgumentException("Give only one of --from, --lastHours and --lastDays");
		}
		String to = invocation.option("to");
		if (lastHours != null || lastDays != null) {
			Instant end = (to == null) ? this.clock.get() : null;
			if (end == null) {
				throw new IllegalArgumentException("--lastHours and --lastDays count back from now: leave --to out");
			}
			Duration back = (lastHours != null) ? Duration.ofHours(positive("lastHours", lastHours))
					: Duration.ofDays(positive("lastDays", lastDays));
			from = end.minus(back).truncatedTo(ChronoUnit.SECONDS).toString();
			to = end.truncatedTo(ChronoUnit.SECONDS).toString();
		}
		Map<String, String> query = new LinkedHashMap<>();
		query.put("resolution", invocation.option("resolution"));
		query.put("from", from);
		query.put("to", to);
		DecimalFormat format = format(invocation);
		JsonNode metric = this.session.admin()
			.get(path(Kind.AGGREGATE_COUNTER, name) + AdminClient.query(query));
		Table table = new Table("TIME", "COUNT");
		for (Map.Entry<String, JsonNode> count : metric.path("counts").properties()) {
			table.row(count.getKey(), number(count.getValue(), format));
		}
		invocation.out().println("AggregateCounter=" + name);
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus displayRichGauge(Invocation invocation) {
		String name = invocation.option("name");
		DecimalFormat format = format(invocation);
		JsonNode metric = this.session.admin().get(path(Kind.RICH_GAUGE, name));
		Table table = new Table("Name", "Value");
		for (String field : List.of("value", "alpha", "average", "max", "min", "count")) {
			table.row(field, number(metric.path(field), format));
		}
		invocation.out().println("RichGauge=" + name);
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private static String path(Kind kind, String name) {
		return "/metrics/" + kind.path + "/" + AdminClient.pathSegment(name);
	}

	private static DecimalFormat format(Invocation invocation) {
		String pattern = invocation.option("pattern");
		if (pattern == null) {
			return null;
		}
		try {
			return new DecimalFormat(pattern);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("--pattern is not a DecimalFormat pattern: " + ex.getMessage());
		}
	}

	/** A number in the pattern, or as written without a needless {@code .0}. */
	private static String number(JsonNode value, DecimalFormat format) {
		if (!value.isNumber()) {
			return Json.text(value);
		}
		if (format != null) {
			return format.format(value.decimalValue());
		}
		BigDecimal decimal = value.decimalValue().stripTrailingZeros();
		return (decimal.scale() <= 0) ? decimal.toBigInteger().toString() : decimal.toPlainString();
	}

	private static int positive(String option, String text) {
		try {
			int value = Integer.parseInt(text.strip());
			if (value > 0) {
				return value;
			}
		}
		catch (NumberFormatException ex) {
			// said below
		}
		throw new IllegalArgumentException("--" + option + " must be a positive whole number, not '" + text + "'");
	}

	/** The kinds, with Spring XD's words for them. */
	private enum Kind {

		COUNTER("counter", "counters", "Counter", "counter", "counter", "counters"),
		FIELD_VALUE_COUNTER("field-value-counter", "field-value-counters", "FieldValueCounter", "field-value counter",
				"field-value-counter", "field-value counters"),
		AGGREGATE_COUNTER("aggregate-counter", "aggregate-counters", "AggregateCounter", "aggregate counter",
				"aggregatecounter", "aggregate counters"),
		GAUGE("gauge", "gauges", "Gauge", "gauge", "gauge", "gauges"),
		RICH_GAUGE("rich-gauge", "rich-gauges", "RichGauge", "rich gauge", "richgauge", "rich gauges");

		final String command;

		final String path;

		final String title;

		final String singular;

		final String deleted;

		final String plural;

		Kind(String command, String path, String title, String singular, String deleted, String plural) {
			this.command = command;
			this.path = path;
			this.title = title;
			this.singular = singular;
			this.deleted = deleted;
			this.plural = plural;
		}
	}
}
