package io.xd.server.analytics;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the analytics (counters, field-value counters, aggregate counters, gauges, rich gauges) are kept
 * ({@code xd.analytics.*}), and how much of them.
 */
@ConfigurationProperties("xd.analytics")
public class AnalyticsProperties {

	/**
	 * {@code memory}: in the process, with a snapshot in {@code <xd.data.dir>/analytics/} (singlenode); {@code redis}:
	 * in Redis, shared by every container and admin that points at it (a cluster).
	 */
	private String store = "memory";

	/** How often the memory store writes its snapshot when something changed (and at shutdown). */
	private Duration snapshotInterval = Duration.ofSeconds(5);

	/** The most distinct values a field-value counter counts separately; newer ones are counted as _other. */
	private int maxFieldValues = 10_000;

	/** The longest value (in characters) a field-value counter counts separately; longer ones are counted as _other. */
	private int maxFieldValueLength = 1_000;

	private final Retention retention = new Retention();

	private final Redis redis = new Redis();

	public String getStore() {
		return this.store;
	}

	public void setStore(String store) {
		this.store = store;
	}

	public Duration getSnapshotInterval() {
		return this.snapshotInterval;
	}

	public void setSnapshotInterval(Duration snapshotInterval) {
		this.snapshotInterval = snapshotInterval;
	}

	public int getMaxFieldValues() {
		return this.maxFieldValues;
	}

	public void setMaxFieldValues(int maxFieldValues) {
		this.maxFieldValues = maxFieldValues;
	}

	public int getMaxFieldValueLength() {
		return this.maxFieldValueLength;
	}

	public void setMaxFieldValueLength(int maxFieldValueLength) {
		this.maxFieldValueLength = maxFieldValueLength;
	}

	public Retention getRetention() {
		return this.retention;
	}

	public Redis getRedis() {
		return this.redis;
	}

	/** How long an aggregate counter keeps its buckets (months and years: for ever). */
	public static class Retention {

		/** Per-minute buckets. */
		private Duration minutes = Duration.ofDays(2);

		/** Per-hour buckets. */
		private Duration hours = Duration.ofDays(60);

		/** Per-day buckets. */
		private Duration days = Duration.ofDays(1830);

		public Duration getMinutes() {
			return this.minutes;
		}

		public void setMinutes(Duration minutes) {
			this.minutes = minutes;
		}

		public Duration getHours() {
			return this.hours;
		}

		public void setHours(Duration hours) {
			this.hours = hours;
		}

		public Duration getDays() {
			return this.days;
		}

		public void setDays(Duration days) {
			this.days = days;
		}
	}

	/**
	 * The Redis of {@code xd.analytics.store: redis}: a declared connection ({@code connection}, naming one of
	 * {@code xd.connections.<name>}, whose host, port, password and tls are used), or host, port and password here.
	 */
	public static class Redis {

		/** The name of a connection declared as xd.connections.&lt;name&gt;; when set, host, port and password here are not read. */
		private String connection = "";

		/** The Redis server's host. */
		private String host = "localhost";

		/** The Redis server's port. */
		private int port = 6379;

		/** The password (Redis AUTH); empty for none. Never printed or logged. */
		private String password = "";

		/** The Redis database number. */
		private int database = 0;

		/** Put before every key XD writes, so that several XD clusters may share a Redis. */
		private String prefix = "xd.analytics.";

		/** How long a command may take before it fails. */
		private Duration timeout = Duration.ofSeconds(5);

		public String getConnection() {
			return this.connection;
		}

		public void setConnection(String connection) {
			this.connection = connection;
		}

		public String getHost() {
			return this.host;
		}

		public void setHost(String host) {
			this.host = host;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public int getDatabase() {
			return this.database;
		}

		public void setDatabase(int database) {
			this.database = database;
		}

		public String getPrefix() {
			return this.prefix;
		}

		public void setPrefix(String prefix) {
			this.prefix = prefix;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}
	}
}
