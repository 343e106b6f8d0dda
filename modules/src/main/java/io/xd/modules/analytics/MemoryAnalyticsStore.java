package io.xd.modules.analytics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An {@link AnalyticsStore} in this JVM's memory, for singlenode: updates cost no I/O. With a snapshot file, what it
 * holds survives a restart: {@link #load()} reads the file at start, {@link #saveIfChanged()} (called periodically
 * by the server, and at {@link #close()}) writes the whole store as JSON to a temporary file beside it and moves it in
 * place atomically, so that a crash leaves either the old or the new snapshot, never half of one. Updates after the
 * last snapshot are lost by a crash (not by an orderly shutdown).
 */
public final class MemoryAnalyticsStore implements AnalyticsStore, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(MemoryAnalyticsStore.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final int FORMAT = 1;

	private final Path snapshot;

	private final AnalyticsLimits limits;

	private final Clock clock;

	private final ConcurrentMap<String, AtomicLong> counters = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, ConcurrentMap<String, DoubleAdder>> fieldValues = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, Aggregate> aggregates = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, AtomicLong> gauges = new ConcurrentHashMap<>();

	private final ConcurrentMap<String, RichGauge> richGauges = new ConcurrentHashMap<>();

	/** Counts changes, so that a snapshot is written only when something changed since the last. */
	private final AtomicLong changes = new AtomicLong();

	private long saved = 0;

	/**
	 * @param snapshot the snapshot file, or null to keep nothing across restarts
	 * @param limits how much to keep
	 * @param clock what "now" is, for the retention of aggregate counter buckets
	 */
	public MemoryAnalyticsStore(Path snapshot, AnalyticsLimits limits, Clock clock) {
		this.snapshot = snapshot;
		this.limits = limits;
		this.clock = clock;
	}

	/** A store without a snapshot, with the default limits. */
	public MemoryAnalyticsStore() {
		this(null, AnalyticsLimits.DEFAULTS, Clock.systemUTC());
	}

	@Override
	public long incrementCounter(String name, long delta) {
		long value = this.counters.computeIfAbsent(MetricNames.check(name), key -> new AtomicLong()).addAndGet(delta);
		this.changes.incrementAndGet();
		return value;
	}

	@Override
	public OptionalLong counter(String name) {
		AtomicLong counter = this.counters.get(name);
		return (counter == null) ? OptionalLong.empty() : OptionalLong.of(counter.get());
	}

	@Override
	public void incrementFieldValue(String name, String value, double delta) {
		ConcurrentMap<String, DoubleAdder> counts = this.fieldValues.computeIfAbsent(MetricNames.check(name),
				key -> new ConcurrentHashMap<>());
		String counted = this.limits.fieldValue(value);
		DoubleAdder count = counts.get(counted);
		if (count == null) {
			// concurrent new values may pass the limit by as many as there are threads adding; no more
			String kept = (counts.size() < this.limits.maxFieldValues()) ? counted : OTHER;
			count = counts.computeIfAbsent(kept, key -> new DoubleAdder());
		}
		count.add(delta);
		this.changes.incrementAndGet();
	}

	@Override
	public Optional<Map<String, Double>> fieldValueCounts(String name) {
		Map<String, DoubleAdder> counts = this.fieldValues.get(name);
		if (counts == null) {
			return Optional.empty();
		}
		List<Map.Entry<String, Double>> entries = new ArrayList<>();
		counts.forEach((value, count) -> entries.add(Map.entry(value, count.sum())));
		return Optional.of(highestFirst(entries));
	}

	/** Counts by value, highest first, then by value. */
	static Map<String, Double> highestFirst(List<Map.Entry<String, Double>> entries) {
		entries.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
		Map<String, Double> sorted = new LinkedHashMap<>();
		entries.forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
		return Collections.unmodifiableMap(sorted);
	}

	@Override
	public void incrementAggregate(String name, Instant time, long delta) {
		Aggregate aggregate = this.aggregates.computeIfAbsent(MetricNames.check(name), key -> new Aggregate());
		Instant now = this.clock.instant();
		synchronized (aggregate) {
			aggregate.total += delta;
			for (Resolution resolution : Resolution.values()) {
				Instant bucket = resolution.bucket(time);
				Instant expiry = this.limits.expiry(resolution, bucket);
				if (expiry != null && !expiry.isAfter(now)) {
					continue;
				}
				NavigableMap<Long, Long> buckets = aggregate.buckets.get(resolution);
				if (buckets.merge(bucket.toEpochMilli(), delta, Long::sum) == delta && expiry != null) {
					// a new bucket: drop those past their retention
					prune(buckets, resolution, now);
				}
			}
		}
		this.changes.incrementAndGet();
	}

	private void prune(NavigableMap<Long, Long> buckets, Resolution resolution, Instant now) {
		while (!buckets.isEmpty()) {
			Instant expiry = this.limits.expiry(resolution, Instant.ofEpochMilli(buckets.firstKey()));
			if (expiry.isAfter(now)) {
				return;
			}
			buckets.pollFirstEntry();
		}
	}

	@Override
	public Optional<AggregateCounts> aggregateCounts(String name, Resolution resolution, Instant from, Instant to) {
		List<Instant> wanted = resolution.buckets(from, to);
		Aggregate aggregate = this.aggregates.get(name);
		if (aggregate == null) {
			return Optional.empty();
		}
		Map<Instant, Long> counts = new LinkedHashMap<>();
		long total;
		synchronized (aggregate) {
			total = aggregate.total;
			NavigableMap<Long, Long> buckets = aggregate.buckets.get(resolution);
			for (Instant bucket : wanted) {
				counts.put(bucket, buckets.getOrDefault(bucket.toEpochMilli(), 0L));
			}
		}
		return Optional.of(new AggregateCounts(name, resolution, total, Collections.unmodifiableMap(counts)));
	}

	@Override
	public void setGauge(String name, long value) {
		this.gauges.computeIfAbsent(MetricNames.check(name), key -> new AtomicLong()).set(value);
		this.changes.incrementAndGet();
	}

	@Override
	public OptionalLong gauge(String name) {
		AtomicLong gauge = this.gauges.get(name);
		return (gauge == null) ? OptionalLong.empty() : OptionalLong.of(gauge.get());
	}

	@Override
	public RichGauge recordRichGauge(String name, double value, double alpha) {
		RichGauge.checkAlpha(alpha);
		RichGauge gauge = this.richGauges.compute(MetricNames.check(name),
				(key, old) -> (old == null) ? RichGauge.first(value, alpha) : old.record(value, alpha));
		this.changes.incrementAndGet();
		return gauge;
	}

	@Override
	public Optional<RichGauge> richGauge(String name) {
		return Optional.ofNullable(this.richGauges.get(name));
	}

	@Override
	public List<String> names(MetricKind kind) {
		return map(kind).keySet().stream().sorted().toList();
	}

	@Override
	public boolean delete(MetricKind kind, String name) {
		boolean deleted = map(kind).remove(name) != null;
		if (deleted) {
			this.changes.incrementAndGet();
		}
		return deleted;
	}

	private Map<String, ?> map(MetricKind kind) {
		return switch (kind) {
			case COUNTER -> this.counters;
			case FIELD_VALUE_COUNTER -> this.fieldValues;
			case AGGREGATE_COUNTER -> this.aggregates;
			case GAUGE -> this.gauges;
			case RICH_GAUGE -> this.richGauges;
		};
	}

	/**
	 * Reads the snapshot file, if there is one, into this store (which should be empty: values are added).
	 * @throws UncheckedIOException when the file cannot be read or is not a snapshot, naming it
	 */
	public void load() {
		if (this.snapshot == null || !Files.exists(this.snapshot)) {
			return;
		}
		JsonNode root;
		try {
			root = JSON.readTree(Files.readAllBytes(this.snapshot));
		}
		catch (IOException | RuntimeException ex) {
			throw new UncheckedIOException(new IOException("The analytics snapshot " + this.snapshot
					+ " cannot be read (" + ex.getMessage() + "); move it away to start with empty analytics", ex));
		}
		root.path("counters").properties()
			.forEach(entry -> this.counters.put(entry.getKey(), new AtomicLong(entry.getValue().asLong())));
		root.path("fieldValueCounters").properties().forEach(counter -> {
			ConcurrentMap<String, DoubleAdder> counts = new ConcurrentHashMap<>();
			counter.getValue().properties().forEach(value -> {
				DoubleAdder count = new DoubleAdder();
				count.add(value.getValue().asDouble());
				counts.put(value.getKey(), count);
			});
			this.fieldValues.put(counter.getKey(), counts);
		});
		root.path("aggregateCounters").properties().forEach(counter -> {
			Aggregate aggregate = new Aggregate();
			aggregate.total = counter.getValue().path("total").asLong();
			for (Resolution resolution : Resolution.values()) {
				counter.getValue().path(resolution.label()).properties().forEach(bucket -> aggregate.buckets
					.get(resolution).put(Long.parseLong(bucket.getKey()), bucket.getValue().asLong()));
			}
			this.aggregates.put(counter.getKey(), aggregate);
		});
		root.path("gauges").properties()
			.forEach(entry -> this.gauges.put(entry.getKey(), new AtomicLong(entry.getValue().asLong())));
		root.path("richGauges").properties().forEach(entry -> {
			JsonNode gauge = entry.getValue();
			this.richGauges.put(entry.getKey(), new RichGauge(gauge.path("value").asDouble(),
					gauge.path("alpha").asDouble(), gauge.path("average").asDouble(), gauge.path("max").asDouble(),
					gauge.path("min").asDouble(), gauge.path("count").asLong()));
		});
		logger.info("Read the analytics snapshot {}: {} counters, {} field-value counters, {} aggregate counters, "
				+ "{} gauges, {} rich gauges", this.snapshot, this.counters.size(), this.fieldValues.size(),
				this.aggregates.size(), this.gauges.size(), this.richGauges.size());
	}

	/**
	 * Writes the snapshot if anything changed since the last one. Safe to call from any thread; calls are serialised.
	 * @return whether a snapshot was written
	 * @throws UncheckedIOException when it cannot be written
	 */
	public synchronized boolean saveIfChanged() {
		long seen = this.changes.get();
		if (this.snapshot == null || seen == this.saved) {
			return false;
		}
		ObjectNode root = JSON.createObjectNode();
		root.put("format", FORMAT);
		ObjectNode counterNode = root.putObject("counters");
		this.counters.forEach((name, value) -> counterNode.put(name, value.get()));
		ObjectNode fieldNode = root.putObject("fieldValueCounters");
		this.fieldValues.forEach((name, counts) -> {
			ObjectNode countsNode = fieldNode.putObject(name);
			counts.forEach((value, count) -> countsNode.put(value, count.sum()));
		});
		ObjectNode aggregateNode = root.putObject("aggregateCounters");
		this.aggregates.forEach((name, aggregate) -> {
			ObjectNode node = aggregateNode.putObject(name);
			synchronized (aggregate) {
				node.put("total", aggregate.total);
				aggregate.buckets.forEach((resolution, buckets) -> {
					ObjectNode bucketNode = node.putObject(resolution.label());
					buckets.forEach((start, count) -> bucketNode.put(Long.toString(start), count));
				});
			}
		});
		ObjectNode gaugeNode = root.putObject("gauges");
		this.gauges.forEach((name, value) -> gaugeNode.put(name, value.get()));
		ObjectNode richNode = root.putObject("richGauges");
		this.richGauges.forEach((name, gauge) -> {
			ObjectNode node = richNode.putObject(name);
			node.put("value", gauge.value());
			node.put("alpha", gauge.alpha());
			node.put("average", gauge.average());
			node.put("max", gauge.max());
			node.put("min", gauge.min());
			node.put("count", gauge.count());
		});
		try {
			Files.createDirectories(this.snapshot.getParent());
			Path temporary = this.snapshot.resolveSibling(this.snapshot.getFileName() + ".tmp");
			Files.write(temporary, JSON.writeValueAsBytes(root));
			try {
				Files.move(temporary, this.snapshot, StandardCopyOption.ATOMIC_MOVE,
						StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temporary, this.snapshot, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot write the analytics snapshot " + this.snapshot, ex);
		}
		this.saved = seen;
		return true;
	}

	/** Writes a last snapshot if anything changed. */
	@Override
	public void close() {
		saveIfChanged();
	}

	private static final class Aggregate {

		long total;

		final Map<Resolution, NavigableMap<Long, Long>> buckets = new EnumMap<>(Resolution.class);

		Aggregate() {
			for (Resolution resolution : Resolution.values()) {
				this.buckets.put(resolution, new TreeMap<>());
			}
		}
	}
}
