package io.xd.benchmarks;

import java.util.function.Consumer;

import io.xd.modules.internal.metrics.MessageCounter;

/**
 * The baseline of the direct-binding benchmarks: what {@code load-generator | throughput} does with no framework, a
 * loop allocating a new payload per message and handing it through a {@link Consumer} to a {@link MessageCounter},
 * as the {@code throughput} sink counts. Not thread-safe: one per benchmark state.
 */
final class PlainCallChain {

	private final MessageCounter counter = new MessageCounter();

	private final Consumer<byte[]> sink = payload -> this.counter.record(payload.length);

	/** Sends {@code messages} new payloads of {@code size} bytes down the chain. */
	void run(int messages, int size) {
		for (int i = 0; i < messages; i++) {
			this.sink.accept(new byte[size]);
		}
	}

	/** Messages counted so far. */
	long counted() {
		return this.counter.messages();
	}
}
