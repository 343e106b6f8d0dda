package io.xd.bus.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.messaging.MessageHandler;

/**
 * At-least-once commits of a consumer binding that do not stop the listener thread after every poll: while the
 * consumer has a backlog, a poll's offsets are committed at the end of the next poll, once the sends its records
 * caused are acknowledged, which by then they almost always are; so the thread goes on handling records instead of
 * waiting for the broker's acknowledgements, and an offset is still never committed before its records' sends are
 * acknowledged. Once the consumer has caught up with its partitions (no lag after the poll) it waits for the poll's
 * sends and commits at once, as it does before a rebalance, a pause (the binding unbinding) and while idle, so
 * nothing handled stays uncommitted for long.
 * <p>
 * When a send of a poll whose offsets wait here has failed, nothing is committed: the consumer goes back to the
 * first record of that poll on each of its partitions, and those records and the ones after them are delivered
 * again, the next few polls settled at once, so that a send that fails again fails its own poll, which the error
 * handler delivers again and then dead-letters, as it always did. One instance per binding; the state is per listener thread, and every method runs on the listener thread
 * it concerns.
 */
final class PipelinedCommits {

	private static final Logger logger = LoggerFactory.getLogger(PipelinedCommits.class);

	/** How many polls after a failed send settle at once. */
	private static final int CAREFUL_POLLS = 10;

	private final String name;

	private final Duration sendPatience;

	/** Each listener thread's poll whose offsets are not committed yet. */
	private final Map<Thread, Pending> pending = new ConcurrentHashMap<>();

	/** Listener threads that settle each poll at once for a few more polls, after a send failed. */
	private final Map<Thread, Integer> careful = new ConcurrentHashMap<>();

	PipelinedCommits(String name, Duration sendPatience) {
		this.name = name;
		this.sendPatience = sendPatience;
	}

	/**
	 * Hands one poll's records to the module in order. A record whose handler throws is reported by its index, with
	 * what came before it settled: the earlier poll's and this poll's sends awaited, the earlier poll committed.
	 */
	void handle(List<ConsumerRecord<byte[], byte[]>> records, Consumer<?, ?> consumer, MessageHandler handler,
			boolean raw) {
		InFlightSends sends = InFlightSends.open();
		try {
			for (int i = 0; i < records.size(); i++) {
				ConsumerRecord<byte[], byte[]> record = records.get(i);
				try {
					handler.handleMessage(KafkaRecords.message(record.value(), record.headers(), raw));
				}
				catch (RuntimeException ex) {
					flush(consumer);
					sends.awaitAll(this.sendPatience);
					// the error handler commits the records before it and seeks to it
					throw new BatchListenerFailedException(ex.getMessage(), ex, i);
				}
			}
		}
		finally {
			InFlightSends.close();
		}
		Thread thread = Thread.currentThread();
		Pending current = new Pending(consumer, sends, PollOffsets.next(records, records.size()),
				PollOffsets.first(records));
		Pending previous = this.pending.remove(thread);
		if (previous != null && !settled(previous, current)) {
			// the records are delivered again; the next polls settle at once, so that a send failing again fails
			// its own poll, which the error handler retries and then dead-letters as for any failing record
			this.careful.put(thread, CAREFUL_POLLS);
			return;
		}
		Integer carefulPolls = this.careful.get(thread);
		if (carefulPolls != null) {
			if (carefulPolls > 1) {
				this.careful.put(thread, carefulPolls - 1);
			}
			else {
				this.careful.remove(thread);
			}
		}
		if (carefulPolls != null || caughtUp(consumer, current)) {
			if (previous != null) {
				commit(consumer, previous.offsets, true);
			}
			// a failure is thrown to the error handler: the poll is delivered again, then dead-lettered
			sends.awaitAll(this.sendPatience);
			commit(consumer, current.offsets, true);
			return;
		}
		if (previous != null) {
			commit(consumer, previous.offsets, false);
		}
		this.pending.put(thread, current);
	}

	/** Settles the calling listener thread's waiting poll: its sends awaited, its offsets committed. */
	void flush(Consumer<?, ?> consumer) {
		Pending previous = this.pending.remove(Thread.currentThread());
		if (previous != null && settled(previous, null)) {
			commit(consumer, previous.offsets, true);
		}
	}

	/** {@link #flush} with the consumer of the calling thread's waiting poll, when it has one. */
	void flush() {
		Pending previous = this.pending.get(Thread.currentThread());
		if (previous != null) {
			flush(previous.consumer);
		}
	}

	/** Forgets the waiting polls: the listener threads have ended. */
	void clear() {
		this.pending.clear();
		this.careful.clear();
	}

	/**
	 * Waits for a poll's sends. When one failed (or they were not acknowledged in time), goes back to the poll's
	 * first records, and to those of {@code after}, a later poll, and returns {@code false}.
	 */
	private boolean settled(Pending poll, Pending after) {
		try {
			poll.sends.awaitAll(this.sendPatience);
			return true;
		}
		catch (IllegalStateException ex) {
			logger.warn("A send caused by records of '{}' failed; they are delivered again: {}", this.name,
					ex.getMessage());
			Map<TopicPartition, Long> rewind = new HashMap<>(poll.first);
			if (after != null) {
				after.first.forEach(rewind::putIfAbsent);
			}
			rewind.keySet().retainAll(poll.consumer.assignment());
			rewind.forEach(poll.consumer::seek);
			return false;
		}
	}

	private void commit(Consumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
		try {
			if (sync) {
				consumer.commitSync(offsets);
			}
			else {
				consumer.commitAsync(offsets, (committed, ex) -> {
					if (ex != null) {
						logger.debug("An asynchronous commit of '{}' failed; a later one covers it", this.name, ex);
					}
				});
			}
		}
		catch (KafkaException ex) {
			// not committed: after a rebalance the next owner delivers these records again, as at-least-once allows
			logger.warn("Could not commit the offsets of '{}': {}", this.name, ex.toString());
		}
	}

	/** Whether the consumer has no lag left on the partitions of a poll (or cannot tell). */
	private static boolean caughtUp(Consumer<?, ?> consumer, Pending poll) {
		for (TopicPartition partition : poll.offsets.keySet()) {
			OptionalLong lag = consumer.currentLag(partition);
			if (lag.isPresent() && lag.getAsLong() > 0) {
				return false;
			}
		}
		return true;
	}

	/** A handled poll: its consumer, the sends its records caused, its next offsets and its first records. */
	private record Pending(Consumer<?, ?> consumer, InFlightSends sends, Map<TopicPartition, OffsetAndMetadata> offsets,
			Map<TopicPartition, Long> first) {
	}
}
