package io.xd.benchmarks.runner;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Every message of one stream of the {@code chaos} suite: sequence numbers 0, 1, 2, ... sent (and acknowledged by
 * the broker, or not) by the suite, and each record read back from the stream's output with its partition. Times
 * are milliseconds from the start of the load. {@link #summary()} checks the whole history; thread-safe.
 */
final class ChaosHistory {

	private static final long NONE = -1;

	private long[] sent = new long[1024];

	private long[] acked = new long[1024];

	private long[] received = new long[1024];

	private int sentCount;

	private long failed;

	private long duplicates;

	private long outOfOrder;

	private long unknown;

	private final Map<Integer, Long> highest = new HashMap<>();

	ChaosHistory() {
		Arrays.fill(this.acked, NONE);
		Arrays.fill(this.received, NONE);
	}

	/** The next sequence number, sent at {@code millis}. */
	synchronized int send(long millis) {
		int seq = this.sentCount++;
		if (seq >= this.sent.length) {
			int size = this.sent.length * 2;
			this.sent = grow(this.sent, size);
			this.acked = grow(this.acked, size);
			this.received = grow(this.received, size);
		}
		this.sent[seq] = millis;
		return seq;
	}

	private static long[] grow(long[] values, int size) {
		long[] grown = Arrays.copyOf(values, size);
		Arrays.fill(grown, values.length, size, NONE);
		return grown;
	}

	/** The broker acknowledged {@code seq} at {@code millis}. */
	synchronized void acked(int seq, long millis) {
		this.acked[seq] = millis;
	}

	/** The producer gave up on {@code seq}: never acknowledged, so not counted as sent. */
	synchronized void failed(int seq) {
		this.failed++;
	}

	/**
	 * {@code seq} was read from {@code partition} of the output at {@code millis}: a duplicate if it was read before;
	 * out of order if a higher one was read from that partition before (and this one not).
	 */
	synchronized void received(int partition, long seq, long millis) {
		if (seq < 0 || seq >= this.sentCount) {
			this.unknown++;
			return;
		}
		int index = (int) seq;
		if (this.received[index] != NONE) {
			this.duplicates++;
		}
		else {
			this.received[index] = millis;
			Long high = this.highest.get(partition);
			if (high != null && high > seq) {
				this.outOfOrder++;
			}
		}
		this.highest.merge(partition, seq, Math::max);
	}

	/** Whether every acknowledged message has been read back. */
	synchronized boolean complete() {
		for (int seq = 0; seq < this.sentCount; seq++) {
			if (this.acked[seq] != NONE && this.received[seq] == NONE) {
				return false;
			}
		}
		return true;
	}

	/** How many distinct messages were read back. */
	synchronized long receivedCount() {
		long count = 0;
		for (int seq = 0; seq < this.sentCount; seq++) {
			if (this.received[seq] != NONE) {
				count++;
			}
		}
		return count;
	}

	/**
	 * When the stream was back after a fault at {@code faultMillis}: the time its output received the first message
	 * sent at or after the fault from which on every acknowledged message sent over {@code windowMillis} came through
	 * within {@code boundMillis} of being sent; {@code -1} if that never happened.
	 */
	synchronized long recoveryMillis(long faultMillis, long windowMillis, long boundMillis) {
		int seq = 0;
		while (seq < this.sentCount && this.sent[seq] < faultMillis) {
			seq++;
		}
		candidates: while (seq < this.sentCount) {
			if (this.acked[seq] == NONE) {
				seq++;
				continue;
			}
			long start = this.sent[seq];
			for (int next = seq; next < this.sentCount && this.sent[next] <= start + windowMillis; next++) {
				if (this.acked[next] != NONE
						&& (this.received[next] == NONE || this.received[next] - this.sent[next] > boundMillis)) {
					seq = next + 1;
					continue candidates;
				}
			}
			return Math.max(0, this.received[seq] - faultMillis);
		}
		return -1;
	}

	/** The whole history checked. */
	synchronized Summary summary() {
		long ackedCount = 0;
		long receivedCount = 0;
		long lost = 0;
		long[] times = new long[this.sentCount];
		int timesCount = 0;
		for (int seq = 0; seq < this.sentCount; seq++) {
			boolean wasAcked = this.acked[seq] != NONE;
			boolean wasReceived = this.received[seq] != NONE;
			ackedCount += wasAcked ? 1 : 0;
			receivedCount += wasReceived ? 1 : 0;
			lost += (wasAcked && !wasReceived) ? 1 : 0;
			if (wasReceived) {
				times[timesCount++] = this.received[seq];
			}
		}
		Arrays.sort(times, 0, timesCount);
		long stall = 0;
		long stallAt = 0;
		for (int i = 1; i < timesCount; i++) {
			if (times[i] - times[i - 1] > stall) {
				stall = times[i] - times[i - 1];
				stallAt = times[i - 1];
			}
		}
		long last = (timesCount == 0) ? 0 : times[timesCount - 1];
		int[] perSecond = new int[(int) (last / 1000) + 1];
		for (int i = 0; i < timesCount; i++) {
			perSecond[(int) (times[i] / 1000)]++;
		}
		return new Summary(this.sentCount, ackedCount, this.sentCount - ackedCount, receivedCount, lost,
				this.duplicates, this.outOfOrder, this.unknown, stall, stallAt, perSecond);
	}

	/**
	 * A stream's history checked.
	 *
	 * @param attempted messages the suite handed to its producer
	 * @param sent messages the broker acknowledged (what the stream must deliver)
	 * @param unacknowledged messages the producer gave up on (or that were still unacknowledged at the end): not
	 * owed, but counted as received if they come through
	 * @param received distinct messages read from the output
	 * @param lost acknowledged messages never read from the output
	 * @param duplicates reads of a message already read
	 * @param outOfOrder messages read (the first time) after a higher sequence number of the same partition
	 * @param unknown records whose sequence number the suite never sent
	 * @param longestStallMillis the longest time between two messages read
	 * @param stallAtMillis when that stall began
	 * @param perSecond distinct messages read in each second from the start of the load
	 */
	record Summary(long attempted, long sent, long unacknowledged, long received, long lost, long duplicates,
			long outOfOrder, long unknown, long longestStallMillis, long stallAtMillis, int[] perSecond) {
	}
}
