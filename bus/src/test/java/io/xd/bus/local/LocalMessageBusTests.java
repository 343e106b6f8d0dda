package io.xd.bus.local;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.MessagingException;
import org.springframework.messaging.support.ErrorMessage;
import org.springframework.messaging.support.GenericMessage;

import io.xd.bus.AbstractMessageBusContractTests.Received;
import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.ConsumerFailedException;
import io.xd.bus.DirectConsumer;
import io.xd.bus.ProducerBinding;
import io.xd.bus.SendCounter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class LocalMessageBusTests {

	private final LocalMessageBus bus = new LocalMessageBus();

	@AfterEach
	void close() {
		this.bus.close();
	}

	@Test
	void directBindingRunsTheConsumerOnTheProducerThread() {
		AtomicReference<Thread> consumerThread = new AtomicReference<>();
		this.bus.bindConsumer("s.0", message -> consumerThread.set(Thread.currentThread()), BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("s.0", null, BindingProperties.NONE);

		producer.channel().send(new GenericMessage<>("x"));

		assertThat(consumerThread.get()).isSameAs(Thread.currentThread());
	}

	@Test
	void directBindingThrowsTheConsumersExceptionToTheProducer() {
		this.bus.bindConsumer("s.0", message -> {
			throw new IllegalStateException("bad payload");
		}, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("s.0", null, BindingProperties.NONE);

		assertThatExceptionOfType(ConsumerFailedException.class)
			.isThrownBy(() -> producer.channel().send(new GenericMessage<>("x")))
			.withMessageContaining("A consumer of 's.0' failed")
			.havingCause()
			.isInstanceOf(IllegalStateException.class)
			.withMessage("bad payload");
	}

	@Test
	void publishesADirectlyBoundFailureToTheErrorsTopicOnceWhereItHappened() {
		Received errors = new Received();
		this.bus.bindPubSubConsumer(LocalMessageBus.ERRORS, null, errors, BindingProperties.NONE);
		// s.0 -> a processor that wraps what its output throws -> s.1 -> a sink that fails
		ProducerBinding processorOutput = this.bus.bindProducer("s.1", null, BindingProperties.NONE);
		this.bus.bindConsumer("s.0", message -> {
			try {
				processorOutput.channel().send(message);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("processor wraps it", ex);
			}
		}, BindingProperties.NONE);
		this.bus.bindConsumer("s.1", message -> {
			throw new IllegalArgumentException("sink refuses " + message.getPayload());
		}, BindingProperties.NONE);
		ProducerBinding source = this.bus.bindProducer("s.0", null, BindingProperties.NONE);

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> source.channel().send(new GenericMessage<>("m1")))
			.satisfies(ex -> assertThat(ConsumerFailedException.isReported(ex)).isTrue());

		await().atMost(5, TimeUnit.SECONDS).until(() -> errors.count() == 1);
		ErrorMessage error = (ErrorMessage) errors.messages().get(0);
		assertThat(error.getPayload()).hasRootCauseMessage("sink refuses m1");
		assertThat(((MessagingException) error.getPayload()).getFailedMessage().getPayload()).isEqualTo("m1");
		assertThat(error.getHeaders().get("xd_channel")).isEqualTo("s.1");
		// and only there: not again at s.0, whose consumer threw the reported failure back, wrapped
		await().pollDelay(300, TimeUnit.MILLISECONDS).atMost(5, TimeUnit.SECONDS).until(() -> true);
		assertThat(errors.count()).isEqualTo(1);
	}

	@Test
	void aQueuedConsumerWhoseDirectlyBoundDownstreamFailedIsNotReportedTwice() {
		Received errors = new Received();
		this.bus.bindPubSubConsumer(LocalMessageBus.ERRORS, null, errors, BindingProperties.NONE);
		ProducerBinding processorOutput = this.bus.bindProducer("s.1", null, BindingProperties.NONE);
		this.bus.bindConsumer("queue:in", message -> processorOutput.channel().send(message), BindingProperties.NONE);
		this.bus.bindConsumer("s.1", message -> {
			throw new IllegalArgumentException("sink refuses " + message.getPayload());
		}, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("queue:in", null, BindingProperties.NONE);

		producer.channel().send(new GenericMessage<>("q1"));
		producer.channel().send(new GenericMessage<>("q2"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> errors.count() >= 2);
		// the queue's consumer threw the reported failure back: it is not published a second time
		await().pollDelay(300, TimeUnit.MILLISECONDS).atMost(5, TimeUnit.SECONDS).until(() -> true);
		assertThat(errors.messages()).extracting(message -> message.getHeaders().get("xd_channel"))
			.containsExactly("s.1", "s.1");
	}

	@Test
	void rejectsASendToAPipeWithoutConsumerNamingThePipe() {
		ProducerBinding producer = this.bus.bindProducer("lonely.0", null, BindingProperties.NONE);

		assertThatExceptionOfType(MessageDeliveryException.class)
			.isThrownBy(() -> producer.channel().send(new GenericMessage<>("x")))
			.withMessageContaining("No consumer is bound to 'lonely.0'");
	}

	@Test
	void rejectsASendAfterTheProducerUnbinds() {
		this.bus.bindConsumer("s.0", new Received(), BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("s.0", null, BindingProperties.NONE);
		producer.unbind();

		assertThatExceptionOfType(MessageDeliveryException.class)
			.isThrownBy(() -> producer.channel().send(new GenericMessage<>("x")))
			.withMessageContaining("unbound");
	}

	@Test
	void directBindingAllocatesNothingPerMessage() {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long[] count = new long[1];
		MessageHandler counting = message -> count[0]++;
		this.bus.bindConsumer("hot.0", counting, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("hot.0", "tap:stream:hot.source.0", BindingProperties.NONE);
		Message<String> message = new GenericMessage<>("payload");
		for (int i = 0; i < 10_000; i++) {
			producer.channel().send(message);
		}
		long messages = 2_000_000;
		long before = threads.getCurrentThreadAllocatedBytes();
		for (long i = 0; i < messages; i++) {
			producer.channel().send(message);
		}
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;

		assertThat(count[0]).isEqualTo(messages + 10_000);
		// a single 16-byte object per message would be 32 MB; allow a few KB of measurement noise
		assertThat(allocated).isLessThan(64 * 1024);
	}

	@Test
	void publishesAFailedQueuedDeliveryToTheErrorsTopic() {
		Received errors = new Received();
		this.bus.bindPubSubConsumer(LocalMessageBus.ERRORS, null, errors, BindingProperties.NONE);
		this.bus.bindConsumer("queue:orders", message -> {
			throw new IllegalStateException("cannot handle " + message.getPayload());
		}, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("queue:orders", null, BindingProperties.NONE);

		producer.channel().send(new GenericMessage<>("order-1"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> errors.count() == 1);
		ErrorMessage error = (ErrorMessage) errors.messages().get(0);
		assertThat(error.getPayload()).isInstanceOf(MessagingException.class)
			.hasRootCauseMessage("cannot handle order-1");
		assertThat(((MessagingException) error.getPayload()).getFailedMessage().getPayload()).isEqualTo("order-1");
		assertThat(error.getHeaders().get("xd_channel")).isEqualTo("queue:orders");
	}

	@Test
	void aFullQueueBlocksTheProducerInsteadOfDroppingMessages() throws Exception {
		try (LocalMessageBus small = new LocalMessageBus(1)) {
			ProducerBinding producer = small.bindProducer("queue:small", null, BindingProperties.NONE);
			producer.channel().send(new GenericMessage<>("first"));
			CompletableFuture<Boolean> second = CompletableFuture
				.supplyAsync(() -> producer.channel().send(new GenericMessage<>("second")));
			Thread.sleep(300);
			assertThat(second).isNotDone();
			assertThat(small.backlog("queue:small")).isEqualTo(1);

			Received received = new Received();
			small.bindConsumer("queue:small", received, BindingProperties.NONE);

			assertThat(second.get(5, TimeUnit.SECONDS)).isTrue();
			await().atMost(5, TimeUnit.SECONDS).until(() -> received.count() == 2);
			assertThat(received.messages().stream().<Object>map(Message::getPayload).toList()).containsExactly("first", "second");
		}
	}

	@Test
	void aTopicGroupRedeployedKeepsTheMessagesStillQueuedForIt() throws Exception {
		ProducerBinding producer = this.bus.bindPubSubProducer("topic:orders", null, BindingProperties.NONE);
		CountDownLatch taken = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Binding first = this.bus.bindPubSubConsumer("topic:orders", "billing", message -> {
			taken.countDown();
			awaitQuietly(release);
		}, BindingProperties.NONE);
		for (int i = 1; i <= 5; i++) {
			producer.channel().send(new GenericMessage<>("order-" + i));
		}
		// the consumer holds order-1 while orders 2 to 5 wait in the group's queue; then its module is undeployed
		assertThat(taken.await(5, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> unbound = CompletableFuture.runAsync(first::unbind);
		Thread.sleep(200);
		release.countDown();
		unbound.get(15, TimeUnit.SECONDS);
		producer.channel().send(new GenericMessage<>("published-while-away"));

		Received redeployed = new Received();
		this.bus.bindPubSubConsumer("topic:orders", "billing", redeployed, BindingProperties.NONE);
		producer.channel().send(new GenericMessage<>("order-6"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> redeployed.count() == 5);
		assertThat(redeployed.messages().stream().<Object>map(Message::getPayload).toList())
			.containsExactly("order-2", "order-3", "order-4", "order-5", "order-6");
	}

	@Test
	void anAnonymousTopicConsumerLeavesNothingBehind() {
		ProducerBinding producer = this.bus.bindPubSubProducer("topic:orders", null, BindingProperties.NONE);
		Binding first = this.bus.bindPubSubConsumer("topic:orders", null, message -> {
		}, BindingProperties.NONE);
		first.unbind();
		producer.channel().send(new GenericMessage<>("order-1"));

		Received second = new Received();
		this.bus.bindPubSubConsumer("topic:orders", null, second, BindingProperties.NONE);
		producer.channel().send(new GenericMessage<>("order-2"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> second.count() == 1);
		assertThat(second.messages().get(0).getPayload()).isEqualTo("order-2");
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void takesTurnsBetweenTwoDirectlyBoundConsumers() {
		Received first = new Received();
		Received second = new Received();
		this.bus.bindConsumer("s.1", first, BindingProperties.NONE);
		this.bus.bindConsumer("s.1", second, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("s.1", null, BindingProperties.NONE);

		for (int i = 0; i < 10; i++) {
			producer.channel().send(new GenericMessage<>(i));
		}

		assertThat(first.count()).isEqualTo(5);
		assertThat(second.count()).isEqualTo(5);
	}

	@Test
	void aCountedProducerIsCountedByItsOnlyDirectConsumerAndByItsChannelOtherwise() {
		long[] countedByChannel = new long[1];
		SendCounter counter = message -> countedByChannel[0]++;
		CountingConsumer consumer = new CountingConsumer();
		this.bus.bindConsumer("s.0", consumer, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("s.0", null, BindingProperties.NONE, counter);

		producer.channel().send(new GenericMessage<>("once"));
		assertThat(consumer.received).isEqualTo(1);
		assertThat(consumer.countedForProducer).as("one count for the hop, by the consumer").isEqualTo(1);
		assertThat(countedByChannel[0]).isZero();

		// a second consumer: the producer takes turns between them and its channel counts each send
		Received second = new Received();
		Binding beside = this.bus.bindConsumer("s.0", second, BindingProperties.NONE);
		producer.channel().send(new GenericMessage<>("first turn"));
		producer.channel().send(new GenericMessage<>("second turn"));
		assertThat(consumer.received + second.count()).isEqualTo(3);
		assertThat(consumer.countedForProducer).isEqualTo(1);
		assertThat(countedByChannel[0]).isEqualTo(2);

		beside.unbind();
		producer.channel().send(new GenericMessage<>("again alone"));
		assertThat(consumer.countedForProducer).isEqualTo(2);
		assertThat(countedByChannel[0]).isEqualTo(2);
		assertThat(consumer.askedFor).as("asked on each rewiring to it alone, for the same producer")
			.containsOnly(counter);
	}

	@Test
	void aCountedProducerTakingTurnsCountsASendItsConsumerFailedOnAsADirectConsumerDoes() {
		long[] counted = new long[1];
		Received working = new Received();
		this.bus.bindConsumer("s.0", working, BindingProperties.NONE);
		this.bus.bindConsumer("s.0", message -> {
			throw new IllegalStateException("cannot");
		}, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer("s.0", null, BindingProperties.NONE,
				message -> counted[0]++);

		int failed = 0;
		for (int i = 0; i < 4; i++) {
			try {
				producer.channel().send(new GenericMessage<>(i));
			}
			catch (ConsumerFailedException ex) {
				failed++;
			}
		}

		assertThat(working.count()).isEqualTo(2);
		assertThat(failed).isEqualTo(2);
		assertThat(counted[0]).as("each message a consumer took, failed on or not").isEqualTo(4);
	}

	@Test
	void aCountedProducerWithoutConsumerCountsNothingItCouldNotSend() {
		long[] counted = new long[1];
		ProducerBinding producer = this.bus.bindProducer("s.0", null, BindingProperties.NONE,
				message -> counted[0]++);

		assertThatExceptionOfType(MessageDeliveryException.class)
			.isThrownBy(() -> producer.channel().send(new GenericMessage<>("x")));
		assertThat(counted[0]).isZero();
	}

	/** A direct consumer that counts, in its own counters, what it handles and what it counted for a producer. */
	private static final class CountingConsumer implements DirectConsumer {

		long received;

		long countedForProducer;

		final List<SendCounter> askedFor = new ArrayList<>();

		@Override
		public void handleMessage(Message<?> message) {
			this.received++;
		}

		@Override
		public MessageHandler countingSendsOf(SendCounter producer) {
			this.askedFor.add(producer);
			return message -> {
				handleMessage(message);
				this.countedForProducer++;
			};
		}
	}

	@Test
	void rejectsBindingPropertiesNamingThem() {
		BindingProperties properties = BindingProperties.of(Map.of("concurrency", "2", "maxAttempts", "5"));

		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.bus.bindConsumer("s.0", new Received(), properties))
			.withMessage("LocalMessageBus does not support consumer properties: concurrency, maxAttempts");
	}

	@Test
	void refusesToBindAfterClose() {
		this.bus.close();

		assertThatIllegalStateException().isThrownBy(() -> this.bus.bindProducer("s.0", null, BindingProperties.NONE));
	}
}
