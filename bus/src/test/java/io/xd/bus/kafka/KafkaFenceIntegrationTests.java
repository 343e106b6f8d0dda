package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.MessageBuilder;

import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.ProducerBinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bus's fence ({@link io.xd.bus.MessageBus#fence}), which a container closes when its lease on its ZooKeeper
 * session runs out: a fenced consumer hands nothing over and loses nothing, and unbinding it does not wait to commit.
 */
class KafkaFenceIntegrationTests {

	private final String prefix = "fence" + UUID.randomUUID().toString().substring(0, 8);

	private final List<KafkaMessageBus> buses = new ArrayList<>();

	@AfterEach
	void close() {
		this.buses.forEach(KafkaMessageBus::close);
	}

	private KafkaMessageBus bus() {
		KafkaMessageBus bus = new KafkaMessageBus(KafkaMessageBusIntegrationTests.settings("native"));
		this.buses.add(bus);
		return bus;
	}

	@Test
	void aFencedConsumerHandsNothingOverAndItsRecordsGoToTheNextOwner() throws Exception {
		KafkaMessageBus fenced = bus();
		AtomicBoolean mayHandle = new AtomicBoolean(false);
		fenced.fence(mayHandle::get);
		String queue = "queue:" + this.prefix;
		List<String> first = new CopyOnWriteArrayList<>();
		Binding consumer = fenced.bindConsumer(queue, message -> first.add(text((byte[]) message.getPayload())),
				BindingProperties.NONE);
		ProducerBinding producer = fenced.bindProducer(queue, null, BindingProperties.NONE);
		send(producer, 0, 100);
		Thread.sleep(1_500);
		assertThat(first).as("handed over while fenced").isEmpty();

		mayHandle.set(true);
		await().atMost(Duration.ofSeconds(30)).until(() -> first.size() >= 100);
		assertThat(Set.copyOf(first)).isEqualTo(texts(0, 100));

		mayHandle.set(false);
		send(producer, 100, 200);
		Thread.sleep(1_000);
		assertThat(first).as("handed over while fenced").hasSize(100);
		long unbinding = System.nanoTime();
		consumer.unbind();
		long unbound = (System.nanoTime() - unbinding) / 1_000_000;
		assertThat(unbound).as("ms to unbind a fenced consumer").isLessThan(1_000);

		// the records the fenced consumer did not hand over go to the partition's next owner
		Set<String> next = ConcurrentHashMap.newKeySet();
		bus().bindConsumer(queue, message -> next.add(text((byte[]) message.getPayload())), BindingProperties.NONE);
		await().atMost(Duration.ofSeconds(60)).until(() -> next.containsAll(texts(100, 200)));
		assertThat(first).hasSize(100);
	}

	private static void send(ProducerBinding producer, int from, int to) {
		IntStream.range(from, to).forEach(i -> producer.channel().send(MessageBuilder
			.withPayload(("m" + i).getBytes(StandardCharsets.UTF_8)).build()));
	}

	private static Set<String> texts(int from, int to) {
		return IntStream.range(from, to).mapToObj(i -> "m" + i).collect(Collectors.toSet());
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}
}
