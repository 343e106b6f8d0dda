package io.xd.bus.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.ToIntFunction;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.event.ConsumerPausedEvent;
import org.springframework.kafka.event.ListenerContainerIdleEvent;
import org.springframework.kafka.listener.BatchAcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ConsumerAwareRecordRecoverer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.Acknowledgment;
import org.springframework.messaging.MessageHandler;

import io.xd.bus.Binding;
import io.xd.bus.DeadLetterCounter;
import io.xd.bus.FailureLog;

/**
 * The receiving end of a channel on Kafka: a Spring Kafka listener container of {@code concurrency} threads in one
 * consumer group, handing each poll's records to the module in order.
 * <ul>
 * <li>Offsets are committed after the module has handled every record of the poll and what it sent meanwhile on
 * this bus is acknowledged ({@link InFlightSends}); while there is a backlog, at the end of the next poll rather
 * than by waiting at the end of this one ({@link PipelinedCommits}).</li>
 * <li>A record whose handler throws is delivered again with the binding's back-off, up to {@code maxAttempts}
 * times, then published to the dead-letter topic with the exception in its headers; the records before it in the
 * poll are committed, the ones after it are delivered again. Each record published there is counted by the handler
 * when it is a {@link DeadLetterCounter}, and logged through a {@link FailureLog}: the first of each kind of failure
 * with its stack trace, later ones as a count; the attempts before the last are logged at DEBUG only.</li>
 * <li>{@link #unbind()} pauses the consumer first, so that what the last poll handled is committed before it stops
 * and the next owner of its partitions repeats nothing.</li>
 * <li>Before handing over a poll, the listener asks the bus's fence ({@link io.xd.bus.MessageBus#fence}) whether
 * it may: while it may not, the consumer goes back to the poll's first records, hands over nothing and asks again a
 * moment later; unbinding then does not wait to commit (what was handled and not committed is delivered again).</li>
 * <li>In transactional mode each poll is handled in a Kafka transaction of the listener thread
 * ({@link PollTransaction}): the module's sends and the poll's offsets commit together. A record whose handler
 * throws aborts the transaction; the records before it are handled again in a new one, which commits, and it is
 * delivered again as above. A record given up on goes to the dead-letter topic in a transaction with its offset.</li>
 * </ul>
 */
final class KafkaConsumerBinding implements Binding, ConsumerAwareRebalanceListener {

	private static final Logger logger = LoggerFactory.getLogger(KafkaConsumerBinding.class);

	/** How long a commit refused for a stale member epoch is retried (see {@link StaleEpochCommitRetry}). */
	private static final Duration COMMIT_PATIENCE = Duration.ofSeconds(5);

	/** How long a poll's offsets wait for the sends its records caused (the producer's delivery timeout). */
	private static final Duration SEND_PATIENCE = Duration.ofMinutes(2);

	/**
	 * The longest a listener thread waits in one poll. Under the consumer group protocol the client sends the first
	 * fetch for a newly assigned partition only when the listener's poll comes round again, which without a bound
	 * happens at the next heartbeat (a second on the local broker): a new stream's first messages waited that long.
	 */
	private static final Duration POLL_TIMEOUT = Duration.ofMillis(50);

	/** How long a listener thread without records leaves a handled poll uncommitted at most. */
	private static final Duration IDLE_FLUSH = Duration.ofMillis(500);

	/** How long a fenced listener thread waits before it polls (and asks the fence) again. */
	private static final Duration FENCED_WAIT = Duration.ofMillis(100);

	/** How long stopping waits for the consumer to pause, and the listener container for its threads. */
	private static final Duration STOP_PATIENCE = Duration.ofSeconds(10);

	private final String name;

	private final String groupId;

	private final int partitions;

	private final Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();

	/** The group member ids of this binding's consumers, as they have joined. */
	private final Set<String> members = ConcurrentHashMap.newKeySet();

	/** The listener threads whose consumer has joined the group: had its first assignment, of partitions or none. */
	private final Set<Thread> joined = ConcurrentHashMap.newKeySet();

	/** Where a partition without a committed offset starts: the end it had when the binding was made. */
	private final Map<TopicPartition, Long> startIfNew;

	private final List<Runnable> onUnbind = new CopyOnWriteArrayList<>();

	private final ConcurrentMessageListenerContainer<byte[], byte[]> listener;

	/** Transactional mode: each listener thread's transaction, and what names their transactional ids. */
	private final Map<Thread, PollTransaction> transactions = new ConcurrentHashMap<>();

	private final String transactionalIdPrefix;

	private final AtomicInteger transactionThreads = new AtomicInteger();

	/** Transactional mode: dead letters sent in a transaction with their offset, made on the first one. */
	private TransactionalDeadLetters transactionalDeadLetters;

	private volatile boolean unbound;

	/** Whether the listener may hand records over now (the bus's fence). */
	private final BooleanSupplier mayHandle;

	/** Whether the fence refused the last poll: logged once per refusal period. */
	private volatile boolean refusing;

	/** The dead letters' log: the first of each kind with its stack trace, then a count now and then. */
	private final FailureLog failures = new FailureLog(logger);

	/** At-least-once mode: each listener thread's poll whose offsets wait for its sends. */
	private final PipelinedCommits commits;

	/** How long a transaction may hold polls while the consumer has a backlog. */
	private final long commitIntervalNanos;

	/** The consumer's {@code max.poll.records}: a poll of that many records has more behind it, most likely. */
	private final int fullPoll;

	/**
	 * A binding of {@code handler} to {@code topic}, not started.
	 * @param offsetReset where a new group starts: {@code earliest} or {@code latest}
	 * @param startIfNew for a group that starts at the end: each partition's end offset when the binding was made,
	 * so that it receives everything published after it was bound, even before the group has been assigned the
	 * partitions; empty otherwise
	 * @param partitions the topic's partition count
	 * @param mayHandle whether the listener may hand records to the module now (asked before each poll's records)
	 */
	KafkaConsumerBinding(String name, String topic, String groupId, String offsetReset,
			Map<TopicPartition, Long> startIfNew, int partitions, MessageHandler handler,
			KafkaConsumerSettings settings, String deadLetterTopic, KafkaTemplate<byte[], byte[]> deadLetters,
			BooleanSupplier mayHandle) {
		this.name = name;
		this.mayHandle = mayHandle;
		this.groupId = groupId;
		Map<String, Object> config = new HashMap<>(settings.clientConfig());
		this.fullPoll = fullPoll(config.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG));
		this.commits = new PipelinedCommits(name, SEND_PATIENCE, settings.commitInterval(), this.fullPoll);
		this.commitIntervalNanos = settings.commitInterval().toNanos();
		this.partitions = partitions;
		this.startIfNew = Map.copyOf(startIfNew);
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, offsetReset);

		boolean raw = settings.raw();
		// unique per binding instance; Kafka fences a zombie through its consumer group, not through this id
		this.transactionalIdPrefix = "xd-" + groupId + "-" + UUID.randomUUID().toString().substring(0, 8) + "-";
		ContainerProperties container = new ContainerProperties(topic);
		container.setGroupId(groupId);
		if (settings.transactional()) {
			// the offsets go in each poll's transaction; the container commits only what was handled without one
			container.setAckMode(ContainerProperties.AckMode.MANUAL);
			// a transaction holding polls is committed when no more records come
			container.setIdleEventInterval(IDLE_FLUSH.toMillis());
			container.setMessageListener((BatchAcknowledgingConsumerAwareMessageListener<byte[], byte[]>) (records,
					acknowledgment, consumer) -> {
				if (!refused(records, consumer)) {
					handleInTransaction(records, acknowledgment, consumer, handler, raw);
				}
			});
		}
		else {
			// the offsets are committed by PipelinedCommits, once the sends each poll caused are acknowledged
			container.setAckMode(ContainerProperties.AckMode.MANUAL);
			container.setIdleEventInterval(IDLE_FLUSH.toMillis());
			container.setMessageListener((BatchAcknowledgingConsumerAwareMessageListener<byte[], byte[]>) (records,
					acknowledgment, consumer) -> {
				if (!refused(records, consumer)) {
					this.commits.handle(records, consumer, handler, raw);
				}
			});
		}
		container.setConsumerRebalanceListener(this);
		if (!this.startIfNew.isEmpty()) {
			// Spring Kafka would commit a new group's position on assignment, before this binding could move it back
			// to where the binding began
			container.setAssignmentCommitOption(ContainerProperties.AssignmentCommitOption.NEVER);
		}
		container.setShutdownTimeout(STOP_PATIENCE.toMillis());
		container.setPollTimeout(POLL_TIMEOUT.toMillis());

		DefaultKafkaConsumerFactory<byte[], byte[]> factory = new DefaultKafkaConsumerFactory<>(config,
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
		factory.addPostProcessor(consumer -> StaleEpochCommitRetry.wrap(consumer, COMMIT_PATIENCE));
		this.listener = new ConcurrentMessageListenerContainer<>(factory, container);
		this.listener.setConcurrency(Math.min(settings.concurrency(), partitions));
		this.listener.setBeanName("xd-kafka-" + topic);
		// both events are published on the listener thread, between polls: its waiting poll is settled there
		this.listener.setApplicationEventPublisher(event -> {
			if (event instanceof ListenerContainerIdleEvent idle) {
				this.commits.flush(idle.getConsumer());
				commitHeldPolls(idle.getConsumer());
			}
			else if (event instanceof ConsumerPausedEvent) {
				this.commits.flush();
				commitHeldPolls(null);
			}
		});
		BiFunction<ConsumerRecord<?, ?>, Exception, TopicPartition> toDeadLetterTopic = (record,
				ex) -> new TopicPartition(deadLetterTopic, -1);
		DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(deadLetters, toDeadLetterTopic);
		DeadLetterCounter counter = (handler instanceof DeadLetterCounter c) ? c : null;
		DefaultErrorHandler errorHandler = new DefaultErrorHandler((ConsumerAwareRecordRecoverer) (record, consumer,
				ex) -> {
			if (settings.transactional()) {
				deadLetterInTransaction(record, consumer, ex, deadLetters, toDeadLetterTopic);
			}
			else {
				recoverer.accept(record, ex);
			}
			this.failures.failed("Gave up on a record of '" + name + "' (partition " + record.partition() + ", offset "
					+ record.offset() + ") after its last attempt; it went to the dead-letter topic " + deadLetterTopic,
					ex);
			if (counter != null) {
				counter.deadLettered(ex);
			}
		}, settings.backOff());
		// each failed attempt is counted by the module's meters and each dead letter logged above (the first of its
		// kind with the stack trace): Spring Kafka's line per attempt would repeat the same trace at ERROR
		errorHandler.setLogLevel(org.springframework.kafka.KafkaException.Level.DEBUG);
		this.listener.setCommonErrorHandler(errorHandler);
	}

	/**
	 * Starts the listener threads and waits, up to {@code patience}, until each has joined the group and every
	 * partition of the topic is owned (by this binding or by other members of its group), so that a module reported
	 * deployed is already reading: a source started after it finds the consumer fetching, instead of its first
	 * messages waiting for the join. A thread that takes longer (a broker slow to answer) goes on joining after this
	 * returns; nothing is lost meanwhile, it is only later.
	 * @param ownedByOthers how many partitions of the topic the group's other members own, as the group coordinator
	 * says, given this binding's member ids: asked when the threads have joined owning fewer than all of them (the
	 * first assignment of a topic just made can come empty, the partitions a heartbeat later). The coordinator
	 * counts a partition as this binding's before its thread has had it, so only the others' are asked for.
	 * @return whether every thread joined in time
	 */
	boolean start(Duration patience, ToIntFunction<Set<String>> ownedByOthers) {
		long deadline = System.nanoTime() + patience.toNanos();
		this.listener.start();
		int threads = this.listener.getConcurrency();
		boolean joinedInTime = Waiting.until(() -> this.joined.size() >= threads || !this.listener.isRunning(),
				patience, Duration.ofMillis(5));
		if (joinedInTime && this.assigned.size() < this.partitions) {
			Waiting.until(() -> this.assigned.size() >= this.partitions || !this.listener.isRunning()
					|| ownedByTheGroup(ownedByOthers), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())),
					Duration.ofMillis(50));
		}
		if (!joinedInTime) {
			logger.info("The consumer of '{}' (group {}) has not joined its group after {} ms; going on, it will "
					+ "read once it has", this.name, this.groupId, patience.toMillis());
		}
		return joinedInTime;
	}

	private boolean ownedByTheGroup(ToIntFunction<Set<String>> ownedByOthers) {
		try {
			return this.assigned.size() + ownedByOthers.applyAsInt(Set.copyOf(this.members)) >= this.partitions;
		}
		catch (RuntimeException ex) {
			// the group cannot be described: the binding does not wait for what it cannot see
			logger.debug("Could not tell whether group {} owns every partition of '{}'", this.groupId, this.name, ex);
			return true;
		}
	}

	/** Runs {@code action} once, when the binding starts to unbind (before its consumer stops). */
	void onUnbind(Runnable action) {
		this.onUnbind.add(action);
	}

	String groupId() {
		return this.groupId;
	}

	/** The topic's partition count. */
	int partitions() {
		return this.partitions;
	}

	/** How many partitions this binding owns with their positions fixed. */
	int assignedCount() {
		return this.assigned.size();
	}


	/**
	 * Whether the fence refuses this poll: then the consumer goes back to its first records, which it hands over when
	 * the fence lets it (or which the partitions' next owner gets), and waits a moment before it polls again.
	 */
	private boolean refused(List<ConsumerRecord<byte[], byte[]>> records, Consumer<?, ?> consumer) {
		if (this.mayHandle.getAsBoolean()) {
			if (this.refusing) {
				this.refusing = false;
				logger.info("The consumer of '{}' hands records over again", this.name);
			}
			return false;
		}
		if (!this.refusing) {
			this.refusing = true;
			logger.warn("The consumer of '{}' hands nothing over: this container may have lost its place in the "
					+ "cluster; its records are delivered again", this.name);
		}
		PollTransaction transaction = this.transactions.get(Thread.currentThread());
		if (transaction != null && transaction.heldPolls() > 0) {
			// a transaction holding earlier polls cannot commit now: aborted, and its records delivered again
			abortHeld(transaction, consumer, records);
		}
		else if (transaction == null || settled(transaction, consumer, records)) {
			// (when the commit under way failed, the consumer went back to the committed offsets instead)
			PollOffsets.first(records).forEach(consumer::seek);
		}
		try {
			Thread.sleep(FENCED_WAIT.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return true;
	}

	/**
	 * Hands one poll's records to the module in order in the listener thread's transaction. While the consumer has a
	 * backlog the transaction spans polls: it is committed with the offsets of every poll it holds once the commit
	 * interval has passed since its first, and at once when the consumer has caught up (as Kafka Streams commits
	 * under exactly-once), so that its round trips to the coordinators are paid per interval rather than per poll.
	 * <p>
	 * When the handler throws on a record of a transaction's only poll, the transaction is aborted and the records
	 * before it are handed over again in a new one (their own sends were aborted with it), which commits with their
	 * offsets; the failing record is reported by its index, to be delivered again or dead-lettered. When the
	 * transaction held earlier polls too, it is aborted, the consumer goes back to its first records, and the next
	 * polls commit one by one, so that the failing record comes again in a poll of its own transaction. Side effects
	 * of the module outside Kafka may so happen twice; what it sends through the bus appears once.
	 */
	private void handleInTransaction(List<ConsumerRecord<byte[], byte[]>> records, Acknowledgment acknowledgment,
			Consumer<?, ?> consumer, MessageHandler handler, boolean raw) {
		PollTransaction transaction = this.transactions.computeIfAbsent(Thread.currentThread(),
				thread -> new PollTransaction(this.transactionalIdPrefix + this.transactionThreads.getAndIncrement()));
		transaction.enter();
		try {
			int end = records.size();
			RuntimeException failure = null;
			for (int i = 0; i < end; i++) {
				ConsumerRecord<byte[], byte[]> record = records.get(i);
				try {
					handler.handleMessage(KafkaRecords.message(record.value(), record.headers(), raw));
				}
				catch (RuntimeException ex) {
					if (!settled(transaction, consumer, records)) {
						return;
					}
					if (transaction.producerFailure() != null) {
						// the transaction's producer failed, not this record: every record the transaction holds, and
						// this poll's, is delivered again, and none counts an attempt
						deliverAgain(transaction, consumer, PollOffsets.first(records), transaction.producerFailure());
						return;
					}
					if (transaction.heldPolls() > 0) {
						abortHeld(transaction, consumer, records);
						return;
					}
					// start over in a new transaction with the records before this one; ends, as end only shrinks.
					// Should the abort fail, the next send makes a new producer or fails as the producer's failure
					abortQuietly(transaction);
					failure = ex;
					end = i;
					i = -1;
				}
			}
			if (failure != null) {
				if (transaction.isOpen()) {
					// the transaction holds this poll only (see above): its records before the failing one
					transaction.hold(consumer, PollOffsets.next(records, end), PollOffsets.first(records));
					if (!commitHeld(transaction, consumer) || !settled(transaction, consumer, records)) {
						return;
					}
				}
				// committed, or nothing sent before it: the error handler commits the records before it (and dead
				// letters commit their own offset) only after every transaction before them has
				throw new BatchListenerFailedException(failure.getMessage(), failure, end);
			}
			if (!transaction.isOpen()) {
				// nothing was sent, in this poll or one held: the offsets are committed as they are, after the
				// transaction before them
				if (settled(transaction, consumer, records)) {
					acknowledgment.acknowledge();
				}
				return;
			}
			Map<TopicPartition, OffsetAndMetadata> next = PollOffsets.next(records);
			transaction.hold(consumer, next, PollOffsets.first(records));
			if (transaction.careful() || System.nanoTime() - transaction.heldSince() >= this.commitIntervalNanos
					|| PipelinedCommits.caughtUp(consumer, next.keySet(), records.size(), this.fullPoll)) {
				commitHeld(transaction, consumer);
			}
			else {
				sendHeldIfReady(transaction, consumer);
			}
		}
		finally {
			PollTransaction.leave();
		}
	}

	/**
	 * Sends what the open transaction held back, if it may go by now; when the producer refuses it, the transaction
	 * cannot commit: its polls are delivered again (never thrown to the container, whose error handler would take the
	 * whole poll for failed records).
	 */
	private void sendHeldIfReady(PollTransaction transaction, Consumer<?, ?> consumer) {
		try {
			transaction.sendHeldIfReady();
		}
		catch (KafkaException ex) {
			if (settled(transaction, consumer, List.of())) {
				deliverAgain(transaction, consumer, new HashMap<>(), ex);
			}
		}
	}

	/**
	 * Starts committing the transaction of the polls a listener thread holds, once the one before it has committed
	 * (see {@link PollTransaction#commitHeld}); when either cannot, goes back to the committed offsets of their
	 * partitions, so that they are delivered again.
	 * @return whether the commit is under way: {@code false} when the one before failed or this one could not start
	 */
	private boolean commitHeld(PollTransaction transaction, Consumer<?, ?> consumer) {
		if (!settled(transaction, consumer, List.of())) {
			return false;
		}
		Map<TopicPartition, Long> first = transaction.heldFirst();
		try {
			transaction.commitHeld(consumer.groupMetadata());
			return true;
		}
		catch (KafkaException ex) {
			deliverAgain(transaction, consumer, first, ex);
			return false;
		}
	}

	/**
	 * Waits for the listener thread's commit under way, if any. When it failed, the open transaction is aborted and
	 * the consumer goes back to the committed offsets of every partition it or the polls since hold (this poll's
	 * {@code records} too), so that all of them are delivered again.
	 * @return whether there was no commit under way, or it committed
	 */
	private boolean settled(PollTransaction transaction, Consumer<?, ?> consumer,
			List<ConsumerRecord<byte[], byte[]>> records) {
		if (!transaction.committing()) {
			return true;
		}
		Map<TopicPartition, Long> first = transaction.committingFirst();
		try {
			transaction.settle();
			return true;
		}
		catch (KafkaException ex) {
			PollOffsets.first(records).forEach(first::putIfAbsent);
			deliverAgain(transaction, consumer, first, ex);
			return false;
		}
	}

	/**
	 * After a commit that failed, or a producer failure that keeps the open transaction from committing: aborts it,
	 * forgets the polls held and goes back to the committed offsets of the partitions of {@code first} and of those
	 * polls, so that all their records are delivered again.
	 * @param first the first offsets to go back to when nothing is committed, added to by the polls held
	 */
	private void deliverAgain(PollTransaction transaction, Consumer<?, ?> consumer, Map<TopicPartition, Long> first,
			KafkaException failure) {
		logger.warn("A transaction of '{}' could not commit; its records are delivered again", this.name, failure);
		transaction.heldFirst().forEach(first::putIfAbsent);
		abortQuietly(transaction);
		transaction.forgetHeld();
		if (consumer != null) {
			rewindToCommitted(consumer, first);
		}
	}

	/**
	 * Aborts the open transaction; when that fails (its producer could not be replaced), the failure is logged, not
	 * thrown, so that the caller still forgets the polls held and goes back to their first records.
	 */
	private void abortQuietly(PollTransaction transaction) {
		try {
			transaction.abort();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not abort a transaction of '{}'; the broker aborts it when it times out", this.name, ex);
		}
	}

	/**
	 * A record failed in a transaction holding earlier polls: aborts it, goes back to the first records it held (and
	 * this poll's) and commits the next polls one by one.
	 */
	private void abortHeld(PollTransaction transaction, Consumer<?, ?> consumer,
			List<ConsumerRecord<byte[], byte[]>> records) {
		if (!settled(transaction, consumer, records)) {
			return;
		}
		Map<TopicPartition, Long> first = transaction.heldFirst();
		PollOffsets.first(records).forEach(first::putIfAbsent);
		abortQuietly(transaction);
		transaction.forgetHeld();
		first.keySet().retainAll(consumer.assignment());
		first.forEach(consumer::seek);
		transaction.beCareful(PipelinedCommits.CAREFUL_POLLS);
	}

	/**
	 * Commits the calling listener thread's open transaction of held polls, if any, and waits until it and the one
	 * before have committed (between polls).
	 */
	private void commitHeldPolls(Consumer<?, ?> consumer) {
		PollTransaction transaction = this.transactions.get(Thread.currentThread());
		if (transaction == null) {
			return;
		}
		Consumer<?, ?> held = (consumer != null) ? consumer : transaction.heldConsumer();
		if (transaction.heldPolls() > 0 && transaction.isOpen()) {
			commitHeld(transaction, held);
		}
		else if (transaction.heldPolls() > 0) {
			// polls held without a transaction to commit them (it was aborted): delivered again
			Map<TopicPartition, Long> first = transaction.heldFirst();
			transaction.forgetHeld();
			if (held != null) {
				rewindToCommitted(held, first);
			}
		}
		settled(transaction, held, List.of());
	}

	/**
	 * The consumer's {@code max.poll.records} as configured (an Integer, or text from a deployment property), Kafka's
	 * 500 when unset; one the client will refuse anyway counts as no limit, so that every poll asks for its lag.
	 */
	static int fullPoll(Object configured) {
		if (configured == null) {
			return 500;
		}
		try {
			return Integer.parseInt(configured.toString().trim());
		}
		catch (NumberFormatException ex) {
			return Integer.MAX_VALUE;
		}
	}

	/**
	 * After a transaction that did not commit (or whose outcome was unknown), goes back to the committed offsets of
	 * the partitions that this consumer still owns, so that the next poll delivers what was not committed.
	 * @param first the offsets of the first records the transaction held, gone back to when nothing is committed
	 */
	private static void rewindToCommitted(Consumer<?, ?> consumer, Map<TopicPartition, Long> first) {
		first.keySet().retainAll(consumer.assignment());
		Map<TopicPartition, OffsetAndMetadata> committed = committedOrNone(consumer, first.keySet());
		first.forEach((partition, offset) -> {
			OffsetAndMetadata done = committed.get(partition);
			consumer.seek(partition, (done != null) ? done.offset() : offset);
		});
	}

	/**
	 * The committed offsets of {@code partitions}; none when they cannot be read, as the first offsets held are never
	 * past what is committed: going back to them repeats records, never skips one.
	 */
	private static Map<TopicPartition, OffsetAndMetadata> committedOrNone(Consumer<?, ?> consumer,
			Set<TopicPartition> partitions) {
		try {
			return consumer.committed(partitions);
		}
		catch (KafkaException ex) {
			logger.warn("Could not read the committed offsets of {}; going back to the first records held", partitions,
					ex);
			return Map.of();
		}
	}

	/** Sends a record given up on to the dead-letter topic in one transaction with its offset. */
	private void deadLetterInTransaction(ConsumerRecord<?, ?> record, Consumer<?, ?> consumer, Exception ex,
			KafkaTemplate<byte[], byte[]> deadLetters,
			BiFunction<ConsumerRecord<?, ?>, Exception, TopicPartition> toDeadLetterTopic) {
		TransactionalDeadLetters transactional = transactionalDeadLetters(deadLetters, toDeadLetterTopic);
		transactional.template().executeInTransaction(operations -> {
			transactional.recoverer().accept(record, consumer, ex);
			operations.sendOffsetsToTransaction(Map.of(new TopicPartition(record.topic(), record.partition()),
					new OffsetAndMetadata(record.offset() + 1)), consumer.groupMetadata());
			return null;
		});
	}

	private synchronized TransactionalDeadLetters transactionalDeadLetters(KafkaTemplate<byte[], byte[]> deadLetters,
			BiFunction<ConsumerRecord<?, ?>, Exception, TopicPartition> toDeadLetterTopic) {
		if (this.transactionalDeadLetters == null) {
			Map<String, Object> config = PollTransaction.transactionalConfig(
					deadLetters.getProducerFactory().getConfigurationProperties());
			DefaultKafkaProducerFactory<byte[], byte[]> factory = new DefaultKafkaProducerFactory<>(config,
					new ByteArraySerializer(), new ByteArraySerializer());
			factory.setTransactionIdPrefix(this.transactionalIdPrefix + "dead-letters-");
			KafkaTemplate<byte[], byte[]> template = new KafkaTemplate<>(factory);
			this.transactionalDeadLetters = new TransactionalDeadLetters(template,
					new DeadLetterPublishingRecoverer(template, toDeadLetterTopic));
		}
		return this.transactionalDeadLetters;
	}

	@Override
	public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		// resolve the starting positions now, so that "ready" means messages sent from now on are seen
		try {
			startNewPartitionsWhereTheBindingBegan(consumer, partitions);
			for (TopicPartition partition : partitions) {
				consumer.position(partition);
			}
		}
		catch (WakeupException ex) {
			// the binding is stopping: hand the wake-up on to the poll that runs this callback, which ends the
			// consumer loop, rather than failing the assignment (the client would log that as an error)
			consumer.wakeup();
			return;
		}
		this.assigned.addAll(partitions);
		this.members.add(consumer.groupMetadata().memberId());
		this.joined.add(Thread.currentThread());
	}

	private void startNewPartitionsWhereTheBindingBegan(Consumer<?, ?> consumer,
			Collection<TopicPartition> partitions) {
		if (this.startIfNew.isEmpty()) {
			return;
		}
		Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
		for (TopicPartition partition : partitions) {
			Long start = this.startIfNew.get(partition);
			if (start != null && committed.get(partition) == null) {
				consumer.seek(partition, start);
			}
		}
	}

	@Override
	public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		this.commits.flush(consumer);
		commitHeldPolls(consumer);
		this.assigned.removeAll(partitions);
	}

	@Override
	public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		// the group has moved on: a transaction holding their offsets could not commit
		PollTransaction transaction = this.transactions.get(Thread.currentThread());
		if (transaction != null) {
			try {
				transaction.settle();
			}
			catch (KafkaException ex) {
				logger.debug("A transaction of '{}' did not commit before its partitions were lost", this.name, ex);
			}
			abortQuietly(transaction);
			transaction.forgetHeld();
		}
		this.assigned.removeAll(partitions);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public void unbind() {
		if (this.unbound) {
			return;
		}
		this.unbound = true;
		this.onUnbind.forEach(Runnable::run);
		if (!this.mayHandle.getAsBoolean()) {
			// fenced: this consumer hands nothing over and must not wait for a commit (the broker may be the reason
			// it cannot); what it handled and did not commit is delivered again to the partitions' next owner
			this.listener.stop(this::released);
			return;
		}
		// pause first: the consumer thread commits what the last poll's records were handled for before it
		// pauses, so stopping leaves nothing handled but uncommitted for the next owner to repeat
		this.listener.pause();
		Waiting.until(() -> this.listener.isContainerPaused() || !this.listener.isRunning(), STOP_PATIENCE,
				Duration.ofMillis(10));
		this.listener.stop();
		released();
	}

	/** Once the listener threads have ended: what they held is let go. */
	private void released() {
		this.commits.clear();
		this.assigned.clear();
		// the listener threads have ended: no transaction is open
		this.transactions.values().forEach(PollTransaction::close);
		this.transactions.clear();
		synchronized (this) {
			if (this.transactionalDeadLetters != null
					&& this.transactionalDeadLetters.template()
						.getProducerFactory() instanceof DefaultKafkaProducerFactory<?, ?> f) {
				f.destroy();
			}
		}
	}

	/** A transactional binding's dead-letter producer and the recoverer that publishes through it. */
	private record TransactionalDeadLetters(KafkaTemplate<byte[], byte[]> template,
			DeadLetterPublishingRecoverer recoverer) {
	}
}
