package io.xd.modules;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Counts messages and bytes from any number of threads without allocating and without contended atomic
 * operations on the counting path: cheap enough for a module's hot path (the {@code throughput} sink, the
 * container's module meters).
 * <p>
 * Each counting thread owns a cell that only it writes (with opaque stores, so a reader never sees a torn value
 * and the JIT cannot fold repeated increments away); readers sum the cells. A thread's cell is found through a
 * one-entry cache that is right for the common case of a single producer thread, and through a
 * {@link ThreadLocal} otherwise. Totals read while threads are counting are a consistent lower bound, never an
 * overcount.
 */
public final class MessageCounter {

	private static final VarHandle MESSAGES;

	private static final VarHandle BYTES;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.lookup();
			MESSAGES = lookup.findVarHandle(Cell.class, "messages", long.class);
			BYTES = lookup.findVarHandle(Cell.class, "bytes", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final ThreadLocal<Cell> cells = ThreadLocal.withInitial(this::register);

	private volatile Cell[] all = new Cell[0];

	/** The last thread's cell: written racily, but a cell's owner is final, so a stale value is merely a miss. */
	private Cell cached;

	private volatile boolean sharedByThreads;

	private volatile long firstCountNanos;

	/** Counts one message of {@code bytes} bytes (0 when the size is unknown) for the calling thread. */
	public void record(long bytes) {
		Cell cell = this.cached;
		if (cell == null || cell.owner != Thread.currentThread()) {
			cell = cellOfCurrentThread();
		}
		MESSAGES.setOpaque(cell, (long) MESSAGES.getOpaque(cell) + 1);
		BYTES.setOpaque(cell, (long) BYTES.getOpaque(cell) + bytes);
	}

	private Cell cellOfCurrentThread() {
		Cell cell = this.cells.get();
		if (!this.sharedByThreads) {
			this.cached = cell;
		}
		return cell;
	}

	private synchronized Cell register() {
		Cell cell = new Cell(Thread.currentThread());
		Cell[] grown = Arrays.copyOf(this.all, this.all.length + 1);
		grown[grown.length - 1] = cell;
		if (grown.length == 1) {
			this.firstCountNanos = System.nanoTime();
		}
		else {
			this.sharedByThreads = true;
		}
		this.all = grown;
		return cell;
	}

	/** Messages counted so far by all threads. */
	public long messages() {
		long sum = 0;
		for (Cell cell : this.all) {
			sum += (long) MESSAGES.getOpaque(cell);
		}
		return sum;
	}

	/** Bytes counted so far by all threads. */
	public long bytes() {
		long sum = 0;
		for (Cell cell : this.all) {
			sum += (long) BYTES.getOpaque(cell);
		}
		return sum;
	}

	/** {@link System#nanoTime()} when the first message was counted, or 0 before that. */
	public long firstCountNanos() {
		return this.firstCountNanos;
	}

	/** How many threads have counted so far. */
	public int threads() {
		return this.all.length;
	}

	/** One thread's counts, padded so that two producers' cells do not share a cache line. */
	@SuppressWarnings("unused")
	static final class Cell {

		long p01, p02, p03, p04, p05, p06, p07;

		final Thread owner;

		long messages;

		long bytes;

		long p11, p12, p13, p14, p15, p16, p17;

		Cell(Thread owner) {
			this.owner = owner;
		}
	}
}
