package io.xd.modules.analytics;

import java.time.Instant;
import java.util.Map;

/**
 * The counts of an aggregate counter per bucket over a span of time.
 *
 * @param name the counter's name
 * @param resolution the size of the buckets
 * @param total everything the counter counted, whenever
 * @param counts the count of each bucket from the first asked for to the last, in time order, zeros included; a
 * bucket older than the store keeps its resolution counts 0
 */
public record AggregateCounts(String name, Resolution resolution, long total, Map<Instant, Long> counts) {
}
