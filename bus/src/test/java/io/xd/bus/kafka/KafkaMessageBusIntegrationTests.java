package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.MimeTypeUtils;

import io.xd.bus.AbstractMessageBusContractTests.Received;
import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.EarlierSendFailedException;
import io.xd.bus.ProducerBinding;
import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** What the Kafka bus adds to the bus contract: dead letters, raw mode, typed headers, partitioning, topics. */
class KafkaMessageBusIntegrationTests {

	private final String prefix = "kafka" + UUID.randomUUID().toString().substring(0, 8);

	private final List<KafkaMessageBus> buses = new ArrayList<>();

	@AfterEach
	void close() {
		this.buses.forEach(KafkaMessageBus::close);
	}

	private KafkaMessageBus bus(String mode) {
		KafkaMessageBus bus = new KafkaMessageBus(settings(mode));
		this.buses.add(bus);
		return bus;
	}

	/** The settings of a bus on the shared broker in {@code mode}, whose failing records are redelivered quickly. */
	static KafkaBusProperties settings(String mode) {
		KafkaBusProperties settings = new KafkaBusProperties();
		settings.setBrokers(SharedKafkaBroker.brokers());
		settings.setMode(mode);
		settings.getDefault().setBackOffInitialInterval(Duration.ofMillis(20));
		settings.getDefault().setBackOffMaxInterval(Duration.ofMillis(50));
		return settings;
	}

	@Test
	void sendsARecordThatKeepsFailingToTheDeadLetterTopicAfterMaxAttemptsAndGoesOn() {
		KafkaMessageBus bus = bus("native");
		String pipe = this.prefix + "-dlq.1";
		Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
		List<String> handled = Collections.synchronizedList(new ArrayList<>());
		bus.bindConsumer(pipe, message -> {
			String text = new String((byte[]) message.getPayload(), StandardCharsets.UTF_8);
			attempts.computeIfAbsent(text, key -> new AtomicInteger()).incrementAndGet();
			if (text.startsWith("bad")) {
				throw new IllegalStateException("cannot handle " + text);
			}
			handled.add(text);
		}, BindingProperties.of(Map.of("maxAttempts", "4", "backOffInitialInterval", "200")));
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
		assertThat(bus.awaitConsumersAssigned(Duration.ofSeconds(30))).isTrue();

		List<String> sent = IntStream.range(0, 100).mapToObj(i -> (i % 25 == 7) ? "bad" + i : "good" + i).toList();
		sent.forEach(text -> producer.channel().send(MessageBuilder.withPayload(bytes(text)).build()));

		String deadLetterTopic = KafkaTopicProvisioner.topicName("error." + KafkaTopicProvisioner.topicName(pipe) + "."
				+ KafkaTopicProvisioner.topicName(pipe));
		// every redelivery seeks back, and the consumer first waits out the fetch it has in flight at the end of the
		// topic (up to fetch.max.wait.ms, 500 ms): measured 3-4 s per failing record here, so allow more than 30 s
		List<ConsumerRecord<byte[], byte[]>> dead = readAll(deadLetterTopic, 4, Duration.ofSeconds(90));
		assertThat(dead).extracting(record -> text(record.value())).containsExactly("bad7", "bad32", "bad57", "bad82");
		assertThat(header(dead.get(0), "kafka_dlt-exception-message")).contains("cannot handle bad7");
		await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == 96);
		assertThat(handled).containsExactlyElementsOf(sent.stream().filter(text -> text.startsWith("good")).toList());
		assertThat(attempts.get("bad7")).hasValue(4);
		assertThat(attempts.get("good8")).hasValue(1);
	}

	@Test
	void aForwardThatKeepsFailingInABacklogIsDeadLetteredAndTheRestIsForwarded() {
		KafkaMessageBus bus = bus("native");
		String in = this.prefix + "-badforward.0";
		String out = this.prefix + "-badforward.1";
		// the client refuses records over 2 000 bytes, asynchronously: the forward of the big record fails each time
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.of(Map.of("max.request.size",
				"2000")));
		ProducerBinding producer = bus.bindProducer(in, null, BindingProperties.NONE);
		int total = 5000;
		for (int i = 0; i < total; i++) {
			producer.channel().send(MessageBuilder.withPayload((i == 2500) ? new byte[10_000] : bytes("m" + i)).build());
		}
		producer.unbind();
		bus.bindConsumer(in, message -> forward.channel().send(message),
				BindingProperties.of(Map.of("maxAttempts", "2")));

		String deadLetterTopic = KafkaTopicProvisioner.topicName("error." + KafkaTopicProvisioner.topicName(in) + "."
				+ KafkaTopicProvisioner.topicName(in));
		// the big record is dead-lettered, with the records of its poll that came before it in the log
		await().atMost(Duration.ofSeconds(90))
			.until(() -> TopicRecords.read(deadLetterTopic, 3 * total, Duration.ofSeconds(3))
				.stream()
				.anyMatch(record -> record.value().length == 10_000));
		// the consumer goes on to the end of the backlog
		Set<String> forwarded = new HashSet<>();
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			// all there is within 3 s (more than the topic holds: it reads to the timeout)
			TopicRecords.read(KafkaTopicProvisioner.topicName(out), 3 * total, Duration.ofSeconds(3))
				.forEach(record -> forwarded.add(text(record.value())));
			return forwarded.contains("m" + (total - 1));
		});
		// and loses nothing: each other record was forwarded, or dead-lettered with the poll of the big one
		Set<String> reached = new HashSet<>(forwarded);
		TopicRecords.read(deadLetterTopic, 3 * total, Duration.ofSeconds(3))
			.forEach(record -> reached.add(text(record.value())));
		for (int i = 0; i < total; i++) {
			if (i != 2500) {
				assertThat(reached).as("record m%d forwarded or dead-lettered", i).contains("m" + i);
			}
		}
	}

	@Test
	void aSendThatLearnsOfAnEarlierFailureStillSendsItsOwnMessage() {
		KafkaMessageBus bus = bus("native");
		String pipe = this.prefix + "-failing.0";
		// the broker-side limit is far above; the client refuses records over 2 000 bytes, asynchronously
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.of(Map.of("max.request.size",
				"2000")));
		producer.channel().send(MessageBuilder.withPayload("before".getBytes(StandardCharsets.UTF_8)).build());
		// accepted by send(); the client's callback reports RecordTooLargeException
		producer.channel().send(MessageBuilder.withPayload(new byte[10_000]).build());

		Message<byte[]> next = MessageBuilder.withPayload("next".getBytes(StandardCharsets.UTF_8)).build();
		assertThatExceptionOfType(EarlierSendFailedException.class).isThrownBy(() -> producer.channel().send(next))
			.withMessageContaining("this message was sent")
			.withRootCauseInstanceOf(RecordTooLargeException.class)
			.satisfies(ex -> assertThat(ex.getFailedMessage()).isSameAs(next));
		producer.channel().send(MessageBuilder.withPayload("after".getBytes(StandardCharsets.UTF_8)).build());

		List<ConsumerRecord<byte[], byte[]>> records = readAll(KafkaTopicProvisioner.topicName(pipe), 3);
		assertThat(records).extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
			.containsExactly("before", "next", "after");
	}

	@Test
	void rawModeWritesThePayloadBytesOnlySoAnyClientReadsThemUnchanged() {
		KafkaMessageBus bus = bus("raw");
		String pipe = this.prefix + "-raw.0";
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
		byte[] payload = { 0, 1, 2, (byte) 0xff, 'x' };
		producer.channel().send(MessageBuilder.withPayload(payload).setHeader("custom", "dropped").build());

		List<ConsumerRecord<byte[], byte[]>> records = readAll(KafkaTopicProvisioner.topicName(pipe), 1);
		assertThat(records.get(0).value()).containsExactly(payload);
		assertThat(records.get(0).headers().toArray()).isEmpty();
	}

	@Test
	void aBoundConsumerHasJoinedItsGroupAndAMemberWithNothingToOwnDoesNotHoldTheBindingUp() {
		for (String protocol : List.of("consumer", "classic")) {
			KafkaBusProperties settings = new KafkaBusProperties();
			settings.setBrokers(SharedKafkaBroker.brokers());
			settings.setGroupProtocol(protocol);
			KafkaMessageBus bus = new KafkaMessageBus(settings);
			this.buses.add(bus);
			String pipe = this.prefix + "-joined-" + protocol + ".0";
			KafkaConsumerBinding owner = (KafkaConsumerBinding) bus.bindConsumer(pipe, new Received(),
					BindingProperties.NONE);
			// reading when bound: a source deployed next does not wait for the group join
			assertThat(owner.assignedCount()).as(protocol).isEqualTo(1);

			// the one partition is owned: a second member joins with nothing, and its binding returns on the join
			long start = System.nanoTime();
			KafkaConsumerBinding idle = (KafkaConsumerBinding) bus.bindConsumer(pipe, new Received(),
					BindingProperties.NONE);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as(protocol).isLessThan(Duration.ofSeconds(8));
			assertThat(idle.assignedCount()).as(protocol).isZero();
		}
	}

	@Test
	void consumersUseTheConsumerGroupProtocolUnlessToldClassic() throws Exception {
		for (String protocol : List.of("consumer", "classic")) {
			KafkaBusProperties settings = new KafkaBusProperties();
			settings.setBrokers(SharedKafkaBroker.brokers());
			settings.setGroupProtocol(protocol.toUpperCase(Locale.ROOT));
			KafkaMessageBus bus = new KafkaMessageBus(settings);
			this.buses.add(bus);
			String pipe = this.prefix + "-" + protocol + ".0";
			Received first = new Received();
			Received second = new Received();
			BindingProperties instances = BindingProperties.of(Map.of("minPartitionCount", "2")).withInstanceCount(2);
			bus.bindConsumer(pipe, first, instances);
			bus.bindConsumer(pipe, second, instances);
			ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
			assertThat(bus.awaitConsumersAssigned(Duration.ofSeconds(30))).isTrue();
			IntStream.range(0, 200).forEach(i -> producer.channel().send(MessageBuilder.withPayload(bytes("m" + i))
				.build()));

			await().atMost(Duration.ofSeconds(30)).until(() -> first.count() + second.count() == 200);
			try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
					SharedKafkaBroker.brokers()))) {
				String group = KafkaTopicProvisioner.topicName(pipe);
				assertThat(admin.describeConsumerGroups(List.of(group)).all().get().get(group).type())
					.isEqualTo(protocol.equals("classic") ? GroupType.CLASSIC : GroupType.CONSUMER);
			}
		}
	}

	@Test
	void messagesWithoutAKeySpreadOverThePartitionsWhateverTheBatchSize() {
		KafkaMessageBus bus = bus("native");
		String pipe = this.prefix + "-spread.0";
		// 300 KB in all, over 3 partitions: the bus's 512 KB batches would leave them all on one with Kafka's
		// partitioner, which keeps to a partition for a batch's worth of bytes
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.of(Map.of("minPartitionCount", "3")));
		int total = 300;
		for (int i = 0; i < total; i++) {
			producer.channel().send(MessageBuilder.withPayload(new byte[1_000]).build());
		}
		Map<Integer, Long> perPartition = readAll(KafkaTopicProvisioner.topicName(pipe), total).stream()
			.collect(Collectors.groupingBy(ConsumerRecord::partition, Collectors.counting()));
		assertThat(perPartition).as("records per partition").containsOnlyKeys(0, 1, 2);
		assertThat(perPartition.values()).allSatisfy(count -> assertThat(count).isBetween(50L, 150L));
	}

	@Test
	void aConsumerJoiningAndAnotherStoppingCleanlyRepeatNothing() throws Exception {
		KafkaMessageBus bus = bus("native");
		String pipe = this.prefix + "-handover.0";
		BindingProperties properties = BindingProperties.of(Map.of("minPartitionCount", "2")).withInstanceCount(2);
		Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
		AtomicInteger byFirst = new AtomicInteger();
		AtomicInteger bySecond = new AtomicInteger();
		Binding first = bus.bindConsumer(pipe, message -> {
			deliveries.computeIfAbsent(text((byte[]) message.getPayload()), key -> new AtomicInteger()).incrementAndGet();
			byFirst.incrementAndGet();
		}, properties);
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
		assertThat(bus.awaitConsumersAssigned(Duration.ofSeconds(30))).isTrue();

		// about 3 000 messages a second for 7 s, spread over both partitions, while the group changes twice
		int total = 21_000;
		Thread sender = new Thread(() -> {
			for (int i = 0; i < total; i++) {
				producer.channel().send(MessageBuilder.withPayload(bytes("m" + i)).build());
				if (i % 30 == 29) {
					try {
						Thread.sleep(10);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}
		});
		sender.start();
		await().atMost(Duration.ofSeconds(30)).until(() -> byFirst.get() >= 3_000);
		bus.bindConsumer(pipe, message -> {
			deliveries.computeIfAbsent(text((byte[]) message.getPayload()), key -> new AtomicInteger()).incrementAndGet();
			bySecond.incrementAndGet();
		}, properties);
		await().atMost(Duration.ofSeconds(30)).until(() -> bySecond.get() >= 1_000);
		first.unbind();
		sender.join(60_000);
		await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.size() == total);

		long repeated = deliveries.values().stream().filter(count -> count.get() > 1).count();
		assertThat(repeated).as("messages delivered more than once").isZero();
		assertThat(byFirst.get()).isLessThan(total);
	}

	@Test
	void commitsARecordOnlyOnceWhatTheModuleForwardedIsAcknowledged() throws Exception {
		KafkaMessageBus bus = bus("native");
		String in = this.prefix + "-forward.0";
		String out = this.prefix + "-forward.1";
		// the forwarding producer holds each send for 300 ms, so a commit that did not wait would run ahead of it
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.of(Map.of("linger.ms", "300")));
		bus.bindConsumer(in, message -> forward.channel().send(message), BindingProperties.NONE);
		ProducerBinding producer = bus.bindProducer(in, null, BindingProperties.NONE);
		assertThat(bus.awaitConsumersAssigned(Duration.ofSeconds(30))).isTrue();
		int total = 50;
		for (int i = 0; i < total; i++) {
			producer.channel().send(MessageBuilder.withPayload(bytes("m" + i)).build());
			Thread.sleep(20);
		}

		assertCommitsNeverRunAheadOfForwards(in, out, total, 5);
	}

	@Test
	void drainsABacklogCommittingEachPollOnlyOnceWhatItForwardedIsAcknowledged() throws Exception {
		KafkaMessageBus bus = bus("native");
		String in = this.prefix + "-backlog.0";
		String out = this.prefix + "-backlog.1";
		// the forwarding producer holds each batch for 50 ms, so a commit that did not wait would run ahead of it
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.of(Map.of("linger.ms", "50")));
		// a backlog first, so that the consumer's polls are committed one poll late (PipelinedCommits)
		ProducerBinding producer = bus.bindProducer(in, null, BindingProperties.NONE);
		int total = 30_000;
		for (int i = 0; i < total; i++) {
			producer.channel().send(MessageBuilder.withPayload(bytes("m" + i)).build());
		}
		producer.unbind();
		bus.bindConsumer(in, message -> forward.channel().send(message), BindingProperties.NONE);

		// the last poll is committed too, though no record follows it
		assertCommitsNeverRunAheadOfForwards(in, out, total, 2);
	}

	/**
	 * Samples the consumer group's committed offset of {@code in} and the end offset of {@code out} until all
	 * {@code total} records are committed (within 30 s): no commit may ever cover more records than were forwarded.
	 */
	private static void assertCommitsNeverRunAheadOfForwards(String in, String out, int total, int minSamples)
			throws Exception {
		TopicPartition inPartition = new TopicPartition(KafkaTopicProvisioner.topicName(in), 0);
		TopicPartition outPartition = new TopicPartition(KafkaTopicProvisioner.topicName(out), 0);
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				SharedKafkaBroker.brokers()))) {
			long committed = 0;
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			int samples = 0;
			while (committed < total && System.nanoTime() < deadline) {
				OffsetAndMetadata offset = admin.listConsumerGroupOffsets(KafkaTopicProvisioner.topicName(in))
					.partitionsToOffsetAndMetadata()
					.get()
					.get(inPartition);
				committed = (offset == null) ? 0 : offset.offset();
				long forwarded = admin.listOffsets(Map.of(outPartition, OffsetSpec.latest()))
					.partitionResult(outPartition)
					.get()
					.offset();
				assertThat(forwarded).as("records forwarded when %d were committed", committed)
					.isGreaterThanOrEqualTo(committed);
				samples++;
			}
			assertThat(committed).isEqualTo(total);
			assertThat(samples).isGreaterThan(minSamples);
		}
	}

	@Test
	void refusesAnUnknownGroupProtocol() {
		assertThatIllegalArgumentException().isThrownBy(() -> new KafkaBusProperties().setGroupProtocol("eager"))
			.withMessage("xd.messagebus.kafka.groupProtocol must be consumer or classic, but was 'eager'");
	}

	@Test
	void carriesHeadersAsNativeRecordHeadersWithTheirTypes() {
		KafkaMessageBus bus = bus("embeddedHeaders");
		String pipe = this.prefix + "-headers.0";
		Received received = new Received();
		bus.bindConsumer(pipe, received, BindingProperties.NONE);
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
		assertThat(bus.awaitConsumersAssigned(Duration.ofSeconds(30))).isTrue();
		UUID correlation = UUID.randomUUID();
		producer.channel()
			.send(MessageBuilder.withPayload("text payload")
				.setHeader("name", "value")
				.setHeader("count", 42L)
				.setHeader("flag", true)
				.setHeader("correlation", correlation)
				.setHeader("contentType", MimeTypeUtils.TEXT_PLAIN)
				.build());

		await().atMost(Duration.ofSeconds(30)).until(() -> received.count() == 1);
		Message<?> message = received.messages().get(0);
		// a String stays a String across the hop
		assertThat(message.getPayload()).isEqualTo("text payload");
		assertThat(message.getHeaders()).containsEntry("name", "value")
			.containsEntry("count", 42L)
			.containsEntry("flag", true)
			.containsEntry("correlation", correlation)
			.containsEntry("contentType", MimeTypeUtils.TEXT_PLAIN)
			.doesNotContainKey(KafkaRecords.TYPES_HEADER);
		List<ConsumerRecord<byte[], byte[]>> records = readAll(KafkaTopicProvisioner.topicName(pipe), 1);
		assertThat(header(records.get(0), "name")).isEqualTo("value");
	}

	@Test
	void partitionKeyExpressionSendsEqualKeysToOnePartition() {
		KafkaMessageBus bus = bus("native");
		String pipe = this.prefix + "-keyed.0";
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.of(Map.of("minPartitionCount", "4",
				"partitionKeyExpression", "headers['customer']")));
		for (int i = 0; i < 40; i++) {
			producer.channel()
				.send(MessageBuilder.withPayload(bytes("m" + i)).setHeader("customer", "c" + (i % 5)).build());
		}
		List<ConsumerRecord<byte[], byte[]>> records = readAll(KafkaTopicProvisioner.topicName(pipe), 40);
		Map<String, Set<Integer>> partitionsByCustomer = new HashMap<>();
		records.forEach(record -> partitionsByCustomer.computeIfAbsent(header(record, "customer"),
				key -> new java.util.HashSet<>()).add(record.partition()));
		assertThat(partitionsByCustomer).hasSize(5).allSatisfy((customer, partitions) -> assertThat(partitions)
			.hasSize(1));
		assertThat(partitionsByCustomer.values().stream().flatMap(Set::stream).distinct().count()).isGreaterThan(1);
	}

	@Test
	void refusesAReplicationFactorAboveTheBrokerCountAtOnce() {
		KafkaMessageBus bus = bus("native");
		long start = System.nanoTime();
		assertThatIllegalStateException()
			.isThrownBy(() -> bus.bindProducer(this.prefix + "-rf.0", null,
					BindingProperties.of(Map.of("replicationFactor", "3"))))
			.withMessageContaining("replication factor 3")
			.withMessageContaining("has 1 broker");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void refusesUnknownBindingPropertiesNamingThem() {
		KafkaMessageBus bus = bus("native");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> bus.bindConsumer(this.prefix + "-props.0", new Received(),
					BindingProperties.of(Map.of("colour", "red", "concurrency", "2"))))
			.withMessageContaining("does not support consumer property: colour");
	}

	@Test
	void growsThePartitionsOfAPipeWhenAConsumerNeedsMore() {
		KafkaMessageBus bus = bus("native");
		String pipe = this.prefix + "-grow.0";
		bus.bindProducer(pipe, null, BindingProperties.NONE);
		bus.bindConsumer(pipe, new Received(), BindingProperties.of(Map.of("concurrency", "3")));
		try (KafkaConsumer<byte[], byte[]> consumer = TopicRecords.consumer()) {
			assertThat(consumer.partitionsFor(KafkaTopicProvisioner.topicName(pipe))).hasSize(3);
		}
		// a module deployed with count=2, each instance with two listener threads: four partitions to share
		String shared = this.prefix + "-instances.0";
		bus.bindConsumer(shared, new Received(), BindingProperties.of(Map.of("concurrency", "2")).withInstanceCount(2));
		try (KafkaConsumer<byte[], byte[]> consumer = TopicRecords.consumer()) {
			assertThat(consumer.partitionsFor(KafkaTopicProvisioner.topicName(shared))).hasSize(4);
		}
	}

	@Test
	void escapesChannelNamesAsSpringXdDid() {
		assertThat(KafkaTopicProvisioner.topicName("queue:orders")).isEqualTo("queue_3Aorders");
		assertThat(KafkaTopicProvisioner.topicName("ticktock.0")).isEqualTo("ticktock.0");
		assertThat(KafkaTopicProvisioner.topicName("tap:stream:a_b.time.0")).isEqualTo("tap_3Astream_3Aa_5Fb.time.0");
	}

	private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expected) {
		return readAll(topic, expected, Duration.ofSeconds(30));
	}

	private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expected, Duration timeout) {
		List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(TopicRecords.read(topic, expected, timeout));
		records.sort(java.util.Comparator.comparingLong(record -> record.timestamp()));
		return records;
	}

	private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
		Header header = record.headers().lastHeader(name);
		return (header == null) ? null : text(header.value());
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}
}
