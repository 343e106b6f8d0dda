package io.xd.bus.kafka;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

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
 * <p>
 * Per send this costs a plain increment on the sending thread, which alone writes the count of sends, and a striped
 * increment on the thread that completes it (the Kafka client's I/O thread); the callback given to the client is
 * made once per scope and producer callback, not per send, and no lock is taken. The waiting thread parks, and a
 * completion wakes it only while it waits.
 */
final class InFlightSends {

	private static final ThreadLocal<InFlightSends> CURRENT = new ThreadLocal<>();

	private static final VarHandle FAILURE;

	static {
		try {
			FAILURE = MethodHandles.lookup().findVarHandle(InFlightSends.class, "failure", Exception.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** Sends counted so far: written only by the thread that opened the scope. */
	private long started;

	private final LongAdder completed = new LongAdder();

	/** The first failure reported; set once. */
	private volatile Exception failure;

	/** The thread in {@link #awaitAll}, or {@code null}. */
	private volatile Thread waiter;

	/** The counting callback last handed out, and what it calls: one output binding is the common case. */
	private Callback lastThen;

	private Counting lastCounting;

	/** Further counting callbacks, for a module sending through several bindings; made when first needed. */
	private Map<Callback, Counting> others;

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
	 * Counts a send about to be made on the calling thread; returns the callback to give the producer (calling
	 * {@code then}, then counting the send as done), or {@code then} itself when the thread has no scope. The same
	 * callback instance is returned for every send of a scope with the same {@code then}.
	 */
	static Callback track(Callback then) {
		InFlightSends scope = CURRENT.get();
		if (scope == null) {
			return then;
		}
		scope.started++;
		return scope.counting(then);
	}

	private Callback counting(Callback then) {
		if (then == this.lastThen) {
			return this.lastCounting;
		}
		if (this.others == null) {
			this.others = new IdentityHashMap<>();
		}
		Counting counting = this.others.computeIfAbsent(then, Counting::new);
		this.lastThen = then;
		this.lastCounting = counting;
		return counting;
	}

	private void completed(Exception exception) {
		if (exception != null) {
			FAILURE.compareAndSet(this, null, exception);
		}
		// the increment is a full fence: the waiter either sees it, or is seen here and woken
		this.completed.increment();
		Thread waiting = this.waiter;
		if (waiting != null) {
			LockSupport.unpark(waiting);
		}
	}

	/**
	 * Whether every send counted in this scope has been acknowledged or has failed, without waiting. Called by the
	 * thread that opened the scope.
	 */
	boolean isDone() {
		return this.completed.sum() >= this.started;
	}

	/**
	 * Waits until every send counted in this scope has been acknowledged or has failed. Called by the thread that
	 * opened the scope (or by one that the sends happened before).
	 * @throws IllegalStateException when one failed, when they are not all done within {@code timeout}, or when
	 * the thread is interrupted (its interrupt status is kept)
	 */
	void awaitAll(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		if (this.completed.sum() < this.started) {
			this.waiter = Thread.currentThread();
			try {
				long pending;
				while ((pending = this.started - this.completed.sum()) > 0) {
					long left = deadline - System.nanoTime();
					if (left <= 0) {
						throw new IllegalStateException(pending + " send(s) of the module were not acknowledged within "
								+ timeout.toSeconds() + " s; the records that caused them will be delivered again");
					}
					if (Thread.currentThread().isInterrupted()) {
						throw new IllegalStateException(
								"Interrupted while waiting for the module's sends to be acknowledged");
					}
					LockSupport.parkNanos(this, left);
				}
			}
			finally {
				this.waiter = null;
			}
		}
		Exception failed = this.failure;
		if (failed != null) {
			throw new IllegalStateException("A send of the module failed: " + failed.getMessage()
					+ "; the records that caused it will be delivered again", failed);
		}
	}

	/** Calls the producer binding's callback, then counts the send as done in this scope. */
	private final class Counting implements Callback {

		private final Callback then;

		Counting(Callback then) {
			this.then = then;
		}

		@Override
		public void onCompletion(RecordMetadata metadata, Exception exception) {
			try {
				this.then.onCompletion(metadata, exception);
			}
			finally {
				completed(exception);
			}
		}
	}
}
