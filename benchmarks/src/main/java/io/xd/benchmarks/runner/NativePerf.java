package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import tools.jackson.databind.JsonNode;

/**
 * The native side of the Kafka benchmark: Kafka's own {@code ProducerPerformance} and {@code ConsumerPerformance}
 * at once on a fresh topic, through {@code bin/kafka-native-perf}. The tools need their own classpath (Kafka's
 * 4.2.1 tools jars, fetched by {@code build-support/kafka-local}, beside which XD's Kafka client jars would clash),
 * so they run in their own JVMs as before; the script writes its figures as JSON, read here.
 */
final class NativePerf {

	private final Bench bench;

	private final Path work;

	NativePerf(Bench bench, Path work) {
		this.bench = bench;
		this.work = work;
	}

	/**
	 * Steady-state rates of both tools after the first third of the records (see {@code bin/kafka-native-perf}).
	 *
	 * @param producer messages per second of {@code ProducerPerformance}
	 * @param consumer messages per second of {@code ConsumerPerformance}
	 */
	record Result(Figure producer, Figure consumer) {
	}

	/** One native run; its progress goes to standard error, its console tables to {@code native-<size>.out}. */
	Result run(int size, long records) throws IOException, InterruptedException {
		Path json = this.work.resolve("native-" + size + ".json");
		Files.deleteIfExists(json);
		ProcessBuilder builder = new ProcessBuilder(this.bench.home().resolve("bin/kafka-native-perf").toString(),
				"--bootstrap", Bench.BROKER, "--sizes", Integer.toString(size), "--records", size + "=" + records)
			.directory(this.bench.home().toFile())
			.redirectOutput(this.work.resolve("native-" + size + ".out").toFile())
			.redirectError(ProcessBuilder.Redirect.INHERIT);
		builder.environment().put("KAFKA_NATIVE_PERF_JSON", json.toString());
		int status = builder.start().waitFor();
		if (status != 0 || !Files.isRegularFile(json)) {
			String reason = "bin/kafka-native-perf failed (status " + status + ")";
			return new Result(Figure.na(reason), Figure.na(reason));
		}
		JsonNode result = this.bench.mapper.readTree(Files.readString(json)).path("results").path(0);
		return new Result(figure(result.path("producer").path("messagesPerSecond"), "producer"),
				figure(result.path("consumer").path("messagesPerSecond"), "consumer"));
	}

	private static Figure figure(JsonNode node, String side) {
		return node.isNumber() ? Figure.of(node.doubleValue())
				: Figure.na("bin/kafka-native-perf gave no " + side + " rate");
	}
}
