package io.xd.modules.internal.metrics;

/**
 * A module that measures the end-to-end latency of the messages it receives (the {@code throughput} sink with
 * {@code --latency=true}); the container publishes what it reports as the meter {@code xd.module.latency}, one
 * time gauge per quantile, so that tools read the percentiles from Prometheus rather than from the module's log.
 */
public interface EndToEndLatency {

	/**
	 * The percentiles over every message received so far, or {@code null} when this instance does not measure
	 * latency. Thread-safe; may copy a histogram, so callers should not ask more often than they need.
	 */
	Percentiles endToEndLatency();

	/**
	 * Latency percentiles in nanoseconds.
	 * @param count messages whose latency was recorded
	 * @param p50Nanos the median
	 * @param p95Nanos the 95th percentile
	 * @param p99Nanos the 99th percentile
	 * @param p999Nanos the 99.9th percentile
	 * @param maxNanos the largest latency
	 */
	record Percentiles(long count, long p50Nanos, long p95Nanos, long p99Nanos, long p999Nanos, long maxNanos) {
	}
}
