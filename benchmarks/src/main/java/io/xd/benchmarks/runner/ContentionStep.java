package io.xd.benchmarks.runner;

import java.util.Map;

/**
 * One step of the contention suite: a mode at one offered rate.
 *
 * @param mode {@link ContentionSuite#ALONE} or {@link ContentionSuite#CONTENDED}
 * @param rate the offered rate, msg/s
 * @param achieved what the stream delivered end to end, msg/s
 * @param latency the stream's p50, p99 and p99.9 in microseconds
 * @param database the database path (null alone)
 * @param cpu each component's share of the machine, percent, then other and idle
 * @param verdict why the step does not sustain the rate, or empty when it does
 */
record ContentionStep(String mode, int rate, Figure achieved, Map<String, Figure> latency, DatabasePath database,
		Map<String, Figure> cpu, String verdict) {

	boolean sustained() {
		return this.verdict.isEmpty();
	}
}
