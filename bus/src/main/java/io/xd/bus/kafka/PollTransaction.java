package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka transaction of a transactional consumer binding's listener thread: what the module sends while it
 * handles a poll's records, and the offsets of those records, are committed together or not at all
 * (read-process-write). Zombies are fenced by the consumer group (KIP-447): the offsets carry the consumer's group
 * metadata, so a consumer that has lost its partitions cannot commit, and its transaction is aborted.
 * <p>
 * One instance per listener thread, kept across its polls and used by that thread only. The producer is made on the
 * first send of the thread, from the client configuration of the producer binding that sends (with
 * {@code acks=all}, idempotence and a transactional id of this instance's own), and the transaction begins with the
 * first send of a poll: a poll whose handling sends nothing (a sink, a filter that drops every record) commits no
 * transaction. A producer binding sends through {@link #send}, on the thread that {@link #enter entered} the
 * transaction.
 * <p>
 * Two producers (<em>lanes</em>, each with a transactional id of its own) take turns, so that the listener thread
 * does not wait while a transaction commits: {@link #commitHeld} hands the commit (waiting until the lane's records
 * are acknowledged, sending the offsets, ending the transaction) to a thread of this instance's own and begins the
 * next transaction on the other lane at once. The next transaction's records go to the same partitions and must
 * follow the last ones in each of them, so the other lane holds its sends back (up to {@link #HOLD_RECORDS} records
 * and {@link #HOLD_BYTES} bytes, then it waits) until the lane before has its records acknowledged, and then sends
 * them in order: the listener goes on handling records meanwhile, where it waited for the acknowledgements before
 * (2-8% of a 100 B hop's time on 2 busy cores). One commit is under way at most; the next one waits for it
 * ({@link #settle}), so that transactions commit in the order of their offsets, and a commit that failed is seen
 * before anything after it commits: the caller then aborts the open transaction (its sends held back are dropped
 * with it) and goes back to the committed offsets.
 */
final class PollTransaction implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(PollTransaction.class);

	private static final ThreadLocal<PollTransaction> CURRENT = new ThreadLocal<>();

	/**
	 * How long a transaction may stay open before the broker aborts it, unless the producer configuration says
	 * otherwise: as Kafka Streams has it under exactly-once, short, because the records after a crashed consumer's
	 * open transaction reach no {@code read_committed} reader until it is aborted.
	 */
	static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(10);

	/** How long a commit whose outcome the client does not know yet is retried. */
	private static final Duration COMMIT_PATIENCE = Duration.ofMinutes(1);

	private static final Duration CLOSE_PATIENCE = Duration.ofSeconds(5);

	/** How many records a lane holds back at most while the lane before has records unacknowledged. */
	static final int HOLD_RECORDS = 20_000;

	/** How many bytes of keys and values a lane holds back at most while the lane before has records unacknowledged. */
	static final long HOLD_BYTES = 8L << 20;

	private final String transactionalId;

	private Map<String, Object> clientConfig;

	/** The lane that takes the sends of the open transaction, and the other one. */
	private Lane current;

	private Lane other;

	/** The commit under way on the other lane, or {@code null}; and the first offsets of the polls it holds. */
	private CompletableFuture<Void> committing;

	private Map<TopicPartition, Long> committingFirst = Map.of();

	/** Runs the commits handed over, made with the first. */
	private ExecutorService committer;

	/** The next offsets of the polls handled in the open transaction (or since the last commit), and their first. */
	private final Map<TopicPartition, OffsetAndMetadata> heldOffsets = new HashMap<>();

	private final Map<TopicPartition, Long> heldFirst = new HashMap<>();

	private int heldPolls;

	private long heldSince;

	/** The consumer of the last poll held, for a commit between polls. */
	private Consumer<?, ?> heldConsumer;

	/** Polls still to commit one by one, after a failure in a transaction that held several. */
	private int carefulPolls;

	/**
	 * What the open transaction's producer threw on a send, or {@code null}: the transaction cannot commit, through
	 * no fault of the record being handled.
	 */
	private KafkaException producerFailure;

	/**
	 * Whether the producer refused a record held back when it was sent (too large, say): its transaction cannot
	 * commit, and which record it was is not known then. After the abort, the next polls are {@link #careful} and
	 * hold nothing back, so that the refusal comes at the module's send of that record.
	 */
	private boolean refusedHeld;

	PollTransaction(String transactionalId) {
		this.transactionalId = transactionalId;
		this.current = new Lane(transactionalId);
		this.other = new Lane(transactionalId + "-b");
	}

	/**
	 * Sends a record on the calling thread: while the thread handles a transactional poll, in its open transaction
	 * (begun if need be), held back while the lane before has records unacknowledged unless {@code now} or the poll
	 * is {@link #careful}; through {@code outside} otherwise.
	 * @param clientConfig the sending binding's client configuration, used if the thread has no producer yet
	 * @param callback called when a send through {@code outside} completes
	 * @param inTransaction called when a send in the transaction completes: a failure there fails the transaction,
	 * whose records are delivered again, so it is not the module's to learn of later
	 * @param now whether the record must be handed to a producer before this returns (a synchronous send)
	 * @return the producer's future, or {@code null} when the record was held back ({@code inTransaction} is called
	 * once it has been sent and acknowledged, or with a {@link TransactionAbortedException} when its transaction is
	 * aborted first)
	 * @throws Refused when the producer refused the record at once: the record's own fault, not the transaction's
	 */
	static Future<RecordMetadata> send(Producer<byte[], byte[]> outside, Map<String, Object> clientConfig,
			ProducerRecord<byte[], byte[]> record, Callback callback, Callback inTransaction, boolean now) {
		PollTransaction current = CURRENT.get();
		if (current == null) {
			return outside.send(record, callback);
		}
		Future<RecordMetadata> future;
		try {
			future = current.begin(clientConfig).send(record, inTransaction, now || current.carefulPolls > 0);
		}
		catch (KafkaException ex) {
			current.producerFailure = ex;
			throw ex;
		}
		// larger than max.request.size, say: thrown now, so that the handler fails on this record and not on a later
		// one, and it is retried and dead-lettered as a record whose handler fails
		Exception refused = refusal(future);
		if (refused != null) {
			throw new Refused(refused);
		}
		return future;
	}

	/** The failure of a send that the producer failed at once, before sending it; {@code null} for any other. */
	private static Exception refusal(Future<RecordMetadata> future) {
		if (future == null || !future.isDone()) {
			return null;
		}
		try {
			future.get();
			return null;
		}
		catch (ExecutionException ex) {
			return (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/**
	 * What the open transaction's producer threw when the module sent (fenced, in error after a failed send, or not
	 * made), or {@code null}: the module's handler failed because of it, not because of its record, and the
	 * transaction cannot commit.
	 */
	KafkaException producerFailure() {
		return this.producerFailure;
	}

	/**
	 * Sends what the open transaction held back if the lane before has its records acknowledged by now, without
	 * waiting: called at the end of a poll, so that the held records are on their way while the next one is fetched.
	 * @throws KafkaException when the producer refuses them: the transaction cannot commit
	 */
	void sendHeldIfReady() {
		this.current.sendHeldIfReady();
	}

	/** Makes this the calling thread's transaction, until {@link #leave()}. */
	void enter() {
		CURRENT.set(this);
	}

	/** The calling thread's sends go outside transactions again. */
	static void leave() {
		CURRENT.remove();
	}

	private Lane begin(Map<String, Object> config) {
		if (this.clientConfig == null) {
			this.clientConfig = config;
			// the other lane's producer is made meanwhile, on the commit thread: its first commit comes after that
			Lane next = this.other;
			next.ready = CompletableFuture.runAsync(next::prepare, committer());
		}
		return this.current.begin();
	}

	/**
	 * {@code config} as a transactional producer needs it: {@code acks=all}, idempotence, and
	 * {@link #TRANSACTION_TIMEOUT} unless it names a timeout; the transactional id is the caller's to add.
	 */
	static Map<String, Object> transactionalConfig(Map<String, Object> config) {
		Map<String, Object> transactional = new HashMap<>(config);
		transactional.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		transactional.put(ProducerConfig.ACKS_CONFIG, "all");
		transactional.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) TRANSACTION_TIMEOUT.toMillis());
		return transactional;
	}

	/**
	 * Adds a handled poll's offsets to those the next commit sends.
	 * @param next the next offsets to read of the poll's partitions
	 * @param first the offsets of the poll's first records
	 */
	void hold(Consumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> next, Map<TopicPartition, Long> first) {
		if (this.heldPolls == 0) {
			this.heldSince = System.nanoTime();
		}
		this.heldPolls++;
		this.heldOffsets.putAll(next);
		first.forEach(this.heldFirst::putIfAbsent);
		this.heldConsumer = consumer;
	}

	/** How many handled polls the next commit covers. */
	int heldPolls() {
		return this.heldPolls;
	}

	/** When the first of the polls held was handled ({@link System#nanoTime()}). */
	long heldSince() {
		return this.heldSince;
	}

	/** The first offsets of the polls held, to go back to when they are not committed. */
	Map<TopicPartition, Long> heldFirst() {
		return new HashMap<>(this.heldFirst);
	}

	/** The consumer of the last poll held (the one the listener thread polls with), or {@code null}. */
	Consumer<?, ?> heldConsumer() {
		return this.heldConsumer;
	}

	/** Forgets the polls held: committed, or to be delivered again. */
	void forgetHeld() {
		this.heldOffsets.clear();
		this.heldFirst.clear();
		this.heldPolls = 0;
	}

	/**
	 * Commits the open transaction with the offsets of the polls held, on this instance's commit thread: waits until
	 * its records are acknowledged, hands the commit over and returns, the next transaction to begin on the other
	 * lane. Called with no commit under way ({@link #settle} first).
	 */
	void commitHeld(ConsumerGroupMetadata group) {
		if (this.committing != null) {
			throw new IllegalStateException("A commit of transaction " + this.transactionalId + " is under way");
		}
		Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(this.heldOffsets);
		Map<TopicPartition, Long> first = heldFirst();
		forgetHeld();
		// a failure of this transaction's producer shows in its commit; the next transaction starts without one
		this.producerFailure = null;
		Lane lane = this.current;
		// what the lane held back goes first: the lane's records are all with its producer before it is flushed
		lane.sendHeld();
		// the next transaction's records go to the same partitions through the other producer: they must come after
		// these in each of them, so the other lane holds them back until these are acknowledged
		CompletableFuture<Void> acknowledged = new CompletableFuture<>();
		this.current = this.other;
		this.other = lane;
		this.current.behind = acknowledged;
		this.committingFirst = first;
		this.committing = CompletableFuture.runAsync(() -> {
			try {
				lane.producer.flush();
			}
			catch (KafkaException ex) {
				lane.abort();
				throw ex;
			}
			finally {
				acknowledged.complete(null);
			}
			lane.commit(offsets, group);
		}, committer());
	}

	private ExecutorService committer() {
		if (this.committer == null) {
			this.committer = Executors.newSingleThreadExecutor(task -> {
				Thread thread = new Thread(task, "xd-kafka-commit-" + this.transactionalId);
				thread.setDaemon(true);
				return thread;
			});
		}
		return this.committer;
	}

	/** Whether a commit is under way or its outcome not yet seen by {@link #settle}. */
	boolean committing() {
		return this.committing != null;
	}

	/** The first offsets of the polls of the commit under way (empty when none), to go back to if it fails. */
	Map<TopicPartition, Long> committingFirst() {
		return new HashMap<>(this.committingFirst);
	}

	/**
	 * Waits for the commit under way, if any, to end.
	 * @throws KafkaException when it did not commit: it was aborted, or its producer replaced when the outcome is not
	 * known (the committed offsets then tell what happened)
	 */
	void settle() {
		CompletableFuture<Void> pending = this.committing;
		if (pending == null) {
			return;
		}
		try {
			// not interruptible: until the commit has ended its lane is the commit thread's, and its outcome unknown
			pending.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof KafkaException kafka) {
				throw kafka;
			}
			throw new KafkaException("The commit of transaction " + this.transactionalId + " failed", ex.getCause());
		}
		finally {
			this.committing = null;
			this.committingFirst = Map.of();
		}
	}

	/** Starts committing each poll's transaction at its end, for {@code polls} polls. */
	void beCareful(int polls) {
		this.carefulPolls = polls;
	}

	/** Whether this poll's transaction commits at its end, counting it down. */
	boolean careful() {
		if (this.carefulPolls > 0) {
			this.carefulPolls--;
			return true;
		}
		return false;
	}

	/** Whether a transaction is open: something was sent since the last commit or abort. */
	boolean isOpen() {
		return this.current.open;
	}

	/** Aborts the open transaction, if any: nothing it holds becomes visible to {@code read_committed} readers. */
	void abort() {
		this.producerFailure = null;
		if (this.refusedHeld) {
			this.refusedHeld = false;
			beCareful(Math.max(this.carefulPolls, PipelinedCommits.CAREFUL_POLLS));
		}
		this.current.abort();
	}

	@Override
	public void close() {
		if (this.committer != null) {
			// the producers are closed on the commit thread, after the commit under way (and the making of a
			// producer) has ended, however long that takes: never under a commit
			Lane first = this.current;
			Lane second = this.other;
			this.committer.execute(() -> {
				first.close();
				second.close();
			});
			this.committer.shutdown();
			try {
				if (!this.committer.awaitTermination(CLOSE_PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
					logger.debug("The last commit of transaction {} did not end in time", this.transactionalId);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return;
		}
		this.current.close();
		this.other.close();
	}

	/** One transactional producer, whether a transaction of it is open, and the sends it holds back. */
	private final class Lane {

		private final String id;

		private Producer<byte[], byte[]> producer;

		private boolean open;

		/**
		 * Completes once the lane before (the other one) has every record of its last transaction acknowledged; until
		 * then this lane holds its sends back. {@code null} when it has.
		 */
		private CompletableFuture<Void> behind;

		/** The sends held back, in order, and the bytes of their keys and values. */
		private final List<HeldSend> held = new ArrayList<>();

		private long heldBytes;

		/** The making of the producer ahead of the lane's first transaction, or {@code null}. */
		private CompletableFuture<Void> ready;

		Lane(String id) {
			this.id = id;
		}

		/** Makes the producer ahead of the lane's first transaction; if it cannot, {@link #begin} tries again. */
		void prepare() {
			try {
				this.producer = create();
			}
			catch (RuntimeException ex) {
				logger.debug("Could not make the producer of transaction {} yet", this.id, ex);
			}
		}

		Lane begin() {
			if (this.ready != null) {
				this.ready.join();
				this.ready = null;
			}
			if (this.producer == null) {
				this.producer = create();
			}
			if (!this.open) {
				this.producer.beginTransaction();
				this.open = true;
			}
			return this;
		}

		/** Sends a record in the open transaction, or holds it back (returning {@code null}): see {@link #send}. */
		Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback, boolean now) {
			CompletableFuture<Void> before = this.behind;
			if (before != null) {
				if (!now && !before.isDone() && this.held.size() < HOLD_RECORDS && this.heldBytes < HOLD_BYTES) {
					HeldSend send = new HeldSend(record, callback);
					this.held.add(send);
					this.heldBytes += send.length();
					return null;
				}
				sendHeld();
			}
			return this.producer.send(record, callback);
		}

		/** Waits until the lane before has its records acknowledged, then sends those held back, in order. */
		void sendHeld() {
			CompletableFuture<Void> before = this.behind;
			if (before == null) {
				return;
			}
			// completes whether or not the lane before could flush (see commitHeld); not interruptible, as settle
			before.join();
			this.behind = null;
			int sent = 0;
			try {
				for (HeldSend send : this.held) {
					if (refusal(this.producer.send(send.record(), send.callback())) != null) {
						PollTransaction.this.refusedHeld = true;
					}
					sent++;
				}
			}
			finally {
				// when the producer refuses one, those after it stay held, to be dropped when the transaction aborts
				this.held.subList(0, sent).clear();
				this.heldBytes = this.held.stream().mapToLong(HeldSend::length).sum();
			}
		}

		void sendHeldIfReady() {
			CompletableFuture<Void> before = this.behind;
			if (before != null && before.isDone()) {
				sendHeld();
			}
		}

		/** Drops the sends held back, telling their callbacks that their transaction was aborted. */
		private void dropHeld() {
			if (this.held.isEmpty()) {
				return;
			}
			TransactionAbortedException aborted = new TransactionAbortedException(
					"Transaction " + this.id + " was aborted before this record was sent");
			for (HeldSend send : this.held) {
				send.callback().onCompletion(null, aborted);
			}
			this.held.clear();
			this.heldBytes = 0;
		}

		private Producer<byte[], byte[]> create() {
			Map<String, Object> transactional = transactionalConfig(PollTransaction.this.clientConfig);
			transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, this.id);
			KafkaProducer<byte[], byte[]> created = new KafkaProducer<>(transactional, new ByteArraySerializer(),
					new ByteArraySerializer());
			try {
				// fences an earlier producer of this id and completes or aborts what it left open
				created.initTransactions();
			}
			catch (KafkaException ex) {
				created.close(Duration.ZERO);
				throw ex;
			}
			return created;
		}

		/**
		 * Commits the open transaction with {@code offsets}, the next offsets to read of the records handled.
		 * @throws KafkaException when the transaction could not be committed; it was aborted, or its producer replaced
		 * when the outcome is not known
		 */
		void commit(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group) {
			try {
				this.producer.sendOffsetsToTransaction(offsets, group);
			}
			catch (KafkaException ex) {
				abort();
				throw ex;
			}
			long deadline = System.nanoTime() + COMMIT_PATIENCE.toNanos();
			while (true) {
				try {
					this.producer.commitTransaction();
					this.open = false;
					return;
				}
				catch (TimeoutException ex) {
					// the commit may have happened: only the same call again may end the transaction now
					if (System.nanoTime() > deadline) {
						replace();
						throw ex;
					}
				}
				catch (KafkaException ex) {
					abort();
					throw ex;
				}
			}
		}

		void abort() {
			dropHeld();
			if (!this.open) {
				return;
			}
			this.open = false;
			try {
				this.producer.abortTransaction();
			}
			catch (KafkaException ex) {
				// fenced, timed out by the broker or failed for good: the producer can do nothing more
				logger.warn("Could not abort transaction {}; replacing its producer", this.id, ex);
				replace();
			}
		}

		/**
		 * Closes the producer and makes a new one with the same transactional id at once, so that whatever the old
		 * one left open is completed or aborted (and its offsets settled) before the consumer reads its committed
		 * offsets.
		 */
		private void replace() {
			this.open = false;
			this.producer.close(Duration.ZERO);
			this.producer = null;
			this.producer = create();
		}

		void close() {
			dropHeld();
			if (this.producer != null) {
				this.producer.close(CLOSE_PATIENCE);
				this.producer = null;
			}
		}
	}

	/**
	 * A record the producer refused at once, before sending it (larger than {@code max.request.size}, say): its own
	 * fault, thrown at the module's send of it. Its transaction cannot commit; the consumer binding aborts it.
	 */
	static final class Refused extends RuntimeException {

		Refused(Exception cause) {
			super(cause.getMessage(), cause);
		}
	}

	/** A send a lane holds back: the record and the callback given with it. */
	private record HeldSend(ProducerRecord<byte[], byte[]> record, Callback callback) {

		/** The bytes of the record's key and value. */
		long length() {
			return length(this.record.key()) + length(this.record.value());
		}

		private static int length(byte[] bytes) {
			return (bytes != null) ? bytes.length : 0;
		}
	}
}
