package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.MessageBuilder;

import io.xd.bus.BindingProperties;
import io.xd.bus.ProducerBinding;
import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code commitInterval}: a hop with a backlog commits what it handled at most once per interval, its offsets
 * (at-least-once) never ahead of the forwarded records the broker has, its transaction (exactly-once) spanning polls;
 * each record still comes out once, in order, and everything is committed once the backlog is gone.
 */
class KafkaCommitIntervalIntegrationTests {

	private static final int TOTAL = 16_000;

	/** Per record, so that the backlog takes about 4 s to handle, several polls per interval. */
	private static final long WORK_NANOS = TimeUnit.MICROSECONDS.toNanos(250);

	private final String prefix = "interval" + UUID.randomUUID().toString().substring(0, 8);

	private final List<KafkaMessageBus> buses = new ArrayList<>();

	@AfterEach
	void close() {
		this.buses.forEach(KafkaMessageBus::close);
	}

	@Test
	void anAtLeastOnceHopWithABacklogCommitsOncePerIntervalAndNeverAheadOfItsForwardedRecords() throws Exception {
		History history = hop(false, "1s", "a");
		// about 4 s of backlog: a commit per second, where one per poll of 500 records would be 32
		assertThat(history.commits()).as("commits seen while the backlog lasted").isBetween(1, 6);
		assertThat(history.committedAheadOfOutput()).as("samples where the offsets were ahead of the output")
			.isZero();
	}

	@Test
	void anAtLeastOnceHopWithoutAnIntervalCommitsEveryPoll() throws Exception {
		History history = hop(false, "0", "b");
		assertThat(history.commits()).as("commits seen while the backlog lasted").isGreaterThan(8);
		assertThat(history.committedAheadOfOutput()).isZero();
	}

	@Test
	void anExactlyOnceHopWithABacklogCommitsATransactionOfSeveralPollsOncePerInterval() throws Exception {
		History history = hop(true, "1s", "c");
		// what a read_committed reader sees grows once per transaction
		assertThat(history.outputSteps()).as("committed transactions seen while the backlog lasted").isBetween(1, 6);
	}

	@Test
	void anExactlyOnceHopWithoutAnIntervalCommitsATransactionPerPoll() throws Exception {
		History history = hop(true, "0", "d");
		assertThat(history.outputSteps()).as("committed transactions seen while the backlog lasted")
			.isGreaterThan(3);
	}

	/**
	 * Fills a topic with {@link #TOTAL} records, then forwards them through a consumer binding whose handler works
	 * {@link #WORK_NANOS} per record, sampling the group's committed offset and the output topic's ends meanwhile.
	 */
	private History hop(boolean transactional, String interval, String name) throws Exception {
		KafkaBusProperties settings = KafkaMessageBusIntegrationTests.settings("native");
		settings.setTransactional(transactional);
		KafkaMessageBus bus = new KafkaMessageBus(settings);
		this.buses.add(bus);
		String in = this.prefix + "-" + name + ".0";
		String out = this.prefix + "-" + name + ".1";
		ProducerBinding source = bus.bindProducer(in, null, BindingProperties.NONE);
		IntStream.range(0, TOTAL)
			.forEach(i -> source.channel().send(MessageBuilder.withPayload(("m" + i).getBytes(StandardCharsets.UTF_8))
				.build()));
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.NONE);
		AtomicInteger handled = new AtomicInteger();
		bus.bindConsumer(in, message -> {
			forward.channel().send(message);
			LockSupport.parkNanos(WORK_NANOS);
			handled.incrementAndGet();
		}, BindingProperties.of(Map.of("commitInterval", interval, "max.poll.records", "500")));

		String inTopic = KafkaTopicProvisioner.topicName(in);
		String outTopic = KafkaTopicProvisioner.topicName(out);
		TopicPartition input = new TopicPartition(inTopic, 0);
		TopicPartition output = new TopicPartition(outTopic, 0);
		History history = new History();
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				SharedKafkaBroker.brokers()))) {
			long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			long committed = -1;
			while (committed < TOTAL) {
				assertThat(System.nanoTime()).as("all committed within 60 s").isLessThan(deadline);
				OffsetAndMetadata offset = admin.listConsumerGroupOffsets(inTopic)
					.partitionsToOffsetAndMetadata()
					.get()
					.get(input);
				committed = (offset != null) ? offset.offset() : 0;
				// read after the offsets: an output end below them means the offsets were committed first
				long outputEnd = admin
					.listOffsets(Map.of(output, OffsetSpec.latest()),
							new ListOffsetsOptions(transactional ? IsolationLevel.READ_COMMITTED
									: IsolationLevel.READ_UNCOMMITTED))
					.all()
					.get()
					.get(output)
					.offset();
				history.sample(committed, outputEnd, handled.get() < TOTAL);
				Thread.sleep(20);
			}
		}
		assertThat(handled.get()).isGreaterThanOrEqualTo(TOTAL);
		List<ConsumerRecord<byte[], byte[]>> records = TopicRecords.read(outTopic, TOTAL, Duration.ofSeconds(30),
				Duration.ofSeconds(1), "read_committed");
		if (transactional) {
			assertThat(records).extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
				.containsExactlyElementsOf(IntStream.range(0, TOTAL).mapToObj(i -> "m" + i).toList());
		}
		else {
			assertThat(records).hasSizeGreaterThanOrEqualTo(TOTAL);
		}
		return history;
	}

	/** What the samples saw while the backlog was being handled. */
	private static final class History {

		private long lastCommitted = -1;

		private long lastOutput = -1;

		private int commits;

		private int outputSteps;

		private int ahead;

		void sample(long committed, long outputEnd, boolean backlog) {
			if (backlog && committed > 0 && committed != this.lastCommitted) {
				this.commits++;
			}
			if (backlog && outputEnd > 0 && outputEnd != this.lastOutput) {
				this.outputSteps++;
			}
			// the output end counts a transaction marker per transaction; records only without transactions
			if (committed > outputEnd) {
				this.ahead++;
			}
			this.lastCommitted = committed;
			this.lastOutput = outputEnd;
		}

		int commits() {
			return this.commits;
		}

		int outputSteps() {
			return this.outputSteps;
		}

		int committedAheadOfOutput() {
			return this.ahead;
		}
	}
}
