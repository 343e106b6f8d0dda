package io.xd.server.analytics;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisURI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleServices;
import io.xd.modules.analytics.AnalyticsLimits;
import io.xd.modules.analytics.AnalyticsStore;
import io.xd.modules.analytics.MemoryAnalyticsStore;
import io.xd.modules.analytics.RedisAnalyticsStore;
import io.xd.server.XdMode;

/**
 * The analytics store of this process ({@code xd.analytics.store}): the container offers it to its modules as a
 * {@link ModuleServices} service (the analytics sinks count in it) and the admin's {@code /metrics/...} API reads it.
 * In singlenode both are the same bean; in a cluster, admins and containers share a Redis.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AnalyticsProperties.class)
public class AnalyticsConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(AnalyticsConfiguration.class);

	/**
	 * The store. A memory store reads its snapshot here and writes its last one when the context closes; a Redis
	 * store's connection closes then.
	 */
	@Bean(destroyMethod = "close")
	public AnalyticsStore analyticsStore(AnalyticsProperties properties, @Value("${xd.data.dir}") Path dataDirectory,
			HostAccess hostAccess, Environment environment) {
		AnalyticsLimits limits = new AnalyticsLimits(properties.getMaxFieldValues(),
				properties.getMaxFieldValueLength(), properties.getRetention().getMinutes(),
				properties.getRetention().getHours(), properties.getRetention().getDays());
		switch (properties.getStore()) {
			case "memory" -> {
				if (!environment.matchesProfiles(XdMode.SINGLENODE.profile())) {
					logger.warn("xd.analytics.store is memory in a separate admin or container: the admin shows only "
							+ "its own process's analytics; set xd.analytics.store: redis on every admin and container");
				}
				MemoryAnalyticsStore store = new MemoryAnalyticsStore(
						dataDirectory.resolve("analytics").resolve("snapshot.json"), limits, Clock.systemUTC());
				store.load();
				return store;
			}
			case "redis" -> {
				return new RedisAnalyticsStore(redisUri(properties.getRedis(), hostAccess),
						properties.getRedis().getPrefix(), limits, Clock.systemUTC());
			}
			default -> throw new IllegalStateException("xd.analytics.store must be memory or redis, not '"
					+ properties.getStore() + "'");
		}
	}

	/** Writes a memory store's snapshot every {@code xd.analytics.snapshot-interval} when something changed. */
	@Bean(destroyMethod = "close")
	public SnapshotWriter analyticsSnapshotWriter(AnalyticsStore analyticsStore, AnalyticsProperties properties) {
		return new SnapshotWriter((analyticsStore instanceof MemoryAnalyticsStore memory) ? memory : null,
				properties.getSnapshotInterval());
	}

	/** The Redis to use: the declared connection if one is named, else the host, port and password given. */
	static RedisURI redisUri(AnalyticsProperties.Redis redis, HostAccess hostAccess) {
		String host = redis.getHost();
		int port = redis.getPort();
		String password = redis.getPassword();
		boolean tls = false;
		if (!redis.getConnection().isBlank()) {
			Connection connection = hostAccess.connection("xd.analytics.redis.connection", redis.getConnection());
			host = connection.host();
			port = connection.portOr(6379);
			password = connection.password();
			tls = connection.tls();
		}
		RedisURI.Builder uri = RedisURI.builder()
			.withHost(host)
			.withPort(port)
			.withDatabase(redis.getDatabase())
			.withSsl(tls)
			.withTimeout(redis.getTimeout());
		if (password != null && !password.isEmpty()) {
			uri.withPassword(password.toCharArray());
		}
		return uri.build();
	}

	/** What modules get from the container: the analytics store. */
	@Bean
	public ModuleServices moduleServices(AnalyticsStore analyticsStore) {
		return ModuleServices.NONE.with(AnalyticsStore.class, analyticsStore);
	}

	/** Writes a memory store's snapshot periodically, from one daemon thread; does nothing for other stores. */
	public static final class SnapshotWriter implements AutoCloseable {

		private final MemoryAnalyticsStore store;

		private final ScheduledExecutorService writer;

		SnapshotWriter(MemoryAnalyticsStore store, Duration interval) {
			this.store = store;
			if (store == null) {
				this.writer = null;
				return;
			}
			this.writer = Executors.newSingleThreadScheduledExecutor(task -> {
				Thread thread = new Thread(task, "xd-analytics-snapshot");
				thread.setDaemon(true);
				return thread;
			});
			long millis = Math.max(100, interval.toMillis());
			this.writer.scheduleWithFixedDelay(this::save, millis, millis, TimeUnit.MILLISECONDS);
		}

		private void save() {
			try {
				this.store.saveIfChanged();
			}
			catch (RuntimeException ex) {
				// the values stay in memory; tried again at the next interval and at shutdown
				logger.warn("{}", ex.getMessage(), ex);
			}
		}

		/** Stops the writer; the store writes its last snapshot when it closes, after this. */
		@Override
		public void close() throws InterruptedException {
			if (this.writer != null) {
				this.writer.shutdown();
				this.writer.awaitTermination(10, TimeUnit.SECONDS);
			}
		}
	}
}
