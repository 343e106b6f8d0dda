package io.xd.modules.builtin;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.ModuleOptionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
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

	@Test
	void pacesMessagesAtTheRequestedRate() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("rate", "2000", "messageCount", "2000", "messageSize", "10"));
		long[] received = new long[2000];
		AtomicLong count = new AtomicLong();
		long start = System.nanoTime();

		long sent = source.produce((message, timeout) -> {
			received[(int) count.getAndIncrement()] = System.nanoTime();
			return true;
		}, 2000, 0);

		assertThat(sent).isEqualTo(2000);
		// the last message is due 999.5 ms after the first
		double seconds = (received[1999] - start) / 1e9;
		assertThat(seconds).isBetween(0.99, 1.5);
		// evenly paced, not a burst at either end: the first 1000 are due in the first half second, and only a
		// stall of this machine can delay some of them past it
		long firstHalf = Arrays.stream(received).filter(t -> t - start < 500_000_000L).count();
		assertThat(firstHalf).isBetween(800L, 1000L);
	}

	@Test
	void stampsEachMessageWithItsDueTimeSoThatAStalledConsumerShowsInTheLatency() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("rate", "1000", "messageCount", "300", "messageSize", "100", "generateTimestamp", "true"));
		ThroughputSink sink = Modules.create(new ThroughputSink.Provider(),
				Map.of("reportEveryMs", "0", "latency", "true"));
		Modules.Collecting output = new Modules.Collecting();
		sink.start();

		source.produce((message, timeout) -> {
			sink.handleMessage(message);
			output.send(message);
			if (ByteBuffer.wrap((byte[]) message.getPayload()).getInt(0) == 100) {
				// a consumer that stalls once, after taking message 100: the next ~50 go out late
				sleep(50);
			}
			return true;
		}, 300, 0);
		sink.stop();

		long first = ByteBuffer.wrap((byte[]) output.messages.get(0).getPayload()).getLong(4);
		for (int i = 0; i < 300; i++) {
			ByteBuffer payload = ByteBuffer.wrap((byte[]) output.messages.get(i).getPayload());
			assertThat(payload.getInt(0)).isEqualTo(i);
			assertThat(payload.getLong(4) - first).isEqualTo(i * 1_000_000L);
		}
		Histogram latencies = sink.latencyHistogram();
		assertThat(latencies.getTotalCount()).isEqualTo(300);
		assertThat(sink.latency().maxNanos()).isGreaterThanOrEqualTo(45_000_000L);
		// message 101 waited about 49 ms, 102 about 48 ms, ...: the stall counts for every message it delayed
		assertThat(latencies.getCountBetweenValues(10_000_000L, Long.MAX_VALUE / 2)).isGreaterThanOrEqualTo(35);
	}

	@Test
	void timestampsTheActualSendTimeWithoutARate() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("messageCount", "3", "messageSize", "12", "generateTimestamp", "true"));
		Modules.Collecting output = new Modules.Collecting();

		source.produce((message, timeout) -> {
			sleep(20);
			return output.send(message);
		}, 3, 0);

		long first = ByteBuffer.wrap((byte[]) output.messages.get(0).getPayload()).getLong(4);
		long third = ByteBuffer.wrap((byte[]) output.messages.get(2).getPayload()).getLong(4);
		assertThat(third - first).isGreaterThanOrEqualTo(40_000_000L);
	}

	@Test
	void sendsUntilTheDurationEndsWhenNoMessageCountIsGiven() {
		try (Modules.CapturedLog log = new Modules.CapturedLog(LoadGeneratorSource.class.getName())) {
			LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
					Map.of("duration", "300ms", "messageSize", "1"));
			AtomicLong sent = new AtomicLong();
			long start = System.nanoTime();

			source.start((message, timeout) -> sent.incrementAndGet() > 0);
			await().atMost(5, TimeUnit.SECONDS).until(() -> log.lines().contains("All Messages Dispatched"));
			long elapsed = System.nanoTime() - start;
			source.stop();

			assertThat(Duration.ofNanos(elapsed)).isBetween(Duration.ofMillis(300), Duration.ofSeconds(2));
			// well past the default messageCount of 100: a timed run is limited by time only
			assertThat(sent.get()).isGreaterThan(1000);
			assertThat(log.lines()).contains("Producer 0 sending messages for 300ms");
		}
	}

	@Test
	void sendsRateTimesDurationMessagesWhenPaced() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("rate", "1000", "duration", "500ms", "messageSize", "1"));
		Modules.Collecting output = new Modules.Collecting();
		long start = System.nanoTime();

		long sent = source.produce(output, Long.MAX_VALUE, 0);

		// messages due at 0, 1, ..., 499 ms; the last few are dropped if this machine stalls the producer at the end
		assertThat(sent).isBetween(450L, 500L);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(480),
				Duration.ofMillis(1500));
	}

	@Test
	void aFastPacedProducerParksInsteadOfKeepingACoreBusy() {
		// 50 µs between messages: too short for a park to wake on time, so waiting on time would mean never parking
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("rate", "20000", "duration", "1s", "messageSize", "1"));
		AtomicLong count = new AtomicLong();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long cpuBefore = threads.getCurrentThreadCpuTime();
		long start = System.nanoTime();

		long sent = source.produce((message, timeout) -> count.incrementAndGet() > 0, Long.MAX_VALUE, 0);

		long wall = System.nanoTime() - start;
		long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
		// the messages due in the second go out, late ones as soon as the producer wakes; only a stall of this
		// machine near the end, which the duration cuts off, can lose some
		assertThat(sent).isBetween(18_000L, 20_000L);
		assertThat(count.get()).isEqualTo(sent);
		// a producer waiting without parking would use the whole second; parked, it used a fraction of it
		assertThat((double) cpu / wall).as("the producer's CPU time over its run's time").isLessThan(0.5);
	}

	@Test
	void stopsAtTheMessageCountWhenItComesBeforeTheEndOfTheDuration() {
		try (Modules.CapturedLog log = new Modules.CapturedLog(LoadGeneratorSource.class.getName())) {
			LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
					Map.of("duration", "1h", "messageCount", "50", "rate", "1000", "messageSize", "1"));
			Modules.Collecting output = new Modules.Collecting();

			source.start(output);
			await().atMost(5, TimeUnit.SECONDS).until(() -> log.lines().contains("All Messages Dispatched"));
			source.stop();

			assertThat(output.messages).hasSize(50);
			assertThat(log.lines()).contains("Producer 0 sending up to 50 messages for 3600s at 1000/s");
		}
	}

	@Test
	void stopWakesAProducerThatWaitsForItsNextMessage() {
		LoadGeneratorSource source = Modules.create(new LoadGeneratorSource.Provider(),
				Map.of("rate", "1", "messageCount", "10", "messageSize", "1"));
		Modules.Collecting output = new Modules.Collecting();
		source.start(output);
		await().atMost(5, TimeUnit.SECONDS).until(() -> output.messages.size() == 1);

		long start = System.nanoTime();
		source.stop();

		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));
		assertThat(output.messages).hasSize(1);
	}

	@Test
	void computesExactDueTimesForAnyIndex() {
		assertThat(LoadGeneratorSource.dueOffsetNanos(0, 3)).isZero();
		assertThat(LoadGeneratorSource.dueOffsetNanos(1, 3)).isEqualTo(333_333_333L);
		assertThat(LoadGeneratorSource.dueOffsetNanos(3, 3)).isEqualTo(1_000_000_000L);
		assertThat(LoadGeneratorSource.dueOffsetNanos(1999, 2000)).isEqualTo(999_500_000L);
		// a year of messages at a million per second does not overflow
		long index = 365L * 24 * 3600 * 1_000_000;
		assertThat(LoadGeneratorSource.dueOffsetNanos(index, 1_000_000)).isEqualTo(365L * 24 * 3600 * 1_000_000_000L);
	}

	@Test
	void refusesANegativeRateOrANonPositiveDuration() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new LoadGeneratorSource.Provider(), Map.of("rate", "-5")))
			.withMessageContaining("option 'rate' must be at least 0, but got '-5'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new LoadGeneratorSource.Provider(), Map.of("duration", "0s")))
			.withMessageContaining("option 'duration' must be positive, but got '0s'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new LoadGeneratorSource.Provider(), Map.of("duration", "soon")))
			.withMessageContaining("option 'duration' expects a duration such as 500ms, 30s, 2m or 1h, but got 'soon'");
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}
}
