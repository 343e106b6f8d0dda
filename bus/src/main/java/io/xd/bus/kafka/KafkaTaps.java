package io.xd.bus.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which tap topics have subscribers, so that a tapped producer writes to its tap only while someone reads it. A tap
 * consumer bound on this bus is seen at once; one in another process is seen when a refresh finds its consumer group
 * active, within {@code refreshInterval}. Thread-safe; {@link #active} is a map lookup, cheap enough per message.
 */
final class KafkaTaps implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(KafkaTaps.class);

	private final KafkaTopicProvisioner topics;

	private final Map<String, Integer> localConsumers = new ConcurrentHashMap<>();

	/** Tap topics written by producers of this bus, with how many such producers there are. */
	private final Map<String, Integer> tappedTopics = new ConcurrentHashMap<>();

	private volatile Set<String> remoteActive = Set.of();

	/** The flags of tap topics whose producers read one flag per message rather than look the topic up. */
	private final Map<String, Flag> flags = new ConcurrentHashMap<>();

	private final ScheduledExecutorService refresher;

	KafkaTaps(KafkaTopicProvisioner topics, Duration refreshInterval) {
		this.topics = topics;
		this.refresher = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "xd-kafka-taps");
			thread.setDaemon(true);
			return thread;
		});
		long interval = Math.max(1, refreshInterval.toMillis());
		this.refresher.scheduleWithFixedDelay(this::refresh, interval, interval, TimeUnit.MILLISECONDS);
	}

	/** Whether {@code tapTopic} has a subscriber, here or in another process. */
	boolean active(String tapTopic) {
		return this.localConsumers.containsKey(tapTopic) || this.remoteActive.contains(tapTopic);
	}

	/**
	 * Whether {@code tapTopic} is active, as a flag this bus keeps up to date: one volatile read per message, for a
	 * producer on a path as short as a direct binding.
	 */
	Flag flag(String tapTopic) {
		Flag flag = this.flags.computeIfAbsent(tapTopic, topic -> new Flag());
		flag.active = active(tapTopic);
		return flag;
	}

	private void updateFlags() {
		this.flags.forEach((topic, flag) -> flag.active = active(topic));
	}

	/** A producer of this bus writes to {@code tapTopic} while it is active; returns what undoes this. */
	Runnable producerTapping(String tapTopic) {
		this.tappedTopics.merge(tapTopic, 1, Integer::sum);
		return () -> this.tappedTopics.computeIfPresent(tapTopic, KafkaTaps::decrement);
	}

	/** A consumer of {@code tapTopic} was bound on this bus; returns what undoes this. */
	Runnable consumerBound(String tapTopic) {
		this.localConsumers.merge(tapTopic, 1, Integer::sum);
		updateFlags();
		return () -> {
			this.localConsumers.computeIfPresent(tapTopic, KafkaTaps::decrement);
			updateFlags();
		};
	}

	private static Integer decrement(String topic, Integer count) {
		return (count > 1) ? count - 1 : null;
	}

	private void refresh() {
		if (this.tappedTopics.isEmpty()) {
			return;
		}
		try {
			Set<String> groups = this.topics.activeGroups();
			Set<String> active = ConcurrentHashMap.newKeySet();
			for (String tapTopic : this.tappedTopics.keySet()) {
				String prefix = tapTopic + ".";
				if (groups.stream().anyMatch(group -> group.startsWith(prefix))) {
					active.add(tapTopic);
				}
			}
			this.remoteActive = active;
			updateFlags();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not refresh the tap subscribers; keeping the last known ones", ex);
		}
	}

	@Override
	public void close() {
		this.refresher.shutdownNow();
	}

	/** Whether one tap topic has a subscriber. */
	static final class Flag {

		volatile boolean active;

		boolean active() {
			return this.active;
		}
	}
}
