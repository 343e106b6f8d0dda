package io.xd.benchmarks.runner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The seed's Kafka benchmark, XD beside Kafka's own tools on the same local broker in the same run
 * ({@code bin/kafka-bench}, and the {@code kafka} suite of {@code bin/xd-bench}). For each message size,
 * alternately: Kafka's {@code ProducerPerformance} and {@code ConsumerPerformance} at once on a fresh topic
 * ({@link NativePerf}), then {@code load-generator --messageCount=N --messageSize=S | throughput} on a singlenode
 * over the Kafka bus with the same topic settings (6 partitions, replication factor 1, acks=1, batch.size=128000,
 * raw records). Prints the seed's two tables and writes {@code target/bench/kafka.json}.
 * <p>
 * Rates, chosen so that any doubt goes against XD: the native producer after its warm-up (the first third of the
 * records left out); XD's producer over its whole run, from its first message until the broker had acknowledged the
 * last one (the topic's end offsets summed to the records sent); consumers on both sides in steady state, from a
 * third of the records to the last, so that neither counts its group join. The best round of each side is kept.
 */
public final class KafkaBench {

	private static final String USAGE = """
			Usage: bin/kafka-bench [--sizes 100,1000,10000,100000] [--records SIZE=COUNT,...] [--rounds R]

			XD over Kafka beside Kafka's own ProducerPerformance/ConsumerPerformance on the same local broker,
			alternating per size; prints the seed's tables (messages/s and MB/s, with the ratio XD/native) and writes
			target/bench/kafka.json. Default records: 100=8000000, 1000=2000000, 10000=200000, 100000=20000.
			Starts bin/kafka-local if no broker answers on 127.0.0.1:9092, and stops it again at the end.""";

	/**
	 * The singlenode XD's side runs in: the seed's settings (raw records, 6 partitions, acks=1, batch.size=128000,
	 * replication factor 1). The {@code partitions} suite uses one like it, setting its partitions per stream.
	 * Under {@code --quick} both run in the run's shared Kafka singlenode instead ({@link Servers#raw}), whose records
	 * carry headers (the bus's default), with the rest set per stream ({@link #STREAM}).
	 */
	static final String[] SINGLENODE = { "--transport", "kafka", "--xd.messagebus.kafka.brokers=" + Bench.BROKER,
			"--xd.messagebus.kafka.mode=raw", "--xd.messagebus.kafka.default.batchSize=128000",
			"--xd.messagebus.kafka.default.minPartitionCount=6", "--xd.messagebus.kafka.default.requiredAcks=1",
			"--xd.messagebus.kafka.default.replicationFactor=1" };

	/** The seed's settings of {@link #SINGLENODE} but the records' mode, per stream. */
	static final String STREAM = "module.load-generator.producer.batchSize=128000,"
			+ "module.load-generator.producer.requiredAcks=1,module.load-generator.producer.minPartitionCount=6,"
			+ "module.throughput.consumer.minPartitionCount=6";

	private static final double MEGABYTE = 1024.0 * 1024.0;

	private final Bench bench;

	private final BenchOptions.KafkaBench options;

	private final Map<Integer, Figure[]> best = new HashMap<>();

	/** Whether XD's records are raw (the seed's setting), or carry headers (the shared singlenode of --quick). */
	private boolean raw = true;

	KafkaBench(Bench bench, BenchOptions.KafkaBench options) {
		this.bench = bench;
		this.options = options;
	}

	public static void main(String[] args) {
		Bench.main("kafka-bench", USAGE, args, BenchOptions::kafkaBench, BenchOptions.KafkaBench::help,
				(bench, options) -> new KafkaBench(bench, options).run(System.out));
	}

	/** Runs every round and size, prints the tables to {@code out} and writes {@code kafka.json}. */
	void run(PrintStream out) throws IOException, InterruptedException {
		Path work = this.bench.freshDirectory("kafka-xd");
		try (Servers servers = new Servers(this.bench, false, work)) {
			run(out, servers, "singlenode", work);
		}
	}

	/**
	 * Runs every round and size in the singlenode {@code servers} lends ({@link Servers#raw}: under {@code --quick}
	 * the run's shared Kafka singlenode; else a fresh one named {@code name}), prints the tables to
	 * {@code out} and writes {@code kafka.json}; the native tools' output goes to {@code work}.
	 */
	void run(PrintStream out, Servers servers, String name, Path work) throws IOException, InterruptedException {
		// the broker is started, when no broker answers, by the lease (Servers#raw)
		this.raw = !servers.quick();
		System.err.println(this.raw ? "Starting singlenode with the Kafka transport, raw records"
				: "The run's shared Kafka singlenode (--quick): records with headers, the bus's default");
		try (Servers.Lease lease = servers.raw(name); KafkaOffsets offsets = new KafkaOffsets(Bench.BROKER)) {
			Singlenode singlenode = lease.singlenode();
			System.err.println("Singlenode log: "
					+ this.bench.home().toAbsolutePath().relativize(singlenode.log().toAbsolutePath()));
			System.err.println("Kafka benchmark: native tools and XD alternating on " + Bench.BROKER
					+ ", 6 partitions, acks=1, batch.size=128000, " + this.options.rounds() + " round(s)");
			NativePerf nativePerf = new NativePerf(this.bench, work);
			warmUp(singlenode, offsets);
			for (int round = 1; round <= this.options.rounds(); round++) {
				for (int size : this.options.sizes()) {
					long records = this.options.records().get(size);
					System.err.printf(Locale.ROOT, "Round %d, %d bytes, %d records: native%n", round, size, records);
					NativePerf.Result nativeResult = nativePerf.run(size, records);
					System.err.printf(Locale.ROOT, "  native producer %s msg/s, consumer %s msg/s%n",
							nativeResult.producer().format("%.1f"), nativeResult.consumer().format("%.1f"));
					System.err.printf(Locale.ROOT, "Round %d, %d bytes, %d records: XD%n", round, size, records);
					StreamRun.Result xd = new StreamRun("kafkaBench" + size + "r" + round + this.bench.runId(),
							"load-generator --messageCount=" + records + " --messageSize=" + size + " | throughput", STREAM,
							records, Duration.ofMillis(100))
						.run(singlenode, offsets, false, System.err::println);
					Figure xdProducer = xd.producerRate();
					Figure xdConsumer = xd.steadySinkRate();
					System.err.printf(Locale.ROOT, "  XD producer %s msg/s (to the broker's acknowledgement), consumer %s msg/s%n",
							xdProducer.format("%.1f"), xdConsumer.format("%.1f"));
					keepBest(size, nativeResult.producer(), xdProducer, nativeResult.consumer(), xdConsumer);
				}
			}
		}
		printTables(out);
		out.println();
		out.println("Results: " + this.bench.home().relativize(write()));
	}

	/**
	 * One unmeasured stream of the first size's records through XD's singlenode before the rounds. The native tools
	 * leave out the first third of each run as their warm-up, while XD's rate counts its whole run: without this,
	 * XD's first round would also count its JVM's warm-up (class loading and JIT of the whole path), which its later
	 * rounds, in the same JVM, do not pay. A third of the records was not enough at 100 B: after it, XD's three
	 * rounds still ran at 462 000, 628 000 and 675 000 msg/s (and 514 000, 637 000, 805 000), the native tools' at
	 * 361 000-475 000 in any round.
	 */
	private void warmUp(Singlenode singlenode, KafkaOffsets offsets) throws IOException, InterruptedException {
		int size = this.options.sizes().get(0);
		long records = this.options.records().get(size);
		System.err.printf(Locale.ROOT, "Warming XD up: %d records of %d bytes, not measured%n", records, size);
		new StreamRun("kafkaBenchWarmUp" + this.bench.runId(), "load-generator --messageCount=" + records
				+ " --messageSize=" + size + " | throughput", STREAM, records, Duration.ofMillis(100))
			.run(singlenode, offsets, false, line -> { });
	}

	/** The best of the rounds on each side: the machine is shared, and noise only ever slows a run down. */
	private void keepBest(int size, Figure... figures) {
		Figure[] kept = this.best.computeIfAbsent(size, key -> figures.clone());
		for (int i = 0; i < figures.length; i++) {
			kept[i] = kept[i].max(figures[i]);
		}
	}

	private void printTables(PrintStream out) {
		out.println();
		out.printf(Locale.ROOT, "Kafka transport, XD beside Kafka's own tools, %d CPUs, %s (best of %d round(s))%n",
				Runtime.getRuntime().availableProcessors(), this.bench.date(), this.options.rounds());
		table(out, "Messages per second", 1);
		table(out, "MB per second (MB = 2^20 bytes)", 0);
		List<String> missing = missing();
		if (!missing.isEmpty()) {
			out.println();
			missing.forEach(out::println);
		}
	}

	private void table(PrintStream out, String title, int unit) {
		out.println();
		out.println(title);
		out.printf(Locale.ROOT, "%-8s | %14s %14s %6s | %14s %14s %6s%n", "Size", "Native prod.", "XD prod.", "XD/n",
				"Native cons.", "XD cons.", "XD/n");
		for (int size : this.options.sizes()) {
			Figure[] f = this.best.get(size);
			double factor = (unit == 1) ? 1 : size / MEGABYTE;
			out.printf(Locale.ROOT, "%-8d | %14s %14s %6s | %14s %14s %6s%n", size, cell(f[0].times(factor), "%.0f"),
					cell(f[1].times(factor), "%.0f"), cell(f[1].dividedBy(f[0]), "%.2f"), cell(f[2].times(factor), "%.0f"),
					cell(f[3].times(factor), "%.0f"), cell(f[3].dividedBy(f[2]), "%.2f"));
		}
	}

	/** A table cell: the figure, or {@code n/a} with its reason listed under the tables. */
	private static String cell(Figure figure, String format) {
		return figure.isPresent() ? figure.format(format) : "n/a";
	}

	private List<String> missing() {
		String[] names = { "native producer", "XD producer", "native consumer", "XD consumer" };
		List<String> missing = new ArrayList<>();
		for (int size : this.options.sizes()) {
			Figure[] f = this.best.get(size);
			for (int i = 0; i < names.length; i++) {
				if (!f[i].isPresent()) {
					missing.add(names[i] + " at " + size + " bytes: " + f[i].format("%.0f"));
				}
			}
		}
		return missing;
	}

	private Path write() throws IOException {
		SuiteJson json = new SuiteJson(this.bench, "kafka", "Kafka: XD beside Kafka's own tools")
			.note("Same local broker, same run, native and XD alternating per size; topic with 6 partitions, "
					+ "replication factor 1, acks=1, batch.size=128000; XD " + (this.raw ? "in raw mode"
							: "with headers (its default mode: --quick runs it in the singlenode of the other Kafka "
									+ "suites)") + ". Best of "
					+ this.options.rounds() + " round(s) on each side.")
			.note("Native producer after its warm-up (first third left out); XD producer over its whole run, from its "
					+ "first message until the broker had acknowledged the last (the topic's end offsets summed to the "
					+ "records sent); both consumers in steady state (from a third of the records). MB = 2^20 bytes.")
			.columns("size (bytes)", "records", "native producer msg/s", "XD producer msg/s", "XD/native",
					"native consumer msg/s", "XD consumer msg/s", "XD/native", "native producer MB/s",
					"XD producer MB/s", "native consumer MB/s", "XD consumer MB/s");
		List<Integer> sizes = this.options.sizes();
		List<Figure> nativeProducer = new ArrayList<>();
		List<Figure> xdProducer = new ArrayList<>();
		List<Figure> nativeConsumer = new ArrayList<>();
		List<Figure> xdConsumer = new ArrayList<>();
		for (int size : sizes) {
			Figure[] f = this.best.get(size);
			double mb = size / MEGABYTE;
			json.row(size, this.options.records().get(size), SuiteJson.rounded(f[0], 0), SuiteJson.rounded(f[1], 0),
					SuiteJson.rounded(f[1].dividedBy(f[0]), 2), SuiteJson.rounded(f[2], 0), SuiteJson.rounded(f[3], 0),
					SuiteJson.rounded(f[3].dividedBy(f[2]), 2), f[0].times(mb), f[1].times(mb), f[2].times(mb),
					f[3].times(mb));
			nativeProducer.add(f[0]);
			xdProducer.add(f[1]);
			nativeConsumer.add(f[2]);
			xdConsumer.add(f[3]);
		}
		json.chart("Producers, messages per second", "bar", "message size (bytes)", "msg/s", true)
			.series("Kafka ProducerPerformance", sizes, nativeProducer)
			.series("XD load-generator", sizes, xdProducer);
		json.chart("Consumers, messages per second", "bar", "message size (bytes)", "msg/s", true)
			.series("Kafka ConsumerPerformance", sizes, nativeConsumer)
			.series("XD throughput", sizes, xdConsumer);
		return json.write();
	}
}
