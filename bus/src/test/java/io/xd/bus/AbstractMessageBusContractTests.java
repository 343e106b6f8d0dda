package io.xd.bus;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.support.MessageBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The contract every {@link MessageBus} passes: what a stream relies on, whatever the transport. An implementation
 * extends this class, creates its bus in {@link #createBus()}, and may lengthen {@link #timeout()}.
 * <p>
 * Payloads are {@code byte[]}, the one type every transport carries untouched; each test uses channel names of
 * its own, so a transport with durable channels (Kafka topics) needs no cleanup between tests.
 */
public abstract class AbstractMessageBusContractTests {

	protected MessageBus bus;

	private final String prefix = "contract" + UUID.randomUUID().toString().substring(0, 8);

	/** A new bus; closed after each test. */
	protected abstract MessageBus createBus();

	/** How long to wait for an asynchronous delivery. */
	protected Duration timeout() {
		return Duration.ofSeconds(10);
	}

	/**
	 * Waits until consumers bound just now are ready to receive (for example until a Kafka consumer has its
	 * partitions). Messages sent after this returns must reach them. The default does not wait.
	 */
	protected void awaitConsumersReady() {
	}

	@BeforeEach
	void createTheBus() {
		this.bus = createBus();
	}

	@AfterEach
	void closeTheBus() {
		this.bus.close();
	}

	protected String pipe(String suffix) {
		return this.prefix + "-" + suffix + ".0";
	}

	@Test
	void deliversPayloadAndHeadersOnAPipe() {
		String name = pipe("headers");
		Received received = new Received();
		this.bus.bindConsumer(name, received, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer(name, null, BindingProperties.NONE);
		awaitConsumersReady();

		producer.channel()
			.send(MessageBuilder.withPayload(bytes("hello")).setHeader("custom", "value").build());

		await().atMost(timeout()).until(() -> received.count() == 1);
		Message<?> message = received.messages().get(0);
		assertThat(text(message)).isEqualTo("hello");
		assertThat(message.getHeaders().get("custom")).isEqualTo("value");
	}

	@Test
	void keepsTheOrderOfOneProducerOnAPipe() {
		String name = pipe("order");
		Received received = new Received();
		this.bus.bindConsumer(name, received, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer(name, null, BindingProperties.NONE);
		awaitConsumersReady();

		sendNumbered(producer, 500);

		await().atMost(timeout()).until(() -> received.count() >= 500);
		assertThat(received.texts()).containsExactlyElementsOf(numbered(500));
	}

	@Test
	void givesEachMessageToExactlyOneConsumerOfAPipe() {
		String name = pipe("compete");
		Received first = new Received();
		Received second = new Received();
		this.bus.bindConsumer(name, first, BindingProperties.NONE);
		this.bus.bindConsumer(name, second, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer(name, null, BindingProperties.NONE);
		awaitConsumersReady();

		sendNumbered(producer, 200);

		await().atMost(timeout()).until(() -> first.count() + second.count() >= 200);
		List<String> all = new ArrayList<>(first.texts());
		all.addAll(second.texts());
		assertThat(all).containsExactlyInAnyOrderElementsOf(numbered(200));
	}

	@Test
	void stopsDeliveringToAnUnboundConsumer() {
		String name = pipe("unbind");
		Received before = new Received();
		Binding first = this.bus.bindConsumer(name, before, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer(name, null, BindingProperties.NONE);
		awaitConsumersReady();
		producer.channel().send(MessageBuilder.withPayload(bytes("one")).build());
		await().atMost(timeout()).until(() -> before.count() == 1);

		first.unbind();
		Received after = new Received();
		this.bus.bindConsumer(name, after, BindingProperties.NONE);
		awaitConsumersReady();
		producer.channel().send(MessageBuilder.withPayload(bytes("two")).build());

		await().atMost(timeout()).until(() -> after.texts().contains("two"));
		assertThat(before.texts()).containsExactly("one");
	}

	@Test
	void queueKeepsMessagesSentBeforeAnyConsumerBinds() {
		String name = "queue:" + this.prefix + "-waiting";
		ProducerBinding producer = this.bus.bindProducer(name, null, BindingProperties.NONE);
		sendNumbered(producer, 20);

		Received received = new Received();
		this.bus.bindConsumer(name, received, BindingProperties.NONE);

		await().atMost(timeout()).until(() -> received.count() >= 20);
		assertThat(received.texts()).containsExactlyElementsOf(numbered(20));
	}

	@Test
	void publishesEveryMessageToEveryGroupOfATopic() {
		String name = "topic:" + this.prefix + "-fanout";
		Received first = new Received();
		Received second = new Received();
		this.bus.bindPubSubConsumer(name, null, first, BindingProperties.NONE);
		this.bus.bindPubSubConsumer(name, null, second, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindPubSubProducer(name, null, BindingProperties.NONE);
		awaitConsumersReady();

		sendNumbered(producer, 100);

		await().atMost(timeout()).until(() -> first.count() >= 100 && second.count() >= 100);
		assertThat(first.texts()).containsExactlyElementsOf(numbered(100));
		assertThat(second.texts()).containsExactlyElementsOf(numbered(100));
	}

	@Test
	void sharesMessagesBetweenConsumersOfOneGroup() {
		String name = "topic:" + this.prefix + "-group";
		Received first = new Received();
		Received second = new Received();
		this.bus.bindPubSubConsumer(name, "workers", first, BindingProperties.NONE);
		this.bus.bindPubSubConsumer(name, "workers", second, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindPubSubProducer(name, null, BindingProperties.NONE);
		awaitConsumersReady();

		sendNumbered(producer, 100);

		await().atMost(timeout()).until(() -> first.count() + second.count() >= 100);
		List<String> all = new ArrayList<>(first.texts());
		all.addAll(second.texts());
		assertThat(all).containsExactlyInAnyOrderElementsOf(numbered(100));
	}

	@Test
	void tapReceivesCopiesWhileThePipeStillDelivers() {
		String name = pipe("tapped");
		String tap = "tap:stream:" + this.prefix + "-tapped.source.0";
		Received main = new Received();
		Received tapped = new Received();
		this.bus.bindConsumer(name, main, BindingProperties.NONE);
		ProducerBinding producer = this.bus.bindProducer(name, tap, BindingProperties.NONE);
		Binding tapBinding = this.bus.bindPubSubConsumer(tap, null, tapped, BindingProperties.NONE);
		awaitConsumersReady();

		sendNumbered(producer, 50);

		await().atMost(timeout()).until(() -> main.count() >= 50 && tapped.count() >= 50);
		assertThat(main.texts()).containsExactlyElementsOf(numbered(50));
		assertThat(tapped.texts()).containsExactlyElementsOf(numbered(50));

		tapBinding.unbind();
		producer.channel().send(MessageBuilder.withPayload(bytes("after")).build());
		await().atMost(timeout()).until(() -> main.texts().contains("after"));
		assertThat(tapped.texts()).doesNotContain("after");
	}

	@Test
	void rejectsAPublishSubscribeNameForAPipe() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.bus.bindProducer("topic:" + this.prefix, null, BindingProperties.NONE))
			.withMessageContaining("topic:" + this.prefix);
	}

	protected static void sendNumbered(ProducerBinding producer, int count) {
		IntStream.range(0, count)
			.forEach(i -> producer.channel().send(MessageBuilder.withPayload(bytes("m" + i)).build()));
	}

	protected static List<String> numbered(int count) {
		return IntStream.range(0, count).mapToObj(i -> "m" + i).toList();
	}

	protected static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	protected static String text(Message<?> message) {
		Object payload = message.getPayload();
		return (payload instanceof byte[] array) ? new String(array, StandardCharsets.UTF_8) : String.valueOf(payload);
	}

	/** Collects what a consumer receives, from any thread. */
	public static final class Received implements MessageHandler {

		private final List<Message<?>> messages = Collections.synchronizedList(new ArrayList<>());

		private final Set<Thread> threads = Collections.synchronizedSet(new HashSet<>());

		@Override
		public void handleMessage(Message<?> message) {
			this.threads.add(Thread.currentThread());
			this.messages.add(message);
		}

		public int count() {
			return this.messages.size();
		}

		public List<Message<?>> messages() {
			synchronized (this.messages) {
				return new ArrayList<>(this.messages);
			}
		}

		public List<String> texts() {
			return messages().stream().map(AbstractMessageBusContractTests::text).toList();
		}

		public Set<Thread> threads() {
			synchronized (this.threads) {
				return new HashSet<>(this.threads);
			}
		}
	}
}
