package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names Kafka topics after bus channels and creates or grows them through the admin client.
 * <p>
 * A channel name becomes a topic name as in Spring XD: ASCII letters, digits, {@code .} and {@code -} are kept and
 * every other byte of its UTF-8 form becomes {@code _} and two hex digits, so {@code queue:orders} is
 * {@code queue_3Aorders}.
 */
final class KafkaTopicProvisioner {

	private static final Logger logger = LoggerFactory.getLogger(KafkaTopicProvisioner.class);

	private final Admin admin;

	private final Duration timeout;

	private final Map<String, Integer> known = new ConcurrentHashMap<>();

	private final Map<String, Integer> replicas = new ConcurrentHashMap<>();

	KafkaTopicProvisioner(Admin admin, Duration timeout) {
		this.admin = admin;
		this.timeout = timeout;
	}

	/** The topic that carries a channel. */
	static String topicName(String channel) {
		StringBuilder topic = new StringBuilder(channel.length() + 8);
		for (byte b : channel.getBytes(StandardCharsets.UTF_8)) {
			char c = (char) (b & 0xff);
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-') {
				topic.append(c);
			}
			else {
				topic.append('_').append(String.format(Locale.ROOT, "%02X", b & 0xff));
			}
		}
		return topic.toString();
	}

	/**
	 * Makes sure a topic exists with at least {@code partitions} partitions; grows it if {@code mayGrow}.
	 * @return the topic's partition count
	 * @throws IllegalStateException with a sentence a user can act on when the cluster cannot host the topic or
	 *     does not answer within the admin timeout
	 */
	int provision(String topic, int partitions, int replicationFactor, boolean mayGrow) {
		Integer current = this.known.get(topic);
		if (current != null && (current >= partitions || !mayGrow)) {
			return current;
		}
		synchronized (this) {
			int existing = describe(topic);
			if (existing == 0) {
				checkReplicationFactor(topic, replicationFactor);
				try {
					await(this.admin.createTopics(List.of(new NewTopic(topic, partitions, (short) replicationFactor)))
						.all(), "create topic '" + topic + "'");
					logger.info("Created topic {} with {} partition(s), replication factor {}", topic, partitions,
							replicationFactor);
					existing = partitions;
					this.replicas.put(topic, replicationFactor);
				}
				catch (TopicExistsException ex) {
					existing = describe(topic);
				}
			}
			if (existing < partitions && mayGrow) {
				try {
					await(this.admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all(),
							"grow topic '" + topic + "'");
					logger.info("Grew topic {} from {} to {} partitions", topic, existing, partitions);
					existing = partitions;
				}
				catch (InvalidPartitionsException ex) {
					// another process (a new instance of the same module elsewhere) grew it meanwhile
					existing = describe(topic);
					if (existing < partitions) {
						throw ex;
					}
				}
			}
			this.known.put(topic, existing);
			return existing;
		}
	}

	/**
	 * The replicas of a topic {@link #provision(String, int, int, boolean) provisioned} before, as the cluster
	 * described or created it; 0 when not known.
	 */
	int replicas(String topic) {
		return this.replicas.getOrDefault(topic, 0);
	}

	/** Each partition's end offset now, for a topic of {@code partitions} partitions. */
	Map<TopicPartition, Long> endOffsets(String topic, int partitions) {
		Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
		for (int partition = 0; partition < partitions; partition++) {
			latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
		}
		Map<TopicPartition, Long> ends = new HashMap<>();
		await(this.admin.listOffsets(latest).all(), "read the end offsets of topic '" + topic + "'")
			.forEach((partition, info) -> ends.put(partition, info.offset()));
		return ends;
	}

	/**
	 * How many partitions of {@code topic} the members of group {@code groupId} other than {@code except} own now, as
	 * its coordinator says.
	 */
	int ownedInGroup(String groupId, String topic, Set<String> except) {
		ConsumerGroupDescription group = await(this.admin.describeConsumerGroups(List.of(groupId))
			.describedGroups()
			.get(groupId), "describe consumer group '" + groupId + "'");
		return (int) group.members()
			.stream()
			.filter(member -> !except.contains(member.consumerId()))
			.flatMap(member -> member.assignment().topicPartitions().stream())
			.filter(partition -> partition.topic().equals(topic))
			.distinct()
			.count();
	}

	/** The consumer groups the cluster knows, by id. */
	Set<String> activeGroups() {
		return await(this.admin.listGroups().all(), "list consumer groups").stream()
			.filter(group -> group.groupState().map(state -> !state.name().equals("EMPTY") && !state.name()
				.equals("DEAD")).orElse(true))
			.map(group -> group.groupId())
			.collect(java.util.stream.Collectors.toSet());
	}

	private void checkReplicationFactor(String topic, int replicationFactor) {
		int brokers = await(this.admin.describeCluster().nodes(), "describe the cluster").size();
		if (replicationFactor > brokers) {
			throw new IllegalStateException("Cannot create topic '" + topic + "' with replication factor "
					+ replicationFactor + ": the Kafka cluster has " + brokers + " broker" + (brokers == 1 ? "" : "s")
					+ "; lower xd.messagebus.kafka.default.replicationFactor or add brokers");
		}
	}

	private int describe(String topic) {
		try {
			Map<String, TopicDescription> descriptions = await(this.admin.describeTopics(List.of(topic))
				.allTopicNames(), "describe topic '" + topic + "'");
			TopicDescription description = descriptions.get(topic);
			if (!description.partitions().isEmpty()) {
				this.replicas.put(topic, description.partitions().get(0).replicas().size());
			}
			return description.partitions().size();
		}
		catch (UnknownTopicOrPartitionException ex) {
			return 0;
		}
	}

	private <T> T await(org.apache.kafka.common.KafkaFuture<T> future, String what) {
		try {
			return future.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RuntimeException runtime
					&& (runtime instanceof TopicExistsException || runtime instanceof UnknownTopicOrPartitionException
							|| runtime instanceof InvalidPartitionsException)) {
				throw runtime;
			}
			if (ex.getCause() instanceof AuthenticationException) {
				throw new IllegalStateException("Could not " + what + ": the Kafka brokers refused the bus's "
						+ "credentials (" + ex.getCause().getMessage() + "); check xd.messagebus.kafka.security.protocol, "
						+ "xd.messagebus.kafka.sasl.* and xd.messagebus.kafka.ssl.*", ex.getCause());
			}
			throw new IllegalStateException("Could not " + what + ": " + ex.getCause().getMessage(), ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("Could not " + what + ": the Kafka brokers did not answer within "
					+ this.timeout.toSeconds() + " s", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while trying to " + what, ex);
		}
	}
}
