package io.xd.benchmarks.runner;

import java.util.Map;

/**
 * What reached PostgreSQL in one step of the contention suite (see {@link ContentionDatabase#awaitRows}).
 *
 * @param rows the rows the table holds
 * @param distinct the distinct sequence numbers among them
 * @param firstSeq the lowest sequence number (the load generator counts from 0)
 * @param lastSeq the highest
 * @param rate rows over the time from the first message's send to the last row's insert, msg/s
 * @param latency p50, p99 and p99.9 from a message's send to its row's insert, microseconds
 */
record DatabasePath(long rows, long distinct, long firstSeq, long lastSeq, Figure rate,
		Map<String, Figure> latency) {
}
