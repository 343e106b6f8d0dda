package io.xd.bus.kafka;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The sends a consumer thread's module made while handling one poll's records, so that the poll's offsets are
 * committed only once those sends are acknowledged: a module that forwards a record and whose container dies right
 * after the commit must not leave the forwarded copy in a producer buffer that dies with it.
 * <p>
 * A consumer thread opens a scope before handling a poll and {@link #awaitAll awaits} it before its offsets are
 * committed; a producer binding that sends on that thread counts the send in the scope. Sends from threads without a
 * scope (sources) are not counted.
 */
final class InFlightSends {

	private static final ThreadLocal<InFlightSends> CURRENT = new ThreadLocal<>();

	private int pending;

	private Exception failure;

	private InFlightSends() {
	}

	/** Opens a scope on the calling thread, replacing any earlier one. */
	static InFlightSends open() {
		InFlightSends scope = new InFlightSends();
		CURRENT.set(scope);
		return scope;
	}

	/** Closes the calling thread's scope. */
	static void close() {
		CURRENT.remove();
	}

	/**
	 * Counts a send about to be made on the calling thread; returns the callback to give the producer (counting it
	 * down, then calling {@code then}), or {@code then} itself when the thread has no scope.
	 */
	static Callback track(Callback then) {
		InFlightSends scope = CURRENT.get();
		if (scope == null) {
			return then;
		}
		scope.started();
		return (RecordMetadata metadata, Exception exception) -> {
			try {
				then.onCompletion(metadata, exception);
			}
			finally {
				scope.completed(exception);
			}
		};
	}

	private synchronized void started() {
		this.pending++;
	}

	private synchronized void completed(Exception exception) {
		if (exception != null && this.failure == null) {
			this.failure = exception;
		}
		this.pending--;
		if (this.pending == 0) {
			notifyAll();
		}
	}

	/**
	 * Waits until every send counted in this scope has been acknowledged or has failed.
	 * @throws IllegalStateException when one failed, when they are not all done within {@code timeout}, or when
	 * the thread is interrupted (its interrupt status is kept)
	 */
	synchronized void awaitAll(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (this.pending > 0) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw new IllegalStateException(this.pending + " send(s) of the module were not acknowledged within "
						+ timeout.toSeconds() + " s; the records that caused them will be delivered again");
			}
			try {
				TimeUnit.NANOSECONDS.timedWait(this, left);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for the module's sends to be acknowledged",
						ex);
			}
		}
		if (this.failure != null) {
			throw new IllegalStateException("A send of the module failed: " + this.failure.getMessage()
					+ "; the records that caused it will be delivered again", this.failure);
		}
	}
}
