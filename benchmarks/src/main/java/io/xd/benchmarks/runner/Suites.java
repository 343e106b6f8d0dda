package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The suites of {@code bin/xd-bench} other than {@code kafka} ({@link KafkaBench}): each starts its own singlenode
 * servers, runs its streams through the REST API, reads the module meters and writes {@code <suite>.json}.
 */
final class Suites {

	private static final String[] KAFKA = { "--transport", "kafka", "--xd.messagebus.kafka.brokers=" + Bench.BROKER };

	private static final Duration FAST_POLL = Duration.ofMillis(50);

	private static final Duration POLL = Duration.ofMillis(100);

	private final Bench bench;

	private final boolean quick;

	private final Path work;

	Suites(Bench bench, boolean quick, Path work) {
		this.bench = bench;
		this.quick = quick;
		this.work = work;
	}

	/** Direct binding, {@code load-generator | throughput} with {@code module.*.count=0}, 100 B to 100 KB. */
	void direct() throws IOException, InterruptedException {
		long totalBytes = this.quick ? 5_000_000_000L : 50_000_000_000L;
		List<Integer> sizes = List.of(100, 1000, 10_000, 100_000);
		this.bench.progress("direct: singlenode, local bus, load-generator | throughput with module.*.count=0");
		SuiteJson json = new SuiteJson(this.bench, "direct", "Direct binding through singlenode")
			.note("load-generator --messageSize=S | throughput, deployed with module.*.count=0 through the REST API (the "
					+ "seed's directBindingTest), one producer thread; rates from the throughput module's "
					+ "xd.module.messages.in meter, read every 50 ms through /actuator/prometheus.")
			.note("Spring XD 2015: 12.9 M msg/s at 100 bytes (the only size the seed states as a number; it gives "
					+ "5-12 M events/s for 100 to 1 000 bytes).")
			.columns("size (bytes)", "messages", "XD msg/s", "XD MB/s", "Spring XD 2015 msg/s");
		List<Figure> rates = new ArrayList<>();
		List<Integer> spring = new ArrayList<>();
		try (Singlenode singlenode = start("direct", Bench.serverJavaOptions())) {
			for (int size : sizes) {
				long count = Math.min(totalBytes / size, 200_000_000L);
				this.bench.progress("direct: " + size + " bytes, " + count + " messages");
				Figure rate = stream(singlenode, null, "direct" + size, "load-generator --messageCount=" + count
						+ " --messageSize=" + size + " | throughput --reportEveryMs=500", "module.*.count=0", count,
						FAST_POLL, false).sinkRate();
				Integer springXd = (size == 100) ? 12_900_000 : null;
				json.row(size, count, rate, rate.times(size / (1024.0 * 1024.0)), springXd);
				rates.add(rate);
				spring.add(springXd);
				this.bench.progress("direct: " + size + " bytes: " + rate.format("%.0f") + " msg/s");
			}
		}
		json.chart("Direct binding, messages per second", "bar", "message size (bytes)", "msg/s", true)
			.series("XD", sizes, rates)
			.series("Spring XD 2015", sizes, spring);
		json.write();
	}

	/** End-to-end latency at 1 000, 10 000 and 50 000 msg/s over the local bus and over Kafka. */
	void latency() throws IOException, InterruptedException {
		int seconds = this.quick ? 5 : 30;
		List<Integer> rates = List.of(1000, 10_000, 50_000);
		SuiteJson json = new SuiteJson(this.bench, "latency", "End-to-end latency at fixed rates")
			.note("load-generator --rate=R --duration=" + seconds + "s --messageSize=100 --generateTimestamp=true | "
					+ "throughput --latency=true; each message carries the time it was due, so a stall counts in full "
					+ "(no coordinated omission).")
			.note("Achieved: messages delivered from the source's first message to the sink's last (module meters). "
					+ "Latencies in microseconds, from the throughput sink's HdrHistogram over every message (its "
					+ "xd.module.latency meter). local: direct binding in one JVM; kafka: a 1-partition topic on the "
					+ "local broker, default producer settings (linger.ms=0).")
			.columns("transport", "rate (msg/s)", "achieved msg/s", "p50 us", "p95 us", "p99 us", "p99.9 us", "max us");
		SuiteJson.Chart chart = json.chart("p99 latency by rate", "line", "rate (msg/s)", "p99 (us)", true);
		for (String transport : List.of("local", "kafka")) {
			boolean kafka = transport.equals("kafka");
			if (kafka) {
				this.bench.ensureBroker();
			}
			List<Figure> p99 = new ArrayList<>();
			try (Singlenode singlenode = start("latency-" + transport, Bench.serverJavaOptions(),
					kafka ? KAFKA : new String[0])) {
				for (int rate : rates) {
					this.bench.progress("latency: " + transport + " bus, " + rate + " msg/s for " + seconds + "s");
					StreamRun.Result result = stream(singlenode, null, "lat" + transport + rate,
							timedLoad(rate, seconds) + " | throughput --latency=true --reportEveryMs=500", "", 0, POLL,
							true);
					Map<String, Figure> latency = result.latency();
					List<Object> row = new ArrayList<>(List.of(transport, rate, result.deliveredRate()));
					row.addAll(latency.values());
					json.row(row.toArray());
					p99.add(latency.get("p99"));
				}
			}
			chart.series(transport, rates, p99);
		}
		json.write();
	}

	/** The highest rate a Kafka stream sustains with p99 under 250 ms, rates doubling from 10 000 msg/s. */
	void saturation() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		int seconds = this.quick ? 3 : 10;
		double boundMicros = 250_000;
		List<Integer> offered = new ArrayList<>();
		List<Figure> achieved = new ArrayList<>();
		List<Figure> p99s = new ArrayList<>();
		SuiteJson json = new SuiteJson(this.bench, "saturation",
				"Saturation: the highest rate sustained with p99 under 250 ms (Kafka)")
			.note("Rates double from 10 000 msg/s, " + seconds + "s each, 100-byte messages over a 1-partition Kafka "
					+ "topic, until the stream falls below 95% of the offered rate or its p99 latency exceeds 250 ms "
					+ "(short runs include the client warm-up in their tail). Achieved: messages delivered from the "
					+ "source's first message to the sink's last.")
			.columns("offered msg/s", "achieved msg/s", "p99 us");
		Integer best = null;
		try (Singlenode singlenode = start("saturation", Bench.serverJavaOptions(), KAFKA)) {
			for (int rate = 10_000; rate <= 2_560_000; rate *= 2) {
				this.bench.progress("saturation: Kafka, offering " + rate + " msg/s for " + seconds + "s");
				StreamRun.Result result = stream(singlenode, null, "sat" + rate,
						timedLoad(rate, seconds) + " | throughput --latency=true --reportEveryMs=500", "", 0, POLL, true);
				Figure rateAchieved = result.deliveredRate();
				Figure p99 = result.latency().get("p99");
				json.row(rate, rateAchieved, p99);
				offered.add(rate);
				achieved.add(rateAchieved);
				p99s.add(p99);
				boolean sustained = rateAchieved.isPresent() && p99.isPresent() && rateAchieved.get() >= 0.95 * rate
						&& p99.get() <= boundMicros;
				if (!sustained) {
					break;
				}
				best = rate;
			}
		}
		json.note(best != null ? "Highest sustained rate: " + best + " msg/s."
				: "Highest sustained rate: none; not even the first rate was sustained.");
		json.chart("Achieved against offered rate", "line", "offered (msg/s)", "msg/s", false)
			.series("achieved", offered, achieved)
			.series("offered", offered, offered);
		json.chart("p99 latency against offered rate", "line", "offered (msg/s)", "p99 (us)", true)
			.series("p99", offered, p99s);
		json.write();
	}

	/** Kafka consumer scaling over 1, 3, 5 and 7 partitions, one consumer thread per partition. */
	void partitions() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		long count = this.quick ? 400_000 : 2_000_000;
		List<Integer> partitions = List.of(1, 3, 5, 7);
		List<Figure> consumers = new ArrayList<>();
		SuiteJson json = new SuiteJson(this.bench, "partitions", "Kafka consumer scaling over partitions")
			.note("load-generator --messageCount=" + count + " --messageSize=1000 | throughput over Kafka (raw records, "
					+ "batch.size 128000), the sink with one consumer thread per partition; producer rate from the "
					+ "first message until the broker had acknowledged the last (the topic's end offsets), consumer "
					+ "rate in steady state (from a third of the messages). Producer, consumers and broker share the "
					+ "machine's " + Runtime.getRuntime().availableProcessors() + " CPUs.")
			.columns("partitions", "producer msg/s", "consumer msg/s");
		try (Singlenode singlenode = start("partitions", Bench.serverJavaOptions(), "--transport", "kafka",
				"--xd.messagebus.kafka.brokers=" + Bench.BROKER, "--xd.messagebus.kafka.mode=raw",
				"--xd.messagebus.kafka.default.batchSize=128000"); KafkaOffsets offsets = offsets()) {
			for (int p : partitions) {
				this.bench.progress("partitions: " + p + " partition(s), " + p + " consumer thread(s), " + count
						+ " messages of 1000 bytes");
				StreamRun.Result result = stream(singlenode, offsets, "part" + p,
						"load-generator --messageCount=" + count + " --messageSize=1000 | throughput --reportEveryMs=500",
						"module.throughput.consumer.concurrency=" + p + ",module.throughput.consumer.minPartitionCount="
								+ p, count, POLL, false);
				Figure consumer = result.steadySinkRate();
				json.row(p, result.producerRate(), consumer);
				consumers.add(consumer);
			}
		}
		json.chart("Consumer rate by partition count", "bar", "partitions", "msg/s", false)
			.series("consumer", partitions, consumers);
		json.write();
	}

	/** Heap and resident memory of a Kafka singlenode idle, then at 1 000 msg/s of 8 KB. */
	void footprint() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		int seconds = this.quick ? 15 : 60;
		Figure[] idle;
		Figure[] busy;
		// a heap that grows as needed, so that heap and resident memory show what XD uses, not a pre-touched reserve
		try (Singlenode singlenode = start("footprint", List.of("-Xmx512m"), KAFKA)) {
			Thread.sleep(5000);
			idle = footprint(singlenode);
			this.bench.progress("footprint: idle RSS " + idle[0].format("%.1f") + " MiB, heap " + idle[1].format("%.1f")
					+ " MiB; now 1 000 msg/s of 8 KB for " + seconds + "s");
			String name = "foot" + this.bench.runId();
			singlenode.createStream(name, timedLoad(1000, seconds).replace("--messageSize=100", "--messageSize=8192")
					+ " | throughput --reportEveryMs=5000");
			singlenode.deployStream(name, "");
			Thread.sleep((seconds - 2) * 1000L);
			busy = footprint(singlenode);
			singlenode.destroyStream(name);
		}
		SuiteJson json = new SuiteJson(this.bench, "footprint", "Footprint of a singlenode on Kafka")
			.note("Singlenode (admin, container, embedded ZooKeeper) with the Kafka transport, JVM -Xmx512m and no "
					+ "pre-touch; resident set from /proc, heap used from Actuator's jvm.memory.used (area heap).")
			.note("Busy: load-generator --rate=1000 --messageSize=8192 | throughput for " + seconds + "s, measured 2 s "
					+ "before the end.")
			.columns("state", "resident MiB", "heap used MiB")
			.row("idle", idle[0], idle[1])
			.row("1 000 msg/s of 8 KB", busy[0], busy[1]);
		json.chart("Memory, idle and busy", "bar", "state", "MiB", false)
			.series("resident", List.of("idle", "busy"), List.of(idle[0], busy[0]))
			.series("heap used", List.of("idle", "busy"), List.of(idle[1], busy[1]));
		json.write();
	}

	/** Resident MiB from {@code /proc/<pid>/status} and heap used MiB from Actuator. */
	private static Figure[] footprint(Singlenode singlenode) throws IOException, InterruptedException {
		Figure rss = Figure.na("no VmRSS in /proc/" + singlenode.pid() + "/status");
		Path status = Path.of("/proc", Long.toString(singlenode.pid()), "status");
		if (Files.isReadable(status)) {
			for (String line : Files.readAllLines(status)) {
				if (line.startsWith("VmRSS:")) {
					rss = Figure.of(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0);
				}
			}
		}
		Double heap = singlenode.metric("jvm.memory.used", Map.of("area", "heap"));
		return new Figure[] { rss,
				heap != null ? Figure.of(heap / (1024.0 * 1024.0)) : Figure.na("no jvm.memory.used metric") };
	}

	private static String timedLoad(int rate, int seconds) {
		return "load-generator --rate=" + rate + " --duration=" + seconds + "s --messageSize=100 --generateTimestamp=true";
	}

	private Singlenode start(String name, List<String> javaOptions, String... args)
			throws IOException, InterruptedException {
		return Singlenode.start(this.bench, this.work, name, javaOptions, args);
	}

	private static KafkaOffsets offsets() {
		return new KafkaOffsets(Bench.BROKER);
	}

	/** Runs one stream; {@code offsets} only where a producer rate to the broker's acknowledgement is reported. */
	private StreamRun.Result stream(Singlenode singlenode, KafkaOffsets offsets, String name, String definition,
			String properties, long count, Duration poll, boolean latency) throws IOException, InterruptedException {
		return new StreamRun(name + this.bench.runId(), definition, properties, count, poll).run(singlenode, offsets,
				latency, message -> this.bench.progress(message.strip()));
	}
}
