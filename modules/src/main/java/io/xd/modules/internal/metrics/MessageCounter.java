package io.xd.modules.internal.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counts messages and bytes from any number of threads without allocating and without contended atomic
 * operations on the counting path: cheap enough for a module's hot path (the {@code throughput} sink, the
 * container's module meters).
 * <p>
 * Each counting thread owns a cell that only it writes (with opaque stores, so a reader never sees a torn value
 * and the JIT cannot fold repeated increments away); readers sum the cells. A thread's cell is found as
 * {@link ThreadOwnedSlots} finds it. Totals read while threads are counting are a consistent lower bound, never an
 * overcount.
 */
public final class MessageCounter extends ThreadOwnedSlots<MessageCounter.Cell> implements MessageTotals {

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

	/**
	 * Counts one message of {@code bytes} bytes (0 when the size is unknown) for the calling thread.
	 * @return how many messages the calling thread has counted so far, this one included: what a caller that acts on
	 * one message in N (such as timing it) can test without a field of its own written by several threads
	 */
	public long record(long bytes) {
		Cell cell = slot();
		// only this thread writes the cell: its own reads need no ordering
		long messages = cell.messages + 1;
		MESSAGES.setOpaque(cell, messages);
		BYTES.setOpaque(cell, cell.bytes + bytes);
		return messages;
	}

	@Override
	protected Cell newSlot() {
		return new Cell();
	}

	@Override
	protected Cell[] newSlots(int length) {
		return new Cell[length];
	}

	/** Messages counted so far by all threads. */
	@Override
	public long messages() {
		long sum = 0;
		for (Cell cell : slots()) {
			sum += (long) MESSAGES.getOpaque(cell);
		}
		return sum;
	}

	/** Bytes counted so far by all threads. */
	@Override
	public long bytes() {
		long sum = 0;
		for (Cell cell : slots()) {
			sum += (long) BYTES.getOpaque(cell);
		}
		return sum;
	}

	/** {@link System#nanoTime()} when the first message was counted, or 0 before that. */
	@Override
	public long firstCountNanos() {
		Cell[] cells = slots();
		return (cells.length == 0) ? 0 : cells[0].created;
	}

	/** How many threads have counted so far. */
	public int threads() {
		return slots().length;
	}

	/** One thread's counts, padded so that two producers' cells do not share a cache line. */
	@SuppressWarnings("unused")
	static final class Cell extends ThreadOwnedSlots.Slot {

		long p01, p02, p03, p04, p05, p06, p07;

		final long created = System.nanoTime();

		long messages;

		long bytes;

		long p11, p12, p13, p14, p15, p16, p17;
	}
}
