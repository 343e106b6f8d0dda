package io.xd.modules.internal.metrics;

/**
 * A module that reports counts of what it receives (the {@code throughput} sink) and, when a container runs it, reads
 * them from the container's input meters instead of counting every message a second time.
 * <p>
 * The container's meters count each message handed to the module before the module sees it, from every thread and
 * every binding the module's input has, and count its bytes as {@code xd.module.bytes.in} does: the length of a
 * {@code byte[]}, the length in characters of a {@code String}, 0 for other payloads.
 */
public interface CountedInput {

	/**
	 * Hands the module the container's counts of its input; called once, before the module starts and before any
	 * message arrives. A module whose context never calls this (run by a test or a benchmark without a container)
	 * counts for itself.
	 */
	void countedByContainer(MessageTotals input);
}
