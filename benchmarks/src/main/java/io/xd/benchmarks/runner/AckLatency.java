package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka's own producer acknowledgement latency at a fixed rate, from {@code bin/kafka-ack-latency} (Kafka's
 * {@code ProducerPerformance}): the whole run ("cold", a fresh JVM's first second included) and the steady state after
 * its first second ("warm"), in the {@link LatencySummary#PERCENTILES} of the latency suite, in microseconds.
 */
final class AckLatency {

	/**
	 * ProducerPerformance's summary: "N [steady state ]records sent, R records/sec (M MB/sec), A ms avg latency,
	 * X ms max latency, P ms 50th, P ms 95th, P ms 99th, P ms 99.9th."
	 */
	private static final Pattern SUMMARY = Pattern.compile("^\\d+ (steady state )?records sent, ([\\d.]+) records/sec "
			+ "\\([\\d.]+ MB/sec\\), [\\d.]+ ms avg latency, ([\\d.]+) ms max latency, (\\d+) ms 50th, (\\d+) ms 95th, "
			+ "(\\d+) ms 99th, (\\d+) ms 99\\.9th\\.$");

	private final Map<String, Figure> rates = new LinkedHashMap<>();

	private final Map<String, Map<String, Figure>> percentiles = new LinkedHashMap<>();

	private AckLatency(String reason) {
		for (String run : List.of("cold", "warm")) {
			this.rates.put(run, Figure.na(reason));
			Map<String, Figure> missing = new LinkedHashMap<>();
			for (String percentile : LatencySummary.PERCENTILES) {
				missing.put(percentile, Figure.na(reason));
			}
			this.percentiles.put(run, missing);
		}
	}

	/**
	 * Runs {@code bin/kafka-ack-latency --topic TOPIC RATE SECONDS 100} against the local broker and reads its
	 * summaries; {@code topic}, of one partition, exists (made by the caller, who spares the script two JVMs that would
	 * create and delete one).
	 */
	static AckLatency measure(Bench bench, String topic, int rate, int seconds) throws IOException, InterruptedException {
		List<String> command = List.of(bench.home().resolve("bin/kafka-ack-latency").toString(), "--bootstrap",
				Bench.BROKER, "--topic", topic, Integer.toString(rate), Integer.toString(seconds), "100");
		Process process = new ProcessBuilder(command).directory(bench.home().toFile())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		int status = process.waitFor();
		return (status == 0) ? parse(output) : new AckLatency("bin/kafka-ack-latency failed (status " + status + ")");
	}

	/** The figures of ProducerPerformance's output; n/a, with the reason, for a summary it lacks. */
	static AckLatency parse(String output) {
		AckLatency latency = new AckLatency("no ProducerPerformance summary");
		for (String line : output.split("\\R")) {
			Matcher summary = SUMMARY.matcher(line.strip());
			if (!summary.matches()) {
				continue;
			}
			String run = (summary.group(1) != null) ? "warm" : "cold";
			latency.rates.put(run, Figure.of(Double.parseDouble(summary.group(2))));
			List<Figure> values = new ArrayList<>();
			for (int group : new int[] { 4, 5, 6, 7, 3 }) {
				values.add(Figure.of(Double.parseDouble(summary.group(group)) * 1000));
			}
			Map<String, Figure> figures = new LinkedHashMap<>();
			for (int i = 0; i < LatencySummary.PERCENTILES.length; i++) {
				figures.put(LatencySummary.PERCENTILES[i], values.get(i));
			}
			latency.percentiles.put(run, figures);
		}
		return latency;
	}

	/** The rate ProducerPerformance achieved in {@code run} ("cold" or "warm"), messages per second. */
	Figure rate(String run) {
		return this.rates.get(run);
	}

	/** The percentiles of {@code run} ("cold" or "warm"), in microseconds, in {@link LatencySummary#PERCENTILES}. */
	Map<String, Figure> percentiles(String run) {
		return this.percentiles.get(run);
	}
}
