package io.xd.modules.builtin.analytics;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.Date;
import java.util.List;
import java.util.Locale;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.analytics.AnalyticsStore;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code aggregate-counter} sink: adds each message to an aggregate counter of the container's
 * {@link AnalyticsStore}, which keeps counts per minute, hour, day, month and year (Spring XD's sink of that name).
 * The time counted is now, or the value of {@code --timeField}, an expression such as {@code payload.created}: a
 * date, an instant, epoch milliseconds, or text in {@code --dateFormat}. A JSON payload (text or bytes) is read as a
 * map for these expressions, so {@code payload.created} reaches a field of posted JSON. What is added is
 * {@code --incrementExpression} (1 by default).
 */
public final class AggregateCounterSink implements Sink {

	static final String DEFAULT_DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'";

	static final ModuleOption<String> NAME = MetricSinks.nameOption("aggregate counter");

	static final ModuleOption<SafeExpression> TIME_FIELD = ModuleOption.ofExpression("timeField")
		.withDescription("an expression whose value is the time to count the message at, such as payload.created "
				+ "(a date, epoch milliseconds or text in dateFormat); none counts it now");

	static final ModuleOption<String> DATE_FORMAT = ModuleOption.ofString("dateFormat")
		.withDefault(DEFAULT_DATE_FORMAT)
		.withRule(AggregateCounterSink::isPattern, "be a date-time pattern such as yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withDescription("the pattern of a timeField given as text (java.time's, which reads Spring XD's patterns); "
				+ "a time without a zone is UTC");

	static final ModuleOption<SafeExpression> INCREMENT = ModuleOption.ofExpression("incrementExpression")
		.withDefault(SafeExpression.parse("1"))
		.withDescription("an expression whose value, a whole number, is added for each message");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "aggregate-counter",
			"Counts messages per minute, hour, day, month and year in an aggregate counter of the analytics store",
			List.of(NAME, TIME_FIELD, DATE_FORMAT, INCREMENT));

	private final AnalyticsStore store;

	private final String name;

	private final SafeExpression timeField;

	private final DateTimeFormatter dateFormat;

	private final SafeExpression increment;

	private final boolean readsFields;

	public AggregateCounterSink(ModuleContext context) {
		this.store = context.service(AnalyticsStore.class);
		this.name = MetricSinks.name(context, NAME);
		this.timeField = context.options().get(TIME_FIELD);
		this.dateFormat = DateTimeFormatter.ofPattern(context.options().get(DATE_FORMAT), Locale.ENGLISH);
		this.increment = context.options().get(INCREMENT);
		this.readsFields = this.timeField != null || !this.increment.text().strip().equals("1");
	}

	private static boolean isPattern(String pattern) {
		try {
			DateTimeFormatter.ofPattern(pattern, Locale.ENGLISH);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	@Override
	public void handleMessage(Message<?> message) {
		Message<?> read = this.readsFields ? withJsonAsMap(message) : message;
		Instant time = (this.timeField == null) ? Instant.now() : time(read, this.timeField.evaluate(read));
		Long delta = this.increment.evaluate(read, Long.class);
		if (delta == null) {
			throw MetricSinks.refused(message, "aggregate-counter", "incrementExpression gave null");
		}
		this.store.incrementAggregate(this.name, time, delta);
	}

	/** The message with its JSON object payload (text or bytes) as a map, so that expressions reach its fields. */
	private static Message<?> withJsonAsMap(Message<?> message) {
		String text = MetricSinks.text(message.getPayload());
		if (text == null || !text.startsWith("{")) {
			return message;
		}
		try {
			return new GenericMessage<>(PayloadFields.structured(text), message.getHeaders());
		}
		catch (IllegalArgumentException ex) {
			return message;
		}
	}

	private Instant time(Message<?> message, Object value) {
		if (value instanceof Instant instant) {
			return instant;
		}
		if (value instanceof Date date) {
			return date.toInstant();
		}
		if (value instanceof Number number) {
			return Instant.ofEpochMilli(number.longValue());
		}
		if (value instanceof TemporalAccessor temporal) {
			return Instant.from(temporal);
		}
		if (value instanceof String text) {
			try {
				TemporalAccessor parsed = this.dateFormat.parseBest(text.strip(), ZonedDateTime::from,
						LocalDateTime::from, LocalDate::from);
				if (parsed instanceof ZonedDateTime zoned) {
					return zoned.toInstant();
				}
				if (parsed instanceof LocalDateTime local) {
					return local.toInstant(ZoneOffset.UTC);
				}
				return ((LocalDate) parsed).atStartOfDay(ZoneOffset.UTC).toInstant();
			}
			catch (DateTimeParseException ex) {
				throw MetricSinks.refused(message, "aggregate-counter", "timeField '" + MetricSinks.shown(text)
						+ "' does not match the dateFormat: " + ex.getMessage());
			}
		}
		throw MetricSinks.refused(message, "aggregate-counter", "timeField gave "
				+ ((value == null) ? "null" : value.getClass().getSimpleName()) + ", not a time");
	}

	/** Declares and creates the {@code aggregate-counter} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, AggregateCounterSink::new);
		}
	}
}
