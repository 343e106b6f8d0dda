package io.xd.modules.internal.metrics;

import java.util.Arrays;

/**
 * A slot per writing thread, found without locks or allocation on the writing path: the base of
 * {@link MessageCounter} and of the {@code throughput} sink's latency recorder, whose threads each write only their own
 * slot while readers go over all of them.
 * <p>
 * A thread's slot is found through a one-entry cache that is right for the common case of a single writing thread,
 * and through a {@link ThreadLocal} once a second thread has written. The cache is written racily, but a slot's
 * owner is final, so a stale value is merely a miss.
 * @param <S> the slot type
 */
public abstract class ThreadOwnedSlots<S extends ThreadOwnedSlots.Slot> {

	private final ThreadLocal<S> slots = ThreadLocal.withInitial(this::register);

	private volatile S[] all = newSlots(0);

	private S cached;

	private volatile boolean sharedByThreads;

	/** A new slot for the calling thread; called once per thread, under this object's lock. */
	protected abstract S newSlot();

	/** A new array of slots. */
	protected abstract S[] newSlots(int length);

	/** The calling thread's slot, made on its first call. */
	protected final S slot() {
		S slot = this.cached;
		if (slot == null || slot.owner != Thread.currentThread()) {
			slot = slotOfCurrentThread();
		}
		return slot;
	}

	private S slotOfCurrentThread() {
		S slot = this.slots.get();
		if (!this.sharedByThreads) {
			this.cached = slot;
		}
		return slot;
	}

	/** Every thread's slot so far, in the order the threads first wrote; not to be modified. */
	protected final S[] slots() {
		return this.all;
	}

	private synchronized S register() {
		S slot = newSlot();
		S[] grown = Arrays.copyOf(this.all, this.all.length + 1);
		grown[grown.length - 1] = slot;
		if (grown.length > 1) {
			this.sharedByThreads = true;
		}
		this.all = grown;
		return slot;
	}

	/** What one thread writes; made on that thread. */
	public abstract static class Slot {

		final Thread owner = Thread.currentThread();
	}
}
