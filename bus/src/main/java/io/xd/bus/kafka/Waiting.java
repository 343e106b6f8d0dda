package io.xd.bus.kafka;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waiting for a condition that other threads make true, checked every few milliseconds. */
final class Waiting {

	private Waiting() {
	}

	/**
	 * Checks {@code condition} every {@code pause} until it holds or {@code timeout} has passed.
	 * @return whether it held in time; {@code false} also when the waiting thread was interrupted (its interrupt
	 * flag is set again)
	 */
	static boolean until(BooleanSupplier condition, Duration timeout, Duration pause) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			try {
				TimeUnit.NANOSECONDS.sleep(pause.toNanos());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}
}
