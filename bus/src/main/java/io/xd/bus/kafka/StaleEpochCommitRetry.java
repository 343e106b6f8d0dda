package io.xd.bus.kafka;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repeats a synchronous offset commit that the group coordinator refused because the consumer's member epoch had
 * just moved on.
 * <p>
 * Under the consumer group protocol (KIP-848) every commit carries the member epoch, and a 4.x broker refuses one
 * whose epoch is older than the member's current one. The epoch moves whenever the member's assignment changes, so a
 * commit sent just before the heartbeat response that brings a new epoch fails, and the Kafka client reports it as a
 * {@link CommitFailedException} without retrying it. Spring Kafka drops such a failed commit; the records it covered
 * would be handled again by the next owner of the partition if it moved before the next successful commit. This
 * wrapper sends the commit again, with the new epoch the client has received by then, for the partitions the
 * consumer still owns.
 */
final class StaleEpochCommitRetry implements InvocationHandler {

	private static final Logger logger = LoggerFactory.getLogger(StaleEpochCommitRetry.class);

	private static final long PAUSE_MILLIS = 20;

	private final Consumer<?, ?> consumer;

	private final long patienceNanos;

	private StaleEpochCommitRetry(Consumer<?, ?> consumer, Duration patience) {
		this.consumer = consumer;
		this.patienceNanos = patience.toNanos();
	}

	/** {@code consumer} with its {@code commitSync(Map, ...)} calls repeated on a stale member epoch. */
	@SuppressWarnings("unchecked")
	static <K, V> Consumer<K, V> wrap(Consumer<K, V> consumer, Duration patience) {
		return (Consumer<K, V>) Proxy.newProxyInstance(StaleEpochCommitRetry.class.getClassLoader(),
				new Class<?>[] { Consumer.class }, new StaleEpochCommitRetry(consumer, patience));
	}

	@Override
	public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
		if (method.getName().equals("commitSync") && args != null && args.length > 0 && args[0] instanceof Map) {
			return commitSync(method, args);
		}
		return call(method, args);
	}

	private Object commitSync(Method method, Object[] args) throws Throwable {
		long deadline = System.nanoTime() + this.patienceNanos;
		Object[] attempt = args.clone();
		while (true) {
			try {
				return call(method, attempt);
			}
			catch (CommitFailedException ex) {
				if (!isStaleEpoch(ex)) {
					throw ex;
				}
				@SuppressWarnings("unchecked")
				Map<TopicPartition, OffsetAndMetadata> offsets = (Map<TopicPartition, OffsetAndMetadata>) attempt[0];
				Map<TopicPartition, OffsetAndMetadata> owned = stillOwned(offsets);
				if (owned.size() < offsets.size()) {
					logger.warn("Offsets {} could not be committed (stale member epoch) and their partitions have "
							+ "moved to another consumer, which will deliver those records again", offsets);
				}
				if (owned.isEmpty()) {
					throw ex;
				}
				if (System.nanoTime() > deadline) {
					logger.warn("Gave up committing {}: the member epoch stayed stale", owned);
					throw ex;
				}
				logger.debug("Committing {} again: the member epoch was stale", owned);
				attempt[0] = owned;
				TimeUnit.MILLISECONDS.sleep(PAUSE_MILLIS);
			}
		}
	}

	private Map<TopicPartition, OffsetAndMetadata> stillOwned(Map<TopicPartition, OffsetAndMetadata> offsets) {
		Set<TopicPartition> assignment = this.consumer.assignment();
		Map<TopicPartition, OffsetAndMetadata> owned = new LinkedHashMap<>();
		offsets.forEach((partition, offset) -> {
			if (assignment.contains(partition)) {
				owned.put(partition, offset);
			}
		});
		return owned;
	}

	/** The client words the refusal "OffsetCommit failed with stale member epoch"; no more specific type exists. */
	static boolean isStaleEpoch(CommitFailedException ex) {
		return ex.getMessage() != null && ex.getMessage().contains("stale member epoch");
	}

	private Object call(Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(this.consumer, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}
}
