package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
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
 * At-least-once commits of a consumer binding that do not stop the listener thread after every poll. While the
 * consumer has a backlog, handled polls wait here and their offsets are committed together, asynchronously, at most
 * once per commit interval (as Kafka Streams' {@code commit.interval.ms}): only the oldest polls whose sends are all
 * acknowledged by then, so that an offset is never committed before the sends its records caused, and the thread
 * goes on handling records instead of waiting for the broker. Once the consumer has caught up with its partitions
 * (no lag after the poll) it waits for every waiting poll's sends and commits at once, as it does before a
 * rebalance, a pause (the binding unbinding) and while idle, so nothing handled stays uncommitted for long; a crash
 * repeats at most about a commit interval's records.
 * <p>
 * When a send of a waiting poll has failed, what came before it is committed and nothing after: the consumer goes
 * back to the first record of that poll on each of its partitions (and of the later waiting polls, for partitions
 * that poll did not have), those records and the ones after them are delivered again, and the next few polls settle
 * at once, so that a send that fails again fails its own poll, which the error handler delivers again and then
 * dead-letters, as it always did. One instance per binding; the state is per listener thread, and every method runs
 * on the listener thread it concerns.
 */
final class PipelinedCommits {

	private static final Logger logger = LoggerFactory.getLogger(PipelinedCommits.class);

	/**
	 * How many polls after a failed send settle at once; also how many transactions commit poll by poll after a
	 * failure in one that held several ({@link KafkaConsumerBinding}).
	 */
	static final int CAREFUL_POLLS = 10;

	/** How many handled polls may wait for their sends at most; beyond, the oldest is waited for. */
	private static final int MAX_WAITING = 64;

	private final String name;

	private final Duration sendPatience;

	private final long intervalNanos;

	private final int fullPoll;

	/** Each listener thread's state. */
	private final Map<Thread, ThreadState> threads = new ConcurrentHashMap<>();

	/**
	 * @param commitInterval how long handled offsets may wait to be committed while the consumer has a backlog;
	 * zero commits after every poll (still without waiting for its sends)
	 * @param fullPoll the consumer's {@code max.poll.records}: a poll that size is taken as one with more to come
	 * (see {@link #caughtUp})
	 */
	PipelinedCommits(String name, Duration sendPatience, Duration commitInterval, int fullPoll) {
		this.name = name;
		this.sendPatience = sendPatience;
		this.intervalNanos = commitInterval.toNanos();
		this.fullPoll = fullPoll;
	}

	/**
	 * Hands one poll's records to the module in order. A record whose handler throws is reported by its index, with
	 * what came before it settled: the waiting polls' and this poll's sends awaited, the waiting polls committed.
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
		ThreadState state = this.threads.computeIfAbsent(Thread.currentThread(), thread -> new ThreadState());
		Pending current = new Pending(consumer, sends, PollOffsets.next(records), PollOffsets.first(records));
		boolean careful = state.carefulPolls > 0;
		if (careful) {
			state.carefulPolls--;
		}
		if (careful || caughtUp(consumer, current.offsets.keySet(), records.size(), this.fullPoll)) {
			if (!settleAll(consumer, state, current)) {
				return;
			}
			// a failure is thrown to the error handler: the poll is delivered again, then dead-lettered
			sends.awaitAll(this.sendPatience);
			commit(consumer, current.offsets, true);
			state.lastCommit = System.nanoTime();
			return;
		}
		state.waiting.addLast(current);
		long now = System.nanoTime();
		boolean due = now - state.lastCommit >= this.intervalNanos;
		if (due || state.waiting.size() > MAX_WAITING) {
			commitAcknowledged(consumer, state, due ? now : state.lastCommit, state.waiting.size() > MAX_WAITING);
		}
	}

	/** Settles the calling listener thread's waiting polls: their sends awaited, their offsets committed. */
	void flush(Consumer<?, ?> consumer) {
		ThreadState state = this.threads.get(Thread.currentThread());
		if (state != null && !state.waiting.isEmpty()) {
			settleAll(consumer, state, null);
		}
	}

	/** {@link #flush} with the consumer of the calling thread's waiting polls, when it has some. */
	void flush() {
		ThreadState state = this.threads.get(Thread.currentThread());
		if (state != null && !state.waiting.isEmpty()) {
			flush(state.waiting.peekFirst().consumer);
		}
	}

	/** Forgets the waiting polls: the listener threads have ended. */
	void clear() {
		this.threads.clear();
	}

	/**
	 * Commits, asynchronously, the oldest waiting polls whose sends are acknowledged, up to the first that is not
	 * (or that failed), after waiting for the oldest one when {@code waitForOldest}.
	 */
	private void commitAcknowledged(Consumer<?, ?> consumer, ThreadState state, long now, boolean waitForOldest) {
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		boolean first = true;
		while (!state.waiting.isEmpty()) {
			Pending oldest = state.waiting.peekFirst();
			if (!(first && waitForOldest) && !oldest.sends.isDone()) {
				break;
			}
			first = false;
			if (!settled(oldest, state)) {
				// the polls before it are committed, it and the later ones delivered again
				commit(consumer, offsets, true);
				return;
			}
			state.waiting.removeFirst();
			offsets.putAll(oldest.offsets);
		}
		if (!offsets.isEmpty()) {
			commit(consumer, offsets, false);
			state.lastCommit = now;
		}
	}

	/**
	 * Waits for every waiting poll's sends and commits their offsets, synchronously; when one failed, commits those
	 * before it and goes back to it.
	 * @param after a handled poll not waiting yet, gone back to as well when a waiting poll's send failed
	 * @return whether every waiting poll was committed ({@code false}: the records are delivered again)
	 */
	private boolean settleAll(Consumer<?, ?> consumer, ThreadState state, Pending after) {
		if (after != null && !state.waiting.isEmpty()) {
			// gone back to with the others, should one of them have failed
			state.waiting.addLast(after);
		}
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
		boolean allSettled = true;
		while (!state.waiting.isEmpty()) {
			Pending oldest = state.waiting.peekFirst();
			if (oldest == after) {
				state.waiting.removeFirst();
				break;
			}
			if (!settled(oldest, state)) {
				allSettled = false;
				break;
			}
			state.waiting.removeFirst();
			offsets.putAll(oldest.offsets);
		}
		if (!offsets.isEmpty()) {
			commit(consumer, offsets, true);
			state.lastCommit = System.nanoTime();
		}
		return allSettled;
	}

	/**
	 * Waits for a waiting poll's sends. When one failed (or they were not acknowledged in time), goes back to the
	 * poll's first records, and to those of the polls after it, forgets them all, settles the next polls at once and
	 * returns {@code false}.
	 */
	private boolean settled(Pending poll, ThreadState state) {
		try {
			poll.sends.awaitAll(this.sendPatience);
			return true;
		}
		catch (IllegalStateException ex) {
			logger.warn("A send caused by records of '{}' failed; they are delivered again: {}", this.name,
					ex.getMessage());
			Map<TopicPartition, Long> rewind = new HashMap<>();
			for (Pending waiting : state.waiting) {
				waiting.first.forEach(rewind::putIfAbsent);
			}
			rewind.keySet().retainAll(poll.consumer.assignment());
			rewind.forEach(poll.consumer::seek);
			state.waiting.clear();
			// so that a send failing again fails its own poll, which the error handler retries and then
			// dead-letters as for any failing record
			state.carefulPolls = CAREFUL_POLLS;
			return false;
		}
	}

	private void commit(Consumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> offsets, boolean sync) {
		if (offsets.isEmpty()) {
			return;
		}
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

	/**
	 * Whether the consumer has no lag left on {@code partitions}, those of a poll of {@code polled} records (or cannot
	 * tell). A full poll ({@code max.poll.records}) is taken to have more behind it without asking: the consumer's
	 * answer is a round trip to its background thread, 0.4-0.5 ms a poll on 2 busy cores, an eighth of a poll's time
	 * at 100 B. Should a full poll have been the last of a backlog after all, the next commit comes with the commit
	 * interval or after 500 ms without records.
	 */
	static boolean caughtUp(Consumer<?, ?> consumer, Collection<TopicPartition> partitions, int polled,
			int fullPoll) {
		if (polled >= fullPoll) {
			return false;
		}
		for (TopicPartition partition : partitions) {
			OptionalLong lag = consumer.currentLag(partition);
			if (lag.isPresent() && lag.getAsLong() > 0) {
				return false;
			}
		}
		return true;
	}

	/** A listener thread's handled polls waiting for their commit, oldest first, and when it last committed. */
	private static final class ThreadState {

		final ArrayDeque<Pending> waiting = new ArrayDeque<>();

		long lastCommit = System.nanoTime();

		int carefulPolls;
	}

	/** A handled poll: its consumer, the sends its records caused, its next offsets and its first records. */
	private record Pending(Consumer<?, ?> consumer, InFlightSends sends, Map<TopicPartition, OffsetAndMetadata> offsets,
			Map<TopicPartition, Long> first) {
	}
}
