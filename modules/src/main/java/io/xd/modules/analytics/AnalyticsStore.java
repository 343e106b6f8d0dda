package io.xd.modules.analytics;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where Spring XD's analytics live: counters, field-value counters, aggregate counters, gauges and rich gauges, each
 * named. The analytics sinks write to it (a container offers it to its modules as a service, see
 * {@code ModuleContext.service(AnalyticsStore.class)}); the admin's {@code /metrics/...} REST API and the dashboard
 * read and delete through it.
 * <p>
 * A metric comes into being at its first update and is gone after {@link #delete}. Names follow {@link MetricNames};
 * the methods throw {@link IllegalArgumentException} for a name that does not. Every method is thread-safe and may
 * block on I/O (a Redis store makes one round trip per call); an update is atomic, so that modules in several
 * containers adding to one counter of a shared store lose nothing. A store that cannot reach its storage throws an
 * unchecked exception from the call: a sink lets it fail the message, which goes to the error path.
 * <p>
 * What the store keeps is bounded by its {@link AnalyticsLimits}: the distinct values of a field-value counter (new
 * values beyond the limit are counted under {@link #OTHER}) and how long aggregate counter buckets are kept.
 */
public interface AnalyticsStore {

	/** The value under which a field-value counter counts values beyond its limits. */
	String OTHER = "_other";

	/**
	 * Adds {@code delta} to a counter, creating it at 0 first if there is none.
	 * @return the counter's new value
	 */
	long incrementCounter(String name, long delta);

	/** A counter's value, or empty when there is no such counter. */
	OptionalLong counter(String name);

	/**
	 * Adds {@code delta} to the count of {@code value} in a field-value counter, creating it first if there is none. A
	 * value that is new when the counter already counts its {@link AnalyticsLimits#maxFieldValues} values, or that is
	 * longer than {@link AnalyticsLimits#maxFieldValueLength}, is counted under {@link #OTHER}.
	 */
	void incrementFieldValue(String name, String value, double delta);

	/** A field-value counter's counts by value, highest first, or empty when there is no such counter. */
	Optional<Map<String, Double>> fieldValueCounts(String name);

	/**
	 * Adds {@code delta} to an aggregate counter's total and to its minute, hour, day, month and year buckets that hold
	 * {@code time}, creating the counter first if there is none. Buckets already past their retention are left alone.
	 */
	void incrementAggregate(String name, Instant time, long delta);

	/**
	 * An aggregate counter's counts per bucket of {@code resolution}, from the bucket holding {@code from} to the one
	 * holding {@code to}, or empty when there is no such counter.
	 * @throws IllegalArgumentException when {@code to} is before {@code from} or the span holds more than
	 * {@link Resolution#MAX_BUCKETS} buckets
	 */
	Optional<AggregateCounts> aggregateCounts(String name, Resolution resolution, Instant from, Instant to);

	/** Sets a gauge's value, creating it first if there is none. */
	void setGauge(String name, long value);

	/** A gauge's value, or empty when there is no such gauge. */
	OptionalLong gauge(String name);

	/**
	 * Records a value in a rich gauge, creating it first if there is none (see {@link RichGauge#record}).
	 * @param alpha -1 for the arithmetic mean, or a smoothing factor between 0 and 1 (see {@link RichGauge#checkAlpha})
	 * @return the gauge's new state
	 */
	RichGauge recordRichGauge(String name, double value, double alpha);

	/** A rich gauge's state, or empty when there is no such gauge. */
	Optional<RichGauge> richGauge(String name);

	/** The names of the metrics of a kind, in alphabetical order. */
	List<String> names(MetricKind kind);

	/**
	 * Removes a metric and everything it counted.
	 * @return whether there was one
	 */
	boolean delete(MetricKind kind, String name);
}
