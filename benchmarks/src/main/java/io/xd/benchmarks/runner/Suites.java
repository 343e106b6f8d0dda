package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The suites of {@code bin/xd-bench} other than {@code kafka} ({@link KafkaBench}), {@code footprint}
 * ({@link FootprintSuite}) and {@code contention} ({@link ContentionSuite}): each starts its own singlenode servers,
 * runs its streams through the REST API, reads the module meters and writes {@code <suite>.json}.
 */
final class Suites {

	static final String[] KAFKA = { "--transport", "kafka", "--xd.messagebus.kafka.brokers=" + Bench.BROKER };

	private static final Duration FAST_POLL = Duration.ofMillis(50);

	private static final Duration POLL = Duration.ofMillis(100);

	private final Bench bench;

	private final Servers servers;

	private final boolean quick;

	private final Path work;

	private int tuningQueues;

	Suites(Bench bench, Servers servers, Path work) {
		this.bench = bench;
		this.servers = servers;
		this.quick = servers.quick();
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
		try (Servers.Lease lease = this.servers.local("direct")) {
			Singlenode singlenode = lease.singlenode();
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

	/**
	 * End-to-end latency at 1 000, 10 000 and 100 000 msg/s over the local bus and over Kafka, each rate in a fresh
	 * singlenode: cold (the first stream of the JVM) and warm (a second stream deployed right after, its broker
	 * connections open), and over Kafka also settled (a third stream after a minute at that rate, once the JIT
	 * compilers of both XD and the broker have done their work), each over the whole run, first second included;
	 * beside Kafka's own producer acknowledgement latency at the same rate ({@code bin/kafka-ack-latency}). Under
	 * {@code --quick}: 3 s runs, every rate in the run's shared singlenode of each bus, cold only as the first stream
	 * of a singlenode started for this suite, no settled runs.
	 */
	void latency() throws IOException, InterruptedException {
		int seconds = this.quick ? 3 : 30;
		int settling = 60;
		List<Integer> rates = List.of(1000, 10_000, 100_000);
		SuiteJson json = new SuiteJson(this.bench, "latency",
				"End-to-end latency at fixed rates, cold, warm and settled")
			.note("load-generator --rate=R --duration=" + seconds + "s --messageSize=100 --generateTimestamp=true | "
					+ "throughput --latency=true; each message carries the time it was due, so a stall counts in full "
					+ "(no coordinated omission). Every figure covers the whole run, its first second included.")
			.note(this.quick ? "--quick: each bus's rates in the singlenode this run shares between suites (the local "
					+ "bus's ran the direct suite first); cold: the first stream of that singlenode, only when it was "
					+ "started for this suite (then at the first rate); warm: a stream at each rate after that; no "
					+ "settled runs (the full run has them: a stream after a minute at its rate). Each on its own new "
					+ "topic. local: direct binding in one JVM; kafka: a 1-partition topic on the local broker, "
					+ "linger.ms=1 (the bus's batchTimeout), acks=1."
					: "cold: the first stream of a fresh singlenode; warm: a second stream, deployed right after in "
					+ "that singlenode (broker connections open); settled (Kafka): a third stream, after " + settling
					+ " s more at the same rate (not measured), by when the JIT compilers of XD and of the broker "
					+ "have stopped competing with them for the 2 vCPUs; each on its own new topic. local: direct "
					+ "binding in one JVM; kafka: a 1-partition topic on the local broker, linger.ms=1 (the bus's "
					+ "batchTimeout), acks=1.")
			.note("kafka producer ack: Kafka's ProducerPerformance at the same rate and size on a 1-partition topic "
					+ "(bin/kafka-ack-latency), send() to acknowledgement; cold = its whole run from a fresh JVM, "
					+ "warm = after its first second. Its percentiles are whole milliseconds.")
			.note("Achieved: messages delivered from the source's first message to the sink's last (module meters). "
					+ "Latencies in microseconds, from the throughput sink's HdrHistogram over every message.")
			.columns("transport", "run", "rate (msg/s)", "achieved msg/s", "p50 us", "p95 us", "p99 us", "p99.9 us",
					"max us");
		SuiteJson.Chart chart = json.chart("p99 latency over the whole run, by rate", "line", "rate (msg/s)",
				"p99 (us)", true);
		for (String transport : List.of("local", "kafka")) {
			boolean kafka = transport.equals("kafka");
			Map<String, List<Integer>> p99Rates = new LinkedHashMap<>();
			Map<String, List<Figure>> p99 = new LinkedHashMap<>();
			for (int rate : rates) {
				String name = "latency-" + transport + "-" + rate;
				try (Servers.Lease lease = kafka ? this.servers.kafka(name) : this.servers.local(name)) {
					Singlenode singlenode = lease.singlenode();
					List<String> runs = new ArrayList<>();
					if (lease.fresh()) {
						runs.add("cold");
					}
					runs.add("warm");
					if (kafka && !this.quick) {
						runs.add("settled");
					}
					for (String run : runs) {
						if (run.equals("settled")) {
							this.bench.progress("latency: " + transport + " bus, " + settling + " s at " + rate
									+ " msg/s before the settled run (not measured)");
							stream(singlenode, null, "lat" + transport + rate + "settling", timedLoad(rate, settling)
									+ " | throughput --latency=true --reportEveryMs=500", "", 0, POLL, true);
						}
						this.bench.progress("latency: " + transport + " bus, " + run + ", " + rate + " msg/s for "
								+ seconds + "s");
						StreamRun.Result result = stream(singlenode, null, "lat" + transport + rate + run,
								timedLoad(rate, seconds) + " | throughput --latency=true --reportEveryMs=500", "", 0,
								POLL, true);
						Map<String, Figure> latency = result.latency();
						List<Object> row = new ArrayList<>(List.of(transport, run, rate, result.deliveredRate()));
						row.addAll(latency.values());
						json.row(row.toArray());
						p99Rates.computeIfAbsent(transport + " " + run, key -> new ArrayList<>()).add(rate);
						p99.computeIfAbsent(transport + " " + run, key -> new ArrayList<>()).add(latency.get("p99"));
					}
				}
			}
			if (kafka) {
				// a topic per rate, this run's (deleted at its end with the streams' topics)
				try (KafkaOffsets offsets = offsets()) {
					for (int rate : rates) {
						offsets.createTopic(ackLatencyTopic(rate), 1);
					}
				}
				for (int rate : rates) {
					this.bench.progress("latency: Kafka's producer alone (ProducerPerformance), " + rate + " msg/s for "
							+ seconds + "s");
					AckLatency ack = AckLatency.measure(this.bench, ackLatencyTopic(rate), rate, seconds);
					for (String run : List.of("cold", "warm")) {
						Map<String, Figure> latency = ack.percentiles(run);
						List<Object> row = new ArrayList<>(List.of("kafka producer ack", run, rate, ack.rate(run)));
						row.addAll(latency.values());
						json.row(row.toArray());
						p99Rates.computeIfAbsent("kafka producer ack " + run, key -> new ArrayList<>()).add(rate);
						p99.computeIfAbsent("kafka producer ack " + run, key -> new ArrayList<>())
							.add(latency.get("p99"));
					}
				}
			}
			p99.forEach((series, figures) -> chart.series(series, p99Rates.get(series), figures));
		}
		json.write();
	}

	/**
	 * The highest rate a Kafka stream sustains with p99 under 250 ms, rates doubling from 10 000 msg/s (under
	 * {@code --quick} quadrupling).
	 */
	void saturation() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		int seconds = this.quick ? 3 : 10;
		int factor = this.quick ? 4 : 2;
		double boundMicros = 250_000;
		List<Integer> offered = new ArrayList<>();
		List<Figure> achieved = new ArrayList<>();
		List<Figure> p99s = new ArrayList<>();
		SuiteJson json = new SuiteJson(this.bench, "saturation",
				"Saturation: the highest rate sustained with p99 under 250 ms (Kafka)")
			.note("Rates " + (factor == 2 ? "double" : "quadruple (--quick)") + " from 10 000 msg/s, " + seconds
					+ "s each, 100-byte messages over a 1-partition Kafka topic, until the stream falls below 95% of the "
					+ "offered rate or its p99 latency exceeds 250 ms "
					+ "(short runs include the client warm-up in their tail). Achieved: messages delivered from the "
					+ "source's first message to the sink's last.")
			.columns("offered msg/s", "achieved msg/s", "p99 us");
		Integer best = null;
		try (Servers.Lease lease = this.servers.kafka("saturation")) {
			Singlenode singlenode = lease.singlenode();
			for (int rate = 10_000; rate <= 2_560_000; rate *= factor) {
				this.bench.progress("saturation: Kafka, offering " + rate + " msg/s for " + seconds + "s");
				StreamRun.Result result = stream(singlenode, null, "sat" + rate,
						timedLoad(rate, seconds) + " | throughput --latency=true --reportEveryMs=500", "", 0, POLL, true);
				Figure rateAchieved = result.deliveredRate();
				Figure p99 = result.latency().get("p99");
				json.row(rate, rateAchieved, p99);
				offered.add(rate);
				achieved.add(rateAchieved);
				p99s.add(p99);
				boolean sustained = Rates.sustains(rate, rateAchieved, p99, boundMicros);
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
		long count = this.quick ? 200_000 : 2_000_000;
		List<Integer> partitions = List.of(1, 3, 5, 7);
		List<Figure> consumers = new ArrayList<>();
		SuiteJson json = new SuiteJson(this.bench, "partitions", "Kafka consumer scaling over partitions")
			.note("load-generator --messageCount=" + count + " --messageSize=1000 | throughput over Kafka ("
					+ (this.quick ? "records with headers, the bus's default: --quick runs it in the singlenode of the "
							+ "other Kafka suites" : "raw records") + ", batch.size 128000, acks=1), the sink with one consumer "
					+ "thread per partition; producer rate from the "
					+ "first message until the broker had acknowledged the last (the topic's end offsets), consumer "
					+ "rate in steady state (from a third of the messages). Producer, consumers and broker share the "
					+ "machine's " + Runtime.getRuntime().availableProcessors() + " CPUs.")
			.columns("partitions", "producer msg/s", "consumer msg/s");
		// the kafka suite's singlenode settings; under --quick the run's shared Kafka singlenode
		try (Servers.Lease lease = this.servers.raw("partitions"); KafkaOffsets offsets = offsets()) {
			Singlenode singlenode = lease.singlenode();
			for (int p : partitions) {
				this.bench.progress("partitions: " + p + " partition(s), " + p + " consumer thread(s), " + count
						+ " messages of 1000 bytes");
				StreamRun.Result result = stream(singlenode, offsets, "part" + p,
						"load-generator --messageCount=" + count + " --messageSize=1000 | throughput --reportEveryMs=500",
						"module.throughput.consumer.concurrency=" + p + ",module.throughput.consumer.minPartitionCount="
								+ p + ",module.load-generator.producer.minPartitionCount=" + p
								+ ",module.load-generator.producer.batchSize=128000", count, POLL, false);
				Figure consumer = result.steadySinkRate();
				json.row(p, result.producerRate(), consumer);
				consumers.add(consumer);
			}
		}
		json.chart("Consumer rate by partition count", "bar", "partitions", "msg/s", false)
			.series("consumer", partitions, consumers);
		json.write();
	}

	/**
	 * Consumer tuning at 512 B (the IBM seed's test): {@code fetchSize} ({@code max.partition.fetch.bytes}) and the
	 * socket receive buffer ({@code receive.buffer.bytes}), three values each, every pair draining a topic filled
	 * beforehand, so that the consumer alone sets the pace.
	 */
	void tuning() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		long count = this.quick ? 300_000 : 1_000_000;
		int rounds = this.quick ? 1 : 3;
		List<String> fetchSizes = List.of("1MB", "2MB", "4MB");
		// -1 leaves the buffer to the kernel's autotuning; 64KB is Kafka's own default; 2MB is XD's (Spring XD's)
		List<String> buffers = List.of("-1", "65536", "2097152");
		SuiteJson json = new SuiteJson(this.bench, "tuning", "Consumer tuning: fetch size and socket receive buffer")
			.note("For each pair, load-generator --messageCount=" + count + " --messageSize=512 > queue:<q> fills a "
					+ "1-partition topic first (until its end offset says so), then queue:<q> > throughput drains it "
					+ "with module.throughput.consumer.fetchSize=F and module.throughput.consumer.receive.buffer.bytes=B; "
					+ "the rate is the sink's, from a third of the messages on. One warm-up drain, then " + rounds
					+ (this.quick ? " round (--quick; the full run has three)" : " rounds") + " over all nine pairs; each "
					+ "figure is the median of its rounds. IBM's seed: doubling "
					+ "max.partition.fetch.bytes from 1 MB gave +10%, again +5%; a larger receive buffer very little.")
			.note("Linux caps an explicit receive buffer at net.core.rmem_max (" + rmemMax() + " bytes here, doubled by "
					+ "the kernel) and turns off its autotuning for that socket; -1 keeps autotuning.")
			.columns("fetchSize", "receive.buffer.bytes", "consumer msg/s (median)", "consumer MB/s", "rounds (msg/s)");
		Map<String, List<Double>> measured = new LinkedHashMap<>();
		boolean warmedUp;
		try (Servers.Lease lease = this.servers.kafka("tuning"); KafkaOffsets offsets = offsets()) {
			Singlenode singlenode = lease.singlenode();
			// a singlenode that earlier suites of a --quick run warmed needs no warm-up drain
			warmedUp = lease.fresh();
			if (warmedUp) {
				drain(singlenode, offsets, "warm-up", count, "1MB", "-1");
			}
			for (int round = 1; round <= rounds; round++) {
				for (String buffer : buffers) {
					for (String fetchSize : fetchSizes) {
						Figure rate = drain(singlenode, offsets, "round " + round + "/" + rounds, count, fetchSize,
								buffer);
						measured.computeIfAbsent(fetchSize + " " + buffer, key -> new ArrayList<>())
							.add(rate.isPresent() ? rate.get() : Double.NaN);
					}
				}
			}
		}
		if (!warmedUp) {
			json.note("No warm-up drain: the singlenode, shared by the suites of this --quick run, had run earlier "
					+ "suites' streams.");
		}
		SuiteJson.Chart chart = json.chart("Consumer rate by fetch size, per receive buffer (median)", "bar",
				"fetchSize", "msg/s", false);
		for (String buffer : buffers) {
			List<Figure> medians = new ArrayList<>();
			for (String fetchSize : fetchSizes) {
				List<Double> rates = measured.get(fetchSize + " " + buffer);
				Figure median = median(rates);
				json.row(fetchSize, buffer, median, median.times(512 / (1024.0 * 1024.0)), rounds(rates));
				medians.add(median);
			}
			chart.series("receive.buffer.bytes " + buffer, fetchSizes, medians);
		}
		json.write();
	}

	/** Fills a fresh queue with {@code count} records of 512 B and drains it with one consumer setting. */
	private Figure drain(Singlenode singlenode, KafkaOffsets offsets, String what, long count, String fetchSize,
			String buffer) throws IOException, InterruptedException {
		String queue = "tune" + this.bench.runId() + "n" + (++this.tuningQueues);
		fill(singlenode, offsets, queue, count);
		Figure rate = stream(singlenode, null, queue + "d", "queue:" + queue + " > throughput --reportEveryMs=500",
				"module.throughput.consumer.fetchSize=" + fetchSize + ",module.throughput.consumer.receive.buffer.bytes="
						+ buffer, count, FAST_POLL, false).steadySinkRate();
		this.bench.progress("tuning, " + what + ": fetchSize " + fetchSize + ", receive.buffer.bytes " + buffer + ": "
				+ rate.format("%.0f") + " msg/s");
		return rate;
	}

	/** The median of rounds' rates, a round without a rate ({@code NaN}) left out; n/a when none has one. */
	static Figure median(List<Double> values) {
		List<Double> sorted = values.stream().filter(value -> !value.isNaN()).sorted().toList();
		if (sorted.isEmpty()) {
			return Figure.na("no round measured a rate");
		}
		int middle = sorted.size() / 2;
		return Figure.of((sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2);
	}

	/** Sends {@code count} records of 512 B to {@code queue:<queue>} and waits until the broker has them all. */
	private void fill(Singlenode singlenode, KafkaOffsets offsets, String queue, long count)
			throws IOException, InterruptedException {
		fill(singlenode, offsets, queue, count, 512);
	}

	/** Sends {@code count} records of {@code size} bytes to {@code queue:<queue>}; waits until the broker has them. */
	private void fill(Singlenode singlenode, KafkaOffsets offsets, String queue, long count, int size)
			throws IOException, InterruptedException {
		String name = queue + "f";
		singlenode.createStream(name, "load-generator --messageCount=" + count + " --messageSize=" + size + " > queue:"
				+ queue);
		singlenode.deployStream(name, "");
		// the bus's topic for queue:<name> (':' escaped as _3A, see KafkaTopicProvisioner)
		String topic = "queue_3A" + queue;
		long deadline = System.nanoTime() + Duration.ofSeconds(600).toNanos();
		while (offsets.endOffsets(topic) < count) {
			if (System.nanoTime() > deadline || !singlenode.isAlive()) {
				throw new IOException("queue:" + queue + " did not fill; the end of the singlenode's log:\n"
						+ singlenode.tail(20));
			}
			Thread.sleep(POLL.toMillis());
		}
		singlenode.destroyStream(name);
	}

	private static String rmemMax() {
		try {
			return Files.readString(Path.of("/proc/sys/net/core/rmem_max")).strip();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	static String timedLoad(int rate, int seconds) {
		return "load-generator --rate=" + rate + " --duration=" + seconds + "s --messageSize=100 --generateTimestamp=true";
	}

	/** The topic of Kafka's producer alone at {@code rate} in the latency suite, this run's. */
	private String ackLatencyTopic(int rate) {
		return "ackLatency" + rate + this.bench.runId();
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

	/**
	 * The cost of exactly-once hops beside at-least-once at 100, 1 000 and 10 000 B: {@code queue:<q> > bridge |
	 * throughput} drains a topic filled beforehand, the bridge at-least-once (the bus default) or transactional
	 * ({@code module.bridge.consumer.transactional=true}), the two modes alternating in one singlenode.
	 */
	void exactlyOnce() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		int rounds = this.quick ? 1 : 4;
		List<Integer> sizes = List.of(100, 1000, 10_000);
		// 5-20 s per drain here: the larger records go through the bridge's producer in 16 KB batches (batchSize)
		Map<Integer, Long> counts = this.quick ? Map.of(100, 300_000L, 1000, 100_000L, 10_000, 10_000L)
				: Map.of(100, 1_000_000L, 1000, 300_000L, 10_000, 40_000L);
		List<String> modes = List.of("at-least-once", "exactly-once");
		SuiteJson json = new SuiteJson(this.bench, "exactly-once", "Exactly-once cost: transactional hops beside "
				+ "at-least-once")
			.note("For each size S and mode, load-generator --messageCount=M --messageSize=S > queue:<q> fills a "
					+ "1-partition topic first (until its end offset says so), then queue:<q> > bridge | throughput "
					+ "drains it: the bridge's hop at-least-once (offsets committed once the sends they follow are "
					+ "acknowledged, every commitInterval (100 ms) while there is a backlog; producer acks=1 to a "
					+ "topic of one replica) or exactly-once (module.bridge.consumer.transactional=true: forwarded "
					+ "records and their offsets committed together in Kafka transactions that span polls for up to "
					+ "commitInterval, one committing while the next takes records; polls of up to 2 000 records "
					+ "rather than 500, producer acks=all with idempotence); the throughput sink "
					+ "reads read_committed either way. The rate is the sink's, from a third of the messages on. One "
					+ "warm-up drain per mode (under --quick at-least-once has none in a singlenode earlier suites "
					+ "warmed), then " + rounds + (this.quick ? " round (--quick), the two modes alternating (which goes "
					+ "first alternates by size)" : " rounds, the two modes alternating (which goes first alternates by "
					+ "round)") + "; each figure is the median of its rounds. M: " + counts.get(100) + ", "
					+ counts.get(1000) + ", " + counts.get(10_000) + " at 100, 1 000, 10 000 B.")
			.note("IBM Streams' consistent region (checkpointing) cost 10% of throughput at 100 B in its seed.")
			.columns("size (bytes)", "at-least-once msg/s", "exactly-once msg/s", "exactly-once / at-least-once",
					"at-least-once rounds (msg/s)", "exactly-once rounds (msg/s)");
		Map<String, List<Double>> measured = new LinkedHashMap<>();
		int[] queues = { 0 };
		try (Servers.Lease lease = this.servers.kafka("exactly-once"); KafkaOffsets offsets = offsets()) {
			Singlenode singlenode = lease.singlenode();
			// exactly-once is new to any singlenode; at-least-once hops are not to one earlier suites warmed
			for (String mode : lease.fresh() ? modes : modes.subList(1, 2)) {
				exactlyOnceDrain(singlenode, offsets, "warm-up", "eos" + (++queues[0]), 100, counts.get(100) / 3, mode);
			}
			for (int round = 1; round <= rounds; round++) {
				for (int size : sizes) {
					int turn = this.quick ? sizes.indexOf(size) : round - 1;
					List<String> order = (turn % 2 == 0) ? modes : List.of(modes.get(1), modes.get(0));
					for (String mode : order) {
						Figure rate = exactlyOnceDrain(singlenode, offsets, "round " + round + "/" + rounds,
								"eos" + (++queues[0]), size, counts.get(size), mode);
						measured.computeIfAbsent(mode + " " + size, key -> new ArrayList<>())
							.add(rate.isPresent() ? rate.get() : Double.NaN);
					}
				}
			}
		}
		List<List<Figure>> medians = List.of(new ArrayList<>(), new ArrayList<>());
		for (int size : sizes) {
			Figure atLeastOnce = median(measured.get(modes.get(0) + " " + size));
			Figure exactlyOnce = median(measured.get(modes.get(1) + " " + size));
			Figure ratio = (atLeastOnce.isPresent() && exactlyOnce.isPresent())
					? Figure.of(exactlyOnce.get() / atLeastOnce.get()) : Figure.na("a mode measured no rate");
			json.row(size, atLeastOnce, exactlyOnce, SuiteJson.rounded(ratio, 2),
					rounds(measured.get(modes.get(0) + " " + size)), rounds(measured.get(modes.get(1) + " " + size)));
			medians.get(0).add(atLeastOnce);
			medians.get(1).add(exactlyOnce);
		}
		json.chart("Kafka hop throughput, at-least-once and exactly-once (median)", "bar", "message size (bytes)",
				"msg/s", true)
			.series(modes.get(0), sizes, medians.get(0))
			.series(modes.get(1), sizes, medians.get(1));
		json.write();
	}

	/** Fills a fresh queue with {@code count} records of {@code size} bytes and drains it through a bridge. */
	private Figure exactlyOnceDrain(Singlenode singlenode, KafkaOffsets offsets, String what, String queue, int size,
			long count, String mode) throws IOException, InterruptedException {
		String name = queue + this.bench.runId();
		fill(singlenode, offsets, name, count, size);
		Figure rate = stream(singlenode, null, name + "d", "queue:" + name + " > bridge | throughput "
				+ "--reportEveryMs=500", "module.bridge.consumer.transactional=" + mode.equals("exactly-once"), count,
				FAST_POLL, false).steadySinkRate();
		this.bench.progress("exactly-once, " + what + ": " + size + " B, " + mode + ": " + rate.format("%.0f")
				+ " msg/s");
		return rate;
	}

	/** Rounds' rates as text, {@code 123, 456, n/a}. */
	static String rounds(List<Double> rates) {
		return rates.stream().map(rate -> rate.isNaN() ? "n/a" : String.format("%.0f", rate))
			.collect(Collectors.joining(", "));
	}
}
