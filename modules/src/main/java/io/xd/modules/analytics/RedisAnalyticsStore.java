package io.xd.modules.analytics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * An {@link AnalyticsStore} in Redis, for a cluster: every container (and the admin) that points at the same Redis
 * adds to the same counters. Each update is one Lua script, so it is atomic and takes one round trip: a counter is
 * {@code INCRBY}, a field-value counter {@code ZINCRBY} on a sorted set (its limit on distinct values checked in the
 * same script), an aggregate counter {@code HINCRBY} on hashes of buckets, one hash per day of minutes, per month of
 * hours and per year of days, each expiring when its last bucket's retention ends ({@code PEXPIREAT}), and a rich
 * gauge a hash computed in the script.
 * <p>
 * Keys, each after the prefix (by default {@code xd.analytics.}): {@code names.<kind>} (a set of the names of each
 * kind), {@code counters.<name>}, {@code fieldvaluecounters.<name>}, {@code aggregatecounters.<name>.total},
 * {@code aggregatecounters.<name>.<resolution>.<period>} (with {@code aggregatecounters.<name>.keys}, the set of those
 * hashes), {@code gauges.<name>}, {@code richgauges.<name>}. One connection, shared by every thread (Lettuce's
 * connections are thread-safe); a call blocks until Redis answers or the client's timeout passes, then throws.
 */
public final class RedisAnalyticsStore implements AnalyticsStore, AutoCloseable {

	private static final Script INCREMENT = new Script("""
			redis.call('SADD', KEYS[1], ARGV[1])
			return redis.call('INCRBY', KEYS[2], ARGV[2])""");

	private static final Script FIELD_VALUE = new Script("""
			redis.call('SADD', KEYS[1], ARGV[1])
			local member = ARGV[2]
			if not redis.call('ZSCORE', KEYS[2], member) and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
			  member = ARGV[5]
			end
			redis.call('ZINCRBY', KEYS[2], ARGV[3], member)
			return 1""");

	/** KEYS: names, total, keys set, then the bucket hashes; ARGV: name, delta, then field and deadline per hash. */
	private static final Script AGGREGATE = new Script("""
			redis.call('SADD', KEYS[1], ARGV[1])
			redis.call('INCRBY', KEYS[2], ARGV[2])
			for i = 4, #KEYS do
			  local field = ARGV[(i - 4) * 2 + 3]
			  local deadline = tonumber(ARGV[(i - 4) * 2 + 4])
			  redis.call('HINCRBY', KEYS[i], field, ARGV[2])
			  redis.call('SADD', KEYS[3], KEYS[i])
			  if deadline > 0 then redis.call('PEXPIREAT', KEYS[i], deadline) end
			end
			return 1""");

	private static final Script GAUGE = new Script("""
			redis.call('SADD', KEYS[1], ARGV[1])
			redis.call('SET', KEYS[2], ARGV[2])
			return 1""");

	/** The arithmetic of {@link RichGauge#record}, in Lua (whose numbers are doubles too). */
	private static final Script RICH_GAUGE = new Script("""
			redis.call('SADD', KEYS[1], ARGV[1])
			local v = tonumber(ARGV[2])
			local alpha = tonumber(ARGV[3])
			local old = redis.call('HMGET', KEYS[2], 'average', 'max', 'min', 'count')
			local count = tonumber(old[4]) or 0
			local average, max, min = v, v, v
			if count > 0 then
			  local a = tonumber(old[1])
			  max = math.max(tonumber(old[2]), v)
			  min = math.min(tonumber(old[3]), v)
			  if alpha < 0 then average = a + (v - a) / (count + 1) else average = alpha * v + (1 - alpha) * a end
			end
			count = count + 1
			local result = { ARGV[2], ARGV[3], string.format('%.17g', average), string.format('%.17g', max),
			  string.format('%.17g', min), tostring(count) }
			redis.call('HSET', KEYS[2], 'value', result[1], 'alpha', result[2], 'average', result[3], 'max', result[4],
			  'min', result[5], 'count', result[6])
			return result""");

	private static final String[] RICH_FIELDS = { "value", "alpha", "average", "max", "min", "count" };

	private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

	private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyyMM");

	private static final DateTimeFormatter YEAR = DateTimeFormatter.ofPattern("yyyy");

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisCommands<String, String> redis;

	private final String prefix;

	private final AnalyticsLimits limits;

	private final Clock clock;

	/**
	 * Connects to Redis.
	 * @param uri where Redis is, with its password, database and timeout
	 * @param prefix put before every key, such as {@code xd.analytics.}
	 * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached
	 */
	public RedisAnalyticsStore(RedisURI uri, String prefix, AnalyticsLimits limits, Clock clock) {
		this.client = RedisClient.create(uri);
		try {
			this.connection = this.client.connect();
		}
		catch (RuntimeException ex) {
			this.client.shutdown();
			throw ex;
		}
		this.redis = this.connection.sync();
		this.prefix = prefix;
		this.limits = limits;
		this.clock = clock;
	}

	@Override
	public long incrementCounter(String name, long delta) {
		Long value = run(INCREMENT, ScriptOutputType.INTEGER, keys(namesKey(MetricKind.COUNTER), key("counters.", name)),
				name, Long.toString(delta));
		return value;
	}

	@Override
	public OptionalLong counter(String name) {
		String value = this.redis.get(key("counters.", name));
		return (value == null) ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
	}

	@Override
	public void incrementFieldValue(String name, String value, double delta) {
		run(FIELD_VALUE, ScriptOutputType.INTEGER, keys(namesKey(MetricKind.FIELD_VALUE_COUNTER),
				key("fieldvaluecounters.", name)), name, this.limits.fieldValue(value), Double.toString(delta),
				Integer.toString(this.limits.maxFieldValues()), OTHER);
	}

	@Override
	public Optional<Map<String, Double>> fieldValueCounts(String name) {
		String key = key("fieldvaluecounters.", name);
		List<ScoredValue<String>> values = this.redis.zrangeWithScores(key, 0, -1);
		if (values.isEmpty() && !exists(MetricKind.FIELD_VALUE_COUNTER, name)) {
			return Optional.empty();
		}
		List<Map.Entry<String, Double>> entries = new ArrayList<>();
		values.forEach(value -> entries.add(Map.entry(value.getValue(), value.getScore())));
		return Optional.of(MemoryAnalyticsStore.highestFirst(entries));
	}

	@Override
	public void incrementAggregate(String name, Instant time, long delta) {
		String base = key("aggregatecounters.", name);
		Instant now = this.clock.instant();
		List<String> keys = new ArrayList<>(List.of(namesKey(MetricKind.AGGREGATE_COUNTER), base + ".total", base + ".keys"));
		List<String> args = new ArrayList<>(List.of(name, Long.toString(delta)));
		for (Resolution resolution : Resolution.values()) {
			Instant bucket = resolution.bucket(time);
			Instant expiry = this.limits.expiry(resolution, bucket);
			if (expiry != null && !expiry.isAfter(now)) {
				continue;
			}
			keys.add(bucketKey(base, resolution, bucket));
			args.add(Long.toString(bucket.toEpochMilli()));
			Instant deadline = periodDeadline(resolution, bucket);
			args.add((deadline == null) ? "0" : Long.toString(deadline.toEpochMilli()));
		}
		run(AGGREGATE, ScriptOutputType.INTEGER, keys.toArray(String[]::new), args.toArray(String[]::new));
	}

	/** The hash that holds a bucket: minutes by day, hours by month, days by year, months and years in one each. */
	private static String bucketKey(String base, Resolution resolution, Instant bucket) {
		ZonedDateTime utc = bucket.atZone(ZoneOffset.UTC);
		String period = switch (resolution) {
			case MINUTE -> DAY.format(utc);
			case HOUR -> MONTH.format(utc);
			case DAY -> YEAR.format(utc);
			case MONTH, YEAR -> "all";
		};
		return base + "." + resolution.label() + "." + period;
	}

	/** When the hash holding {@code bucket} may go: the retention after its last bucket ends; null for never. */
	private Instant periodDeadline(Resolution resolution, Instant bucket) {
		ZonedDateTime utc = bucket.atZone(ZoneOffset.UTC);
		ZonedDateTime end = switch (resolution) {
			case MINUTE -> utc.plusDays(1);
			case HOUR -> utc.withDayOfMonth(1).plusMonths(1);
			case DAY -> utc.withDayOfYear(1).plusYears(1);
			case MONTH, YEAR -> null;
		};
		return (end == null) ? null : end.toInstant().plus(this.limits.retention(resolution));
	}

	@Override
	public Optional<AggregateCounts> aggregateCounts(String name, Resolution resolution, Instant from, Instant to) {
		List<Instant> wanted = resolution.buckets(from, to);
		String base = key("aggregatecounters.", name);
		String total = this.redis.get(base + ".total");
		if (total == null && !exists(MetricKind.AGGREGATE_COUNTER, name)) {
			return Optional.empty();
		}
		Map<String, List<Instant>> byHash = new LinkedHashMap<>();
		wanted.forEach(bucket -> byHash.computeIfAbsent(bucketKey(base, resolution, bucket), key -> new ArrayList<>())
			.add(bucket));
		Map<Instant, Long> counts = new LinkedHashMap<>();
		byHash.forEach((hash, buckets) -> {
			String[] fields = buckets.stream().map(bucket -> Long.toString(bucket.toEpochMilli())).toArray(String[]::new);
			List<KeyValue<String, String>> values = this.redis.hmget(hash, fields);
			for (int i = 0; i < buckets.size(); i++) {
				KeyValue<String, String> value = values.get(i);
				counts.put(buckets.get(i), value.hasValue() ? Long.parseLong(value.getValue()) : 0L);
			}
		});
		return Optional.of(new AggregateCounts(name, resolution, (total == null) ? 0 : Long.parseLong(total),
				Collections.unmodifiableMap(counts)));
	}

	@Override
	public void setGauge(String name, long value) {
		run(GAUGE, ScriptOutputType.INTEGER, keys(namesKey(MetricKind.GAUGE), key("gauges.", name)), name,
				Long.toString(value));
	}

	@Override
	public OptionalLong gauge(String name) {
		String value = this.redis.get(key("gauges.", name));
		return (value == null) ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value));
	}

	@Override
	public RichGauge recordRichGauge(String name, double value, double alpha) {
		RichGauge.checkAlpha(alpha);
		List<Object> result = run(RICH_GAUGE, ScriptOutputType.MULTI,
				keys(namesKey(MetricKind.RICH_GAUGE), key("richgauges.", name)), name, Double.toString(value),
				Double.toString(alpha));
		return richGauge(result.stream().map(item -> (item instanceof byte[] bytes)
				? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(item)).toList());
	}

	@Override
	public Optional<RichGauge> richGauge(String name) {
		List<KeyValue<String, String>> values = this.redis.hmget(key("richgauges.", name), RICH_FIELDS);
		if (values.stream().anyMatch(value -> !value.hasValue())) {
			return Optional.empty();
		}
		return Optional.of(richGauge(values.stream().map(KeyValue::getValue).toList()));
	}

	private static RichGauge richGauge(List<String> fields) {
		return new RichGauge(Double.parseDouble(fields.get(0)), Double.parseDouble(fields.get(1)),
				Double.parseDouble(fields.get(2)), Double.parseDouble(fields.get(3)), Double.parseDouble(fields.get(4)),
				Long.parseLong(fields.get(5)));
	}

	@Override
	public List<String> names(MetricKind kind) {
		return this.redis.smembers(namesKey(kind)).stream().sorted().toList();
	}

	@Override
	public boolean delete(MetricKind kind, String name) {
		MetricNames.check(name);
		boolean existed = this.redis.srem(namesKey(kind), name) > 0;
		List<String> keys = new ArrayList<>();
		switch (kind) {
			case COUNTER -> keys.add(key("counters.", name));
			case FIELD_VALUE_COUNTER -> keys.add(key("fieldvaluecounters.", name));
			case AGGREGATE_COUNTER -> {
				String base = key("aggregatecounters.", name);
				Set<String> hashes = this.redis.smembers(base + ".keys");
				keys.addAll(hashes);
				keys.add(base + ".total");
				keys.add(base + ".keys");
			}
			case GAUGE -> keys.add(key("gauges.", name));
			case RICH_GAUGE -> keys.add(key("richgauges.", name));
		}
		this.redis.del(keys.toArray(String[]::new));
		return existed;
	}

	private boolean exists(MetricKind kind, String name) {
		return this.redis.sismember(namesKey(kind), name);
	}

	private String namesKey(MetricKind kind) {
		return this.prefix + "names." + kind.path();
	}

	private String key(String kind, String name) {
		return this.prefix + kind + MetricNames.check(name);
	}

	private static String[] keys(String... keys) {
		return keys;
	}

	/** Runs a script by its digest, sending its text only when Redis does not know it yet. */
	private <T> T run(Script script, ScriptOutputType type, String[] keys, String... args) {
		try {
			return this.redis.evalsha(script.sha, type, keys, args);
		}
		catch (RedisNoScriptException ex) {
			return this.redis.eval(script.text, type, keys, args);
		}
	}

	/** Closes the connection. */
	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

	private record Script(String text, String sha) {

		Script(String text) {
			this(text, sha1(text));
		}

		private static String sha1(String text) {
			try {
				return HexFormat.of()
					.formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
			}
			catch (NoSuchAlgorithmException ex) {
				throw new IllegalStateException(ex);
			}
		}
	}
}
