package io.xd.modules.analytics;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The sizes of an aggregate counter's buckets, in UTC. */
public enum Resolution {

	MINUTE(ChronoUnit.MINUTES, 59), HOUR(ChronoUnit.HOURS, 23), DAY(ChronoUnit.DAYS, 6), MONTH(ChronoUnit.MONTHS, 11),
	YEAR(ChronoUnit.YEARS, 4);

	/** The most buckets one query may ask for. */
	public static final int MAX_BUCKETS = 10_000;

	private final ChronoUnit unit;

	private final int defaultSpan;

	Resolution(ChronoUnit unit, int defaultSpan) {
		this.unit = unit;
		this.defaultSpan = defaultSpan;
	}

	/** The resolution of a name, in any case: {@code minute}, {@code hour}, {@code day}, {@code month}, {@code year}. */
	public static Resolution of(String name) {
		return Arrays.stream(values())
			.filter(resolution -> resolution.name().equalsIgnoreCase(name))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("No resolution '" + name
					+ "': expected minute, hour, day, month or year"));
	}

	/** The lower-case name, as in a query. */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** The start of the bucket that holds {@code time}. */
	public Instant bucket(Instant time) {
		ZonedDateTime utc = time.atZone(ZoneOffset.UTC);
		ZonedDateTime start = switch (this) {
			case MINUTE, HOUR, DAY -> utc.truncatedTo(this.unit);
			case MONTH -> utc.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1);
			case YEAR -> utc.truncatedTo(ChronoUnit.DAYS).withDayOfYear(1);
		};
		return start.toInstant();
	}

	/** The start of the bucket after the one that starts at {@code bucket}. */
	public Instant next(Instant bucket) {
		return bucket.atZone(ZoneOffset.UTC).plus(1, this.unit).toInstant();
	}

	/**
	 * Where a query without {@code from} starts, as Spring XD chose: 59 minutes, 23 hours, 6 days, 11 months or 4 years
	 * before {@code to} (so that 60 minutes, 24 hours, a week, a year or 5 years show).
	 */
	public Instant defaultFrom(Instant to) {
		return to.atZone(ZoneOffset.UTC).minus(this.defaultSpan, this.unit).toInstant();
	}

	/**
	 * The starts of the buckets from the one holding {@code from} to the one holding {@code to}, both included.
	 * @throws IllegalArgumentException when {@code to} is before {@code from} or there would be more than
	 * {@value #MAX_BUCKETS}
	 */
	public List<Instant> buckets(Instant from, Instant to) {
		if (to.isBefore(from)) {
			throw new IllegalArgumentException("'to' (" + to + ") is before 'from' (" + from + ")");
		}
		List<Instant> buckets = new ArrayList<>();
		Instant last = bucket(to);
		for (Instant bucket = bucket(from); !bucket.isAfter(last); bucket = next(bucket)) {
			if (buckets.size() == MAX_BUCKETS) {
				throw new IllegalArgumentException("From " + from + " to " + to + " holds more than " + MAX_BUCKETS
						+ " " + label() + " buckets: ask for a shorter span or a coarser resolution");
			}
			buckets.add(bucket);
		}
		return buckets;
	}
}
