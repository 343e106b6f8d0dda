package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.MessageBuilder;

import io.xd.bus.BindingProperties;
import io.xd.bus.ProducerBinding;
import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Transactional hops (read-process-write): what a consumer's module forwards and the offsets it consumed commit
 * together, so that a downstream {@code read_committed} reader sees each forwarded record once, even when a handler
 * fails mid-poll and the poll's transaction is aborted.
 */
class KafkaTransactionalHopIntegrationTests {

	private static final Duration LINGER = Duration.ofSeconds(2);

	private final String prefix = "eos" + UUID.randomUUID().toString().substring(0, 8);

	private final List<KafkaMessageBus> buses = new ArrayList<>();

	@AfterEach
	void close() {
		this.buses.forEach(KafkaMessageBus::close);
	}

	private KafkaMessageBus transactionalBus() {
		KafkaBusProperties settings = KafkaMessageBusIntegrationTests.settings("native");
		settings.setTransactional(true);
		KafkaMessageBus bus = new KafkaMessageBus(settings);
		this.buses.add(bus);
		return bus;
	}

	@Test
	void forwardsEveryRecordOnceWhenAHandlerFailsMidPollAndItsTransactionIsAborted() {
		KafkaMessageBus bus = transactionalBus();
		String in = this.prefix + "-abort.0";
		String out = this.prefix + "-abort.1";
		int total = 2_000;
		// sent before the consumer binds, so that its polls are full and the failing record has predecessors in its
		// poll, forwarded in the transaction that is aborted
		send(bus, in, total);
		// each send acknowledged before the next, so that the aborted copies are in the log, not dropped unsent
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.of(Map.of("syncProducer", "true")));
		Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
		bus.bindConsumer(in, message -> {
			String text = text((byte[]) message.getPayload());
			forward.channel().send(message);
			if (text.equals("m1234") && attempts.computeIfAbsent(text, key -> new AtomicInteger()).incrementAndGet() == 1) {
				throw new IllegalStateException("failing once on " + text);
			}
		}, BindingProperties.NONE);

		assertReadOnceInOrder(out, total, Duration.ofSeconds(30));
		assertThat(attempts.get("m1234")).hasValue(2);
		// the aborted copies are in the log: a reader of uncommitted records sees them
		List<String> all = texts(TopicRecords.read(KafkaTopicProvisioner.topicName(out), total + 1,
				Duration.ofSeconds(10), Duration.ZERO, "read_uncommitted"));
		assertThat(all.size()).as("records in the log, aborted ones included").isGreaterThan(total);
		awaitCommitted(KafkaTopicProvisioner.topicName(in), KafkaTopicProvisioner.topicName(in), total);
	}

	/**
	 * A hop commits a transaction while the next one takes its sends (two producers taking turns): fencing their
	 * transactional ids again and again (as a second instance of the same id would) fails commits under way and
	 * transactions still open, and every record still reaches a {@code read_committed} reader once, in order.
	 */
	@Test
	void forwardsEveryRecordOnceInOrderWhenItsTransactionalProducersAreFencedMidStream() throws Exception {
		KafkaMessageBus bus = transactionalBus();
		String in = this.prefix + "-fenced.0";
		String out = this.prefix + "-fenced.1";
		int total = 20_000;
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.NONE);
		AtomicInteger handled = new AtomicInteger();
		bus.bindConsumer(in, message -> {
			forward.channel().send(message);
			handled.incrementAndGet();
		}, BindingProperties.NONE);
		String topic = KafkaTopicProvisioner.topicName(in);
		ProducerBinding source = bus.bindProducer(in, null, BindingProperties.NONE);
		Thread sender = new Thread(() -> IntStream.range(0, total).forEach(i -> {
			source.channel().send(MessageBuilder.withPayload(bytes("m" + i)).build());
			if (i % 500 == 499) {
				pause(Duration.ofMillis(40));
			}
		}));
		sender.start();
		int fenced = 0;
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				SharedKafkaBroker.brokers()))) {
			while (sender.isAlive()) {
				for (String id : hopTransactionalIds(admin, topic)) {
					fence(id);
					fenced++;
				}
				pause(Duration.ofMillis(30));
			}
		}
		sender.join();
		assertThat(fenced).as("fences of the hop's transactional ids while it ran").isGreaterThanOrEqualTo(4);

		assertReadOnceInOrder(out, total, Duration.ofSeconds(60));
		// a fenced producer fails its transaction, whose records are handled again: the reader above saw them once
		// (whether their aborted copies reached the log depends on when the fence came, before or after their send)
		assertThat(handled.get()).as("records handled, those of aborted transactions again").isGreaterThan(total);
		awaitCommitted(topic, topic, total);
		// a fenced producer is no record's fault: no attempt counted against one, none given up on
		List<String> deadLetterTopics = TopicRecords.topics(deadLetterTopic(topic)::equals);
		assertThat(deadLetterTopics.isEmpty() ? 0 : TopicRecords.count(deadLetterTopics)).as("records dead-lettered")
			.isZero();
	}

	/**
	 * With a commit after every poll, each poll's transaction begins on the other producer while the one before is
	 * still being acknowledged and committed: the new one holds its sends back until then, so that a {@code
	 * read_committed} reader still sees every record once and in order, through 150 polls of 200 records.
	 */
	@Test
	void keepsTheOrderOfRecordsWhenEachPollsTransactionBeginsBeforeTheOneBeforeIsAcknowledged() {
		KafkaMessageBus bus = transactionalBus();
		String in = this.prefix + "-lanes.0";
		String out = this.prefix + "-lanes.1";
		int total = 30_000;
		send(bus, in, total);
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.NONE);
		AtomicInteger handled = new AtomicInteger();
		bus.bindConsumer(in, message -> {
			forward.channel().send(message);
			handled.incrementAndGet();
		}, BindingProperties.of(Map.of("commitInterval", "0", "max.poll.records", "200")));

		assertReadOnceInOrder(out, total, Duration.ofSeconds(60));
		assertThat(handled).as("records handled, none twice").hasValue(total);
		String topic = KafkaTopicProvisioner.topicName(in);
		awaitCommitted(topic, topic, total);
	}

	/** The transactional ids of the hop that consumes {@code group}'s topic (both of a listener thread's). */
	private static List<String> hopTransactionalIds(Admin admin, String group) throws Exception {
		return admin.listTransactions()
			.all()
			.get()
			.stream()
			.map(listing -> listing.transactionalId())
			.filter(id -> id.startsWith("xd-" + group + "-") && !id.contains("dead-letters"))
			.toList();
	}

	/** Fences the producer of {@code id}: what it has open is aborted, and its next call fails. */
	private static void fence(String id) {
		try (KafkaProducer<byte[], byte[]> zombie = new KafkaProducer<>(Map.of(
				ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafkaBroker.brokers(),
				ProducerConfig.TRANSACTIONAL_ID_CONFIG, id), new ByteArraySerializer(), new ByteArraySerializer())) {
			zombie.initTransactions();
		}
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void deadLettersARecordGivenUpOnOnceAndCommitsPastIt() {
		KafkaMessageBus bus = transactionalBus();
		String in = this.prefix + "-dlq.0";
		String out = this.prefix + "-dlq.1";
		int total = 300;
		send(bus, in, total);
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.NONE);
		bus.bindConsumer(in, message -> {
			forward.channel().send(message);
			if (text((byte[]) message.getPayload()).equals("m150")) {
				throw new IllegalStateException("cannot handle m150");
			}
		}, BindingProperties.of(Map.of("maxAttempts", "2")));

		ConsumerRecord<byte[], byte[]> dead = onlyDeadLetterAndTheRestForwarded(in, out, total, 150,
				Duration.ofSeconds(30));
		assertThat(text(dead.value())).isEqualTo("m150");
	}

	/**
	 * A record that its producer refuses (larger than the client's {@code max.request.size}) fails its transaction
	 * each time: it is retried, then dead-lettered alone, and the records around it are forwarded once, in order;
	 * the hop does not go round delivering the same poll again for ever.
	 */
	@Test
	void deadLettersARecordItsProducerRefusesAndForwardsTheRestOnce() {
		deadLettersARecordItsProducerRefuses("big", Map.of("maxAttempts", "2"));
	}

	/**
	 * As above, with a commit after every poll of 50 records: the big record's transaction begins while the one
	 * before is still being acknowledged, so its sends are held back and the producer refuses it only when they go,
	 * after its handler returned; the polls are then handled again one transaction each, without holding back, so
	 * that the refusal comes at its own send.
	 */
	@Test
	void deadLettersARecordItsProducerRefusesWhenItWasHeldBack() {
		deadLettersARecordItsProducerRefuses("bigheld", Map.of("maxAttempts", "2", "commitInterval", "0",
				"max.poll.records", "50"));
	}

	private void deadLettersARecordItsProducerRefuses(String name, Map<String, String> consumerProperties) {
		KafkaMessageBus bus = transactionalBus();
		String in = this.prefix + "-" + name + ".0";
		String out = this.prefix + "-" + name + ".1";
		int total = 300;
		ProducerBinding producer = bus.bindProducer(in, null, BindingProperties.NONE);
		IntStream.range(0, total).forEach(i -> producer.channel().send(MessageBuilder.withPayload((i == 150)
				? new byte[10_000] : bytes("m" + i)).build()));
		ProducerBinding forward = bus.bindProducer(out, null, BindingProperties.of(Map.of("max.request.size",
				"2000")));
		bus.bindConsumer(in, message -> forward.channel().send(message), BindingProperties.of(consumerProperties));

		ConsumerRecord<byte[], byte[]> dead = onlyDeadLetterAndTheRestForwarded(in, out, total, 150,
				Duration.ofSeconds(60));
		assertThat(dead.value()).hasSize(10_000);
	}

	/**
	 * Reads the dead letters of the hop from {@code in} to {@code out} and asserts that there is one, that a {@code
	 * read_committed} reader of {@code out} sees every record {@code m0}, {@code m1}, ... but {@code m<skipped>} once,
	 * in order, and that the hop's offsets are committed to the end.
	 * @return the dead letter
	 */
	private static ConsumerRecord<byte[], byte[]> onlyDeadLetterAndTheRestForwarded(String in, String out, int total,
			int skipped, Duration deadLetterPatience) {
		String topic = KafkaTopicProvisioner.topicName(in);
		List<ConsumerRecord<byte[], byte[]>> dead = TopicRecords.read(deadLetterTopic(topic), 1, deadLetterPatience,
				LINGER, "read_committed");
		assertThat(dead).as("dead letters").hasSize(1);
		List<String> forwarded = texts(TopicRecords.read(KafkaTopicProvisioner.topicName(out), total - 1,
				Duration.ofSeconds(30), LINGER, "read_committed"));
		assertThat(forwarded).containsExactlyElementsOf(IntStream.range(0, total)
			.filter(i -> i != skipped)
			.mapToObj(i -> "m" + i)
			.toList());
		awaitCommitted(topic, topic, total);
		return dead.get(0);
	}

	/** The dead-letter topic of the hop that consumes {@code topic} in the group of the same name. */
	private static String deadLetterTopic(String topic) {
		return KafkaTopicProvisioner.topicName("error." + topic + "." + topic);
	}

	@Test
	void aModuleThatSendsNothingCommitsItsOffsetsWithoutATransaction() {
		KafkaMessageBus bus = transactionalBus();
		String in = this.prefix + "-sink.0";
		int total = 100;
		AtomicInteger handled = new AtomicInteger();
		bus.bindConsumer(in, message -> handled.incrementAndGet(), BindingProperties.NONE);
		send(bus, in, total);
		String topic = KafkaTopicProvisioner.topicName(in);
		awaitCommitted(topic, topic, total);
		assertThat(handled).hasValue(total);
	}

	/** Asserts that a {@code read_committed} reader of {@code pipe} sees {@code m0}, {@code m1}, ... once, in order. */
	private static void assertReadOnceInOrder(String pipe, int total, Duration patience) {
		List<String> committed = texts(TopicRecords.read(KafkaTopicProvisioner.topicName(pipe), total, patience, LINGER,
				"read_committed"));
		// told as what is missing, repeated or out of place: the list of 20 000 would be cut short in a report
		assertThat(differences(committed, total)).as("what a read_committed reader saw of m0..m%d", total - 1)
			.isEqualTo("each once, in order");
	}

	/** How {@code texts} differ from {@code m0}, {@code m1}, ... {@code m(total-1)}, each once, in order. */
	static String differences(List<String> texts, int total) {
		int[] seen = new int[total];
		List<String> foreign = new ArrayList<>();
		String outOfOrder = null;
		int last = -1;
		for (int i = 0; i < texts.size(); i++) {
			String text = texts.get(i);
			int number = text.startsWith("m") ? parse(text.substring(1)) : -1;
			if (number < 0 || number >= total) {
				foreign.add(text);
				continue;
			}
			seen[number]++;
			if (number != last + 1 && outOfOrder == null) {
				outOfOrder = "m" + number + " at index " + i + ", after " + ((last < 0) ? "nothing" : "m" + last);
			}
			last = number;
		}
		List<String> missing = new ArrayList<>();
		List<String> repeated = new ArrayList<>();
		for (int n = 0; n < total; n++) {
			if (seen[n] == 0) {
				int from = n;
				while (n + 1 < total && seen[n + 1] == 0) {
					n++;
				}
				missing.add((from == n) ? "m" + n : "m" + from + "-m" + n);
			}
			else if (seen[n] > 1) {
				repeated.add("m" + n + " x" + seen[n]);
			}
		}
		if (missing.isEmpty() && repeated.isEmpty() && foreign.isEmpty() && outOfOrder == null) {
			return "each once, in order";
		}
		return texts.size() + " records; missing " + missing + "; repeated " + summary(repeated) + "; unknown "
				+ summary(foreign) + "; first out of order: " + outOfOrder;
	}

	private static int parse(String digits) {
		try {
			return Integer.parseInt(digits);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private static String summary(List<String> items) {
		return (items.size() <= 20) ? items.toString() : items.size() + " " + items.subList(0, 20) + "...";
	}

	/** Sends {@code m0}, {@code m1}, ... to {@code pipe}. */
	private static void send(KafkaMessageBus bus, String pipe, int count) {
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
		IntStream.range(0, count).forEach(i -> producer.channel().send(MessageBuilder.withPayload(bytes("m" + i))
			.build()));
	}

	private static void awaitCommitted(String group, String topic, long offset) {
		TopicPartition partition = new TopicPartition(topic, 0);
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				SharedKafkaBroker.brokers()))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group)
					.partitionsToOffsetAndMetadata()
					.get()
					.get(partition);
				return committed != null && committed.offset() == offset;
			});
		}
	}

	private static List<String> texts(List<ConsumerRecord<byte[], byte[]>> records) {
		return records.stream().map(record -> text(record.value())).toList();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}
}
