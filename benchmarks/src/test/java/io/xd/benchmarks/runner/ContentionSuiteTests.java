package io.xd.benchmarks.runner;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.expression.SafeExpression;

import static org.assertj.core.api.Assertions.assertThat;

class ContentionSuiteTests {

	private static final Map<String, Figure> FAST = Map.of("p99", Figure.of(900_000), ContentionSuite.STEADY_P99,
			Figure.of(20_000));

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
		List<ContentionStep> steps = List.of(step("alone", 1000, ""), step("with", 1000, ""),
				step("alone", 2000, ""), step("with", 2000, "stream 1500 msg/s, p99 900 ms"), step("alone", 5000, "x"),
				step("alone", 10_000, ""));

		assertThat(ContentionSuite.knee(steps, "alone")).isEqualTo(2000);
		assertThat(ContentionSuite.knee(steps, "with")).isEqualTo(1000);
		assertThat(ContentionSuite.knee(List.of(step("alone", 1000, "x")), "alone")).isNull();
	}

	@Test
	void aStepWithTheDatabaseIsSustainedOnlyWhenEveryRowArrivedInTime() {
		DatabasePath complete = new DatabasePath(5000, 5000, 0, 4999, Figure.of(990), FAST);
		// a redelivered message is a second row, not a missing one
		DatabasePath missing = new DatabasePath(5001, 4000, 0, 4999, Figure.of(990), FAST);
		DatabasePath late = new DatabasePath(5000, 5000, 0, 4999, Figure.of(990),
				Map.of(ContentionSuite.STEADY_P99, Figure.of(300_000)));

		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.of(5000), complete, 5000)).isEmpty();
		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.of(5000), missing, 5000))
			.isEqualTo("database has 4000 of 5000 messages");
		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.of(5000), late, 5000))
			.isEqualTo("database path 990 msg/s, steady p99 300 ms");
		assertThat(ContentionSuite.verdict(1000, Figure.of(900), Figure.of(5000), null, 5000))
			.isEqualTo("stream 900 msg/s, steady p99 5 ms");
		assertThat(ContentionSuite.verdict(1000, Figure.of(999), Figure.na("no meter"), null, 5000))
			.startsWith("stream 999 msg/s, steady p99 n/a");
	}

	@Test
	void steadyP99IsTheHighestIntervalP99OfTheStreamsSinkAfterItsFirstSecond() {
		String sink = "2026-11-24T04:05:16.456Z  INFO 32076 --- [xd] [ughput-reporter] xd.sink.throughput.%s%s: Latency: %s";
		List<String> log = List.of(
				String.format(sink, "pa1", "                    ", "no timestamped messages, Latency: p50=1.0us p95=1.0us "
						+ "p99=9999999.0us p99.9=1.0us max=1.0us"),
				String.format(sink, "pa1", "                    ", "p50=18481.2us p95=298582.0us p99=326369.3us "
						+ "p99.9=333447.2us max=333447.2us, Latency: p50=18481.2us p95=298582.0us p99=326369.3us"),
				String.format(sink, "pa1", "                    ", "p50=1.0us p95=2.0us p99=900000.0us p99.9=1.0us"),
				// another stream whose name starts with the same letters
				String.format(sink, "pa10", "                   ", "p50=1.0us p95=2.0us p99=777777.0us p99.9=1.0us"),
				String.format(sink, "pa1", "                    ", "p50=1.0us p95=2.0us p99=53379.1us p99.9=1.0us, "
						+ "Latency: p50=1.0us p95=2.0us p99=800000.0us"),
				String.format(sink, "pa1", "                    ", "p50=1.0us p95=2.0us p99=48922.6us p99.9=1.0us"));

		assertThat(ContentionSuite.steadyP99(log, "pa1").get()).isEqualTo(53379.1);
		assertThat(ContentionSuite.steadyP99(log.subList(0, 3), "pa1").isPresent()).isFalse();
	}

	private static ContentionStep step(String mode, int rate, String verdict) {
		return new ContentionStep(mode, rate, Figure.of(rate), FAST, null, Map.of(), verdict);
	}
}
