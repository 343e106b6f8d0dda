package io.xd.benchmarks.runner;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The records a broker has acknowledged on a topic: the sum of its partitions' end offsets, read with Kafka's
 * admin client. A pipe's topic is {@code <stream>.<n>} (docs/kafka.md), so a fresh stream name gives a topic that
 * starts empty. Also creates and deletes the topics a suite fills itself.
 */
final class KafkaOffsets implements AutoCloseable {

	private final Admin admin;

	private final Map<String, List<TopicPartition>> partitions = new HashMap<>();

	KafkaOffsets(String bootstrap) {
		Properties config = new Properties();
		config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
		config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
		config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
		this.admin = Admin.create(config);
	}

	/** The topic of a stream's pipe after module {@code index} (0 for a two-module stream). */
	static String pipeTopic(String stream, int index) {
		return stream + "." + index;
	}

	/**
	 * The sum of the topic's end offsets: 0 while the topic does not exist yet.
	 * @throws InterruptedException if interrupted while waiting for the broker
	 * @throws IllegalStateException when the broker does not answer within 15 s
	 */
	long endOffsets(String topic) throws InterruptedException {
		return endOffsets(topic, IsolationLevel.READ_UNCOMMITTED);
	}

	/**
	 * The sum of the topic's last stable offsets, what a {@code read_committed} consumer can read (the end offsets
	 * less any open transaction's records): 0 while the topic does not exist yet. On a topic written without
	 * transactions the same as {@link #endOffsets(String)}.
	 * @throws InterruptedException if interrupted while waiting for the broker
	 * @throws IllegalStateException when the broker does not answer within 15 s
	 */
	long committedEndOffsets(String topic) throws InterruptedException {
		return endOffsets(topic, IsolationLevel.READ_COMMITTED);
	}

	private long endOffsets(String topic, IsolationLevel isolation) throws InterruptedException {
		try {
			List<TopicPartition> topicPartitions = this.partitions.get(topic);
			if (topicPartitions == null) {
				TopicDescription description = this.admin.describeTopics(List.of(topic)).allTopicNames()
					.get(15, TimeUnit.SECONDS).get(topic);
				topicPartitions = description.partitions().stream()
					.map(partition -> new TopicPartition(topic, partition.partition())).toList();
				this.partitions.put(topic, topicPartitions);
			}
			Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
			topicPartitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
			return this.admin.listOffsets(latest, new ListOffsetsOptions(isolation)).all().get(15, TimeUnit.SECONDS)
				.values().stream()
				.mapToLong(info -> info.offset()).sum();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
				this.partitions.remove(topic);
				return 0;
			}
			throw new IllegalStateException("Could not read the end offsets of " + topic + ": " + ex.getCause(), ex);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("The broker did not answer within 15 s for the offsets of " + topic, ex);
		}
	}

	/**
	 * The consumer groups whose id contains {@code token} (a fresh stream or channel name), and whether every member
	 * of each has partitions assigned: {@code true} once at least {@code groups} such groups exist, all assigned.
	 * @throws InterruptedException if interrupted while waiting for the broker
	 * @throws IllegalStateException when the broker does not answer within 15 s
	 */
	boolean assigned(String token, int groups) throws InterruptedException {
		try {
			List<String> ids = this.admin.listGroups().all().get(15, TimeUnit.SECONDS).stream()
				.map(GroupListing::groupId)
				.filter(id -> id.contains(token))
				.toList();
			if (ids.size() < groups) {
				return false;
			}
			Map<String, ConsumerGroupDescription> described = this.admin.describeConsumerGroups(ids).all()
				.get(15, TimeUnit.SECONDS);
			return described.values().stream().allMatch(group -> !group.members().isEmpty() && group.members()
				.stream().allMatch(member -> !member.assignment().topicPartitions().isEmpty()));
		}
		catch (ExecutionException ex) {
			return false; // a group that vanished or is still being created: not assigned yet
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("The broker did not answer within 15 s for the groups of " + token, ex);
		}
	}

	/**
	 * Creates a topic with {@code partitions} partitions and one replica.
	 * @throws InterruptedException if interrupted while waiting for the broker
	 * @throws IllegalStateException when the broker refuses or does not answer within 15 s
	 */
	void createTopic(String topic, int partitions) throws InterruptedException {
		createTopic(topic, partitions, (short) 1);
	}

	/** Creates a topic of {@code replicas} replicas, as {@link #createTopic(String, int)} does. */
	void createTopic(String topic, int partitions, short replicas) throws InterruptedException {
		try {
			this.admin.createTopics(List.of(new NewTopic(topic, partitions, replicas))).all().get(15, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not create topic " + topic + ": " + ex, ex);
		}
	}

	/**
	 * Deletes topics, so that a suite's records do not pile up on the broker's disk; a topic that does not exist
	 * is no error.
	 * @throws InterruptedException if interrupted while waiting for the broker
	 * @throws IllegalStateException when the broker refuses or does not answer within 15 s
	 */
	void deleteTopics(List<String> topics) throws InterruptedException {
		topics.forEach(this.partitions::remove);
		try {
			this.admin.deleteTopics(topics).all().get(15, TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
				throw new IllegalStateException("Could not delete topics " + topics + ": " + ex.getCause(), ex);
			}
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("The broker did not answer within 15 s to delete " + topics, ex);
		}
	}

	/**
	 * Deletes every topic whose name contains {@code part}, such as a destroyed stream's name: besides its pipes and
	 * queues, the bus made a tap topic for each producer and a dead-letter topic for each consumer, which outlive the
	 * stream. Returns how many it deleted.
	 * @throws InterruptedException if interrupted while waiting for the broker
	 * @throws IllegalStateException when the broker refuses or does not answer within 15 s
	 */
	int deleteTopicsNaming(String part) throws InterruptedException {
		Set<String> names;
		try {
			names = this.admin.listTopics().names().get(15, TimeUnit.SECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not list the broker's topics: " + ex, ex);
		}
		List<String> naming = names.stream().filter(name -> name.contains(part)).toList();
		if (!naming.isEmpty()) {
			deleteTopics(naming);
		}
		return naming.size();
	}

	@Override
	public void close() {
		this.admin.close();
	}
}
