package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import io.xd.testsupport.SharedKafkaBroker;

/**
 * What tests read back from the shared broker's topics: the records of a topic from its start, and how many records
 * topics hold in all. One place for what every Kafka test needs, so that each reads the same way.
 */
public final class TopicRecords {

	private TopicRecords() {
	}

	/**
	 * Reads {@code topic} from its start until {@code expected} records have arrived or {@code timeout} has passed,
	 * then for {@code linger} more, so that a test can see records beyond those it expected (duplicates).
	 * @return the records in the order they were polled
	 */
	public static List<ConsumerRecord<byte[], byte[]>> read(String topic, int expected, Duration timeout,
			Duration linger) {
		return read(topic, expected, timeout, linger, "read_uncommitted");
	}

	/**
	 * As {@link #read(String, int, Duration, Duration)}, at an isolation level: {@code read_committed} sees the records
	 * of committed transactions only, {@code read_uncommitted} those of aborted ones too.
	 */
	public static List<ConsumerRecord<byte[], byte[]>> read(String topic, int expected, Duration timeout,
			Duration linger, String isolationLevel) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
		try (KafkaConsumer<byte[], byte[]> consumer = consumer(isolationLevel)) {
			consumer.subscribe(List.of(topic));
			long deadline = System.nanoTime() + timeout.toNanos();
			while (records.size() < expected && System.nanoTime() < deadline) {
				consumer.poll(Duration.ofMillis(200)).forEach(records::add);
			}
			if (!linger.isZero()) {
				consumer.poll(linger).forEach(records::add);
			}
		}
		return records;
	}

	/** As {@link #read(String, int, Duration, Duration)}, returning as soon as {@code expected} have arrived. */
	public static List<ConsumerRecord<byte[], byte[]>> read(String topic, int expected, Duration timeout) {
		return read(topic, expected, timeout, Duration.ZERO);
	}

	/** A consumer of the shared broker in a group of its own that starts at the earliest offset. */
	public static KafkaConsumer<byte[], byte[]> consumer() {
		return consumer("read_uncommitted");
	}

	private static KafkaConsumer<byte[], byte[]> consumer(String isolationLevel) {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolationLevel);
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaBroker.brokers());
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

	/** The topics of the shared broker whose names pass {@code filter}. */
	public static List<String> topics(Predicate<String> filter) {
		try (Admin admin = admin()) {
			return admin.listTopics().names().get().stream().filter(filter).sorted().toList();
		}
		catch (InterruptedException | ExecutionException ex) {
			throw new IllegalStateException("Could not list the topics", ex);
		}
	}

	/** How many records the given topics hold in all: the sum of their partitions' end offsets. */
	public static long count(Collection<String> topics) {
		try (Admin admin = admin()) {
			Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
			admin.describeTopics(topics).allTopicNames().get().forEach((topic, description) -> description.partitions()
				.forEach(partition -> latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest())));
			return admin.listOffsets(latest).all().get().values().stream().mapToLong(info -> info.offset()).sum();
		}
		catch (InterruptedException | ExecutionException ex) {
			throw new IllegalStateException("Could not read the end offsets of " + topics, ex);
		}
	}

	private static Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaBroker.brokers()));
	}
}
