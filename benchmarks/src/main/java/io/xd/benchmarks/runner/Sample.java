package io.xd.benchmarks.runner;

/**
 * A counter read at one moment: a module meter or the sum of a topic's end offsets.
 *
 * @param nanos when it was read, {@link System#nanoTime()} at the middle of the request
 * @param count the counter's value
 */
record Sample(long nanos, long count) {
}
