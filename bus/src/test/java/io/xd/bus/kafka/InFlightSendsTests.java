package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The wait for a poll's sends, with callbacks completed by hand as a producer's I/O thread would. */
class InFlightSendsTests {

	private static final RecordMetadata METADATA = new RecordMetadata(new TopicPartition("t", 0), 0, 0, 0, 0, 0);

	private final AtomicInteger completions = new AtomicInteger();

	private final Callback counting = (metadata, exception) -> this.completions.incrementAndGet();

	@AfterEach
	void closeScope() {
		InFlightSends.close();
	}

	@Test
	void aThreadWithoutAScopeGetsItsOwnCallbackBack() {
		assertThat(InFlightSends.track(this.counting)).isSameAs(this.counting);
	}

	@Test
	void awaitReturnsAtOnceWhenNothingWasSent() {
		InFlightSends.open().awaitAll(Duration.ofMillis(1));
	}

	@Test
	void awaitWaitsUntilEverySendIsAcknowledgedAndCallsTheProducersCallbacks() throws Exception {
		InFlightSends scope = InFlightSends.open();
		List<Callback> pending = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			pending.add(InFlightSends.track(this.counting));
		}
		CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> scope.awaitAll(Duration.ofSeconds(10)));
		pending.get(0).onCompletion(METADATA, null);
		pending.get(1).onCompletion(METADATA, null);
		assertThat(waiting).as("one send not yet acknowledged").isNotDone();
		TimeUnit.MILLISECONDS.sleep(50);
		assertThat(waiting).isNotDone();
		pending.get(2).onCompletion(METADATA, null);
		waiting.get(5, TimeUnit.SECONDS);
		assertThat(this.completions).hasValue(3);
	}

	@Test
	void aFailedSendFailsTheWaitSoThePollIsDeliveredAgain() {
		InFlightSends scope = InFlightSends.open();
		InFlightSends.track(this.counting).onCompletion(null, new IllegalStateException("broker gone"));
		InFlightSends.track(this.counting).onCompletion(METADATA, null);
		assertThatIllegalStateException().isThrownBy(() -> scope.awaitAll(Duration.ofSeconds(1)))
			.withMessageContaining("broker gone")
			.withMessageContaining("delivered again");
		assertThat(this.completions).hasValue(2);
	}

	@Test
	void aSendNeverAcknowledgedTimesOut() {
		InFlightSends scope = InFlightSends.open();
		InFlightSends.track(this.counting);
		assertThatIllegalStateException().isThrownBy(() -> scope.awaitAll(Duration.ofMillis(50)))
			.withMessageContaining("1 send(s) of the module were not acknowledged");
	}

	@Test
	void anInterruptedWaitKeepsTheInterruptStatus() {
		InFlightSends scope = InFlightSends.open();
		InFlightSends.track(this.counting);
		Thread.currentThread().interrupt();
		try {
			assertThatIllegalStateException().isThrownBy(() -> scope.awaitAll(Duration.ofSeconds(5)))
				.withMessageContaining("Interrupted");
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void sendsFromAnotherThreadAreNotCounted() throws Exception {
		InFlightSends scope = InFlightSends.open();
		Callback fromSource = CompletableFuture.supplyAsync(() -> InFlightSends.track(this.counting)).get();
		assertThat(fromSource).isSameAs(this.counting);
		scope.awaitAll(Duration.ofMillis(1));
	}
}
