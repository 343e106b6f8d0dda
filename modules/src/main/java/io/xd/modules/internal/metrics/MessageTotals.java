package io.xd.modules.internal.metrics;

/**
 * Totals of a count of messages, read while counting goes on: what a {@link MessageCounter} keeps, and what the
 * container's meters keep of a module's input ({@link CountedInput}). Each total is a lower bound of the messages
 * counted, never an overcount.
 */
public interface MessageTotals {

	/** Messages counted so far. */
	long messages();

	/** Payload bytes counted so far. */
	long bytes();

	/** {@link System#nanoTime()} when the first message was counted, or 0 before that. */
	long firstCountNanos();
}
