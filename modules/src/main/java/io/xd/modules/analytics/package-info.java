/**
 * Spring XD's analytics: counters, field-value counters, aggregate counters, gauges and rich gauges, kept in an
 * {@link io.xd.modules.analytics.AnalyticsStore} that the analytics sinks write to and the admin's
 * {@code /metrics/...} API reads. Two stores: {@link io.xd.modules.analytics.MemoryAnalyticsStore} (singlenode,
 * with a snapshot in the data directory) and {@link io.xd.modules.analytics.RedisAnalyticsStore} (a cluster).
 */
package io.xd.modules.analytics;
