package io.xd.modules.builtin;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class LoadGeneratorSourceTests {

	@Test
	void sendsMessageCountFromEachProducerThenLogsThatAllWereDispatched() {
		try (Modules.CapturedLog log = new Modules.CapturedLog(LoadGeneratorSource.class.getName())) {
			LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
					Map.of("producers", "3", "messageCount", "1000", "messageSize", "50"));
			Modules.Collecting output = new Modules.Collecting();

			source.start(output);
			await().atMost(10, TimeUnit.SECONDS).until(() -> log.lines().contains("All Messages Dispatched"));
			source.stop();

			assertThat(output.messages).hasSize(3000);
			assertThat(output.messages).allSatisfy(message -> assertThat((byte[]) message.getPayload()).hasSize(50));
			assertThat(log.lines()).contains("Producer 0 sending 1000 messages", "Producer 2 sending 1000 messages");
		}
	}

	@Test
	void allocatesANewZeroFilledPayloadForEveryMessage() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(), Map.of("messageSize", "8"));
		Modules.Collecting output = new Modules.Collecting();

		assertThat(source.produce(output, 100, 0)).isEqualTo(100);

		Set<Object> distinct = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
		output.messages.forEach(message -> distinct.add(message.getPayload()));
		assertThat(distinct).hasSize(100);
		assertThat(output.messages).allSatisfy(message -> assertThat((byte[]) message.getPayload()).containsOnly(0));
		assertThat(output.messages.get(0).getHeaders().getId()).isNull();
	}

	@Test
	void writesABigEndianSequenceNumberAndNanoTimeWhenAskedForTimestamps() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("messageSize", "100", "generateTimestamp", "true"));
		Modules.Collecting output = new Modules.Collecting();
		long before = System.nanoTime();

		source.produce(output, 300, 0);

		long after = System.nanoTime();
		List<Message<?>> messages = output.messages;
		long previousTime = before;
		for (int i = 0; i < messages.size(); i++) {
			ByteBuffer payload = ByteBuffer.wrap((byte[]) messages.get(i).getPayload());
			assertThat(payload.remaining()).isEqualTo(100);
			assertThat(payload.getInt(0)).isEqualTo(i);
			long time = payload.getLong(4);
			assertThat(time).isBetween(previousTime, after);
			previousTime = time;
		}
	}

	@Test
	void growsPayloadsShorterThanTheTimestampPrefix() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("messageSize", "4", "generateTimestamp", "true"));
		Modules.Collecting output = new Modules.Collecting();

		source.produce(output, 1, 0);

		assertThat((byte[]) output.messages.get(0).getPayload()).hasSize(LoadGeneratorSource.TIMESTAMP_PREFIX_LENGTH);
	}

	@Test
	void goesOnAfterAFailedSendAndReportsTheFailures() {
		try (Modules.CapturedLog log = new Modules.CapturedLog(LoadGeneratorSource.class.getName())) {
			LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(), Map.of("messageSize", "1"));
			AtomicLong calls = new AtomicLong();
			MessageChannel failingEveryTenth = (message, timeout) -> {
				if (calls.incrementAndGet() % 10 == 0) {
					throw new IllegalStateException("rejected");
				}
				return true;
			};

			assertThat(source.produce(failingEveryTenth, 100, 0)).isEqualTo(90);
			assertThat(log.lines()).contains("Producer 0 sent 100 messages, of which 10 failed");
		}
	}

	@Test
	void stopEndsTheProducersEarly() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("messageCount", "100000000000", "messageSize", "1"));
		AtomicLong sent = new AtomicLong();
		source.start((message, timeout) -> sent.incrementAndGet() > 0);
		await().atMost(5, TimeUnit.SECONDS).until(() -> sent.get() > 1000);

		source.stop();

		long afterStop = sent.get();
		assertThat(afterStop).isLessThan(100_000_000_000L);
		await().during(200, TimeUnit.MILLISECONDS).atMost(1, TimeUnit.SECONDS).until(() -> sent.get() == afterStop);
	}
}
