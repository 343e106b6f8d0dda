package io.xd.modules.analytics;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How much an analytics store keeps, so that no stream can make it grow without bound.
 *
 * @param maxFieldValues the most distinct values a field-value counter counts separately; further new values are
 * counted together under {@link AnalyticsStore#OTHER}
 * @param maxFieldValueLength the longest value (in characters) a field-value counter counts separately; longer ones
 * are counted under {@link AnalyticsStore#OTHER}
 * @param minuteRetention how long an aggregate counter keeps its per-minute buckets
 * @param hourRetention how long it keeps its per-hour buckets
 * @param dayRetention how long it keeps its per-day buckets (month and year buckets are kept for ever)
 */
public record AnalyticsLimits(int maxFieldValues, int maxFieldValueLength, Duration minuteRetention,
		Duration hourRetention, Duration dayRetention) {

	/** 10 000 values of at most 1 000 characters; minutes for 2 days, hours for 60 days, days for 5 years. */
	public static final AnalyticsLimits DEFAULTS = new AnalyticsLimits(10_000, 1_000, Duration.ofDays(2),
			Duration.ofDays(60), Duration.ofDays(5 * 366));

	public AnalyticsLimits {
		if (maxFieldValues < 1 || maxFieldValueLength < 1) {
			throw new IllegalArgumentException("maxFieldValues and maxFieldValueLength must be at least 1");
		}
		Objects.requireNonNull(minuteRetention, "minuteRetention");
		Objects.requireNonNull(hourRetention, "hourRetention");
		Objects.requireNonNull(dayRetention, "dayRetention");
	}

	/** How long buckets of a resolution are kept, or null for ever (months and years). */
	public Duration retention(Resolution resolution) {
		return switch (resolution) {
			case MINUTE -> this.minuteRetention;
			case HOUR -> this.hourRetention;
			case DAY -> this.dayRetention;
			case MONTH, YEAR -> null;
		};
	}

	/**
	 * When the bucket starting at {@code bucket} may be dropped: the end of the bucket plus the retention, or null
	 * for a bucket kept for ever.
	 */
	public Instant expiry(Resolution resolution, Instant bucket) {
		Duration retention = retention(resolution);
		return (retention == null) ? null : resolution.next(bucket).plus(retention);
	}

	/** The value a field-value counter counts: the value itself, or {@link AnalyticsStore#OTHER} if it is too long. */
	public String fieldValue(String value) {
		return (value.length() > this.maxFieldValueLength) ? AnalyticsStore.OTHER : value;
	}
}
