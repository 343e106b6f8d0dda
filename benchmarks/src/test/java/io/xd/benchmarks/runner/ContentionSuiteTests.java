package io.xd.benchmarks.runner;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.expression.SafeExpression;

import static org.assertj.core.api.Assertions.assertThat;

class ContentionSuiteTests {

	private static final Map<String, Figure> FAST = Map.of("p99", Figure.of(20_000));

	@Test
	void rowExpressionDecodesTheLoadGeneratorsSequenceNumberAndTimestamp() {
		SafeExpression expression = SafeExpression.parse(ContentionSuite.rowExpression());
		List<Integer> sequences = List.of(0, 1, 255, 256, 0x7f_80_ff_01, Integer.MAX_VALUE);
		List<Long> times = List.of(System.nanoTime(), 0L, 0x00_7f_80_ff_01_fe_00_80L, Long.MAX_VALUE, 1L, 255L);
		for (int i = 0; i < sequences.size(); i++) {
			// load-generator --generateTimestamp=true: a 4-byte sequence number, the 8-byte send time, then zeros
			byte[] payload = ByteBuffer.allocate(100).putInt(sequences.get(i)).putLong(times.get(i)).array();

			assertThat(expression.evaluate(new GenericMessage<>(payload))).isEqualTo(sequences.get(i) + " " + times.get(i));
		}
	}

	@Test
	void kneeIsTheHighestRateSustainedBeforeTheFirstFailure() {
		List<ContentionSuite.Step> steps = List.of(step("alone", 1000, ""), step("with", 1000, ""),
				step("alone", 2000, ""), step("with", 2000, "stream 1500 msg/s, p99 900 ms"), step("alone", 5000, "x"),
				step("alone", 10_000, ""));

		assertThat(ContentionSuite.knee(steps, "alone")).isEqualTo(2000);
		assertThat(ContentionSuite.knee(steps, "with")).isEqualTo(1000);
		assertThat(ContentionSuite.knee(List.of(step("alone", 1000, "x")), "alone")).isNull();
	}

	@Test
	void aStepWithTheDatabaseIsSustainedOnlyWhenEveryRowArrivedInTime() {
		ContentionSuite.DatabasePath complete = new ContentionSuite.DatabasePath(5000, 5000, 0, 4999, Figure.of(990),
				FAST);
		// a redelivered message is a second row, not a missing one
		ContentionSuite.DatabasePath missing = new ContentionSuite.DatabasePath(5001, 4000, 0, 4999, Figure.of(990),
				FAST);
		ContentionSuite.DatabasePath late = new ContentionSuite.DatabasePath(5000, 5000, 0, 4999, Figure.of(990),
				Map.of("p99", Figure.of(300_000)));

		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.of(5000), complete, 5000)).isEmpty();
		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.of(5000), missing, 5000))
			.isEqualTo("database has 4000 of 5000 messages");
		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.of(5000), late, 5000))
			.isEqualTo("database path 990 msg/s, p99 300 ms");
		assertThat(ContentionSuite.verdict(1000, Figure.of(900), Figure.of(5000), null, 5000))
			.isEqualTo("stream 900 msg/s, p99 5 ms");
		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.na("no meter"), null, 5000))
			.startsWith("stream 999 msg/s, p99 n/a");
	}

	private static ContentionSuite.Step step(String mode, int rate, String verdict) {
		return new ContentionSuite.Step(mode, rate, Figure.of(rate), FAST, null, Map.of(), verdict);
	}
}
