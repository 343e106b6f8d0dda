package io.xd.benchmarks.runner;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.xd.benchmarks.BenchReport;

/**
 * XD's end-to-end benchmark runner, {@code bin/xd-bench [--quick] [SUITE ...]}: the seeds' measurements, each
 * through a real singlenode deployment driven over the REST API, with results read from the module meters; then
 * {@link BenchReport} renders every suite's JSON as {@code target/bench/report.html}.
 */
public final class BenchRunner {

	private static final String USAGE = """
			Usage: bin/xd-bench [--quick] [--seed N] [--duration D] [--brokers 1|3] [SUITE ...]

			Suites (default: these, in this order); in brackets each one's time under --quick on 2 vCPUs (2026-11-28),
			then what --quick measures less than the full run:
			  direct      (13 s) direct binding, load-generator | throughput at 100 B to 100 KB, beside Spring XD's
			              published figure. --quick: 5 GB per size, not 50 GB
			  kafka       (55 s) XD over Kafka beside Kafka's own ProducerPerformance/ConsumerPerformance (as
			              bin/kafka-bench). --quick: 100 B and 1 000 B only, 500 000 and 150 000 records; XD with
			              headers (the bus's default) in the shared Kafka singlenode, not raw records in its own
			  latency     (37 s) end-to-end latency percentiles at 1 000, 10 000 and 100 000 msg/s, local bus and Kafka
			              (paced load-generator, free of coordinated omission; HdrHistogram in the throughput sink), cold,
			              warm and settled, beside Kafka's producer alone. --quick: 3 s runs, not 30 s; each bus's rates in
			              one singlenode, so cold only at the first rate of a singlenode started for it; no settled runs
			  saturation  (14 s) the highest rate a Kafka stream sustains with its p99 latency under 250 ms, rates
			              doubling. --quick: rates quadrupling, 3 s each, not 10 s
			  partitions  (15 s) Kafka consumer scaling over 1, 3, 5 and 7 partitions (one consumer thread per
			              partition). --quick: 200 000 messages, not 2 000 000; in the shared Kafka singlenode (headers)
			  tuning      (21 s) Kafka consumer fetch size and socket receive buffer, three values each, at 512 B
			              (IBM's test), medians of three rounds. --quick: one round of 300 000 records, not three of 1 000 000
			  footprint   (38 s) heap and resident memory of a Kafka container process idle, then at 1 000 msg/s
			              of 8 KB. --quick: idle 3 s, busy 8 s, not 5 s and 60 s
			  exactly-once  (21 s) a Kafka hop's throughput with transactions (exactly once) beside
			              at-least-once, 100 B to 10 KB. --quick: one round, not four, of about a third of the records
			  contention  (35 s) broker, XD and PostgreSQL on one machine: stepped rates with a jdbc sink beside
			              and without, CPU shares. --quick: 1 000, 10 000 and 100 000 msg/s, not nine rates from 200; 3 s
			              steps, not 20 s
			With --quick, direct and latency's local bus share one singlenode, and kafka, latency's Kafka half,
			saturation, partitions, tuning, exactly-once and contention share another (warm-ups they would repeat
			left out).

			Suites run only when named (even --quick, they would take the default run past its 5 minutes):
			  peer        one Kafka hop through XD (bridge; transform --expression=payload.toUpperCase()) beside the same
			              hop as a Kafka Streams topology, at-least-once and exactly-once, 100 B and 1 000 B, the first
			              stream of a fresh JVM, a settling one in the other mode, then four later ones (two per mode,
			              side by side), the two alternating: 1 and 3 partitions, 2 000 000 records of 100 B and 600 000
			              of 1 000 B, 2 rounds after a warm-up run of the first case per side and mode (not measured),
			              each figure the median of its measurements (about 55 minutes on 2 vCPUs); --quick: 1
			              partition, 200 000 and 60 000 records, one round, no warm-up (about 5 minutes)
			  chaos       faults together for --duration (default 10m; --quick 2m): a cluster of its own (ZooKeeper, one
			              or three Kafka brokers, two admins, three containers, each a process), one stream per delivery
			              mode (at-least-once, noLoss, exactly-once) carrying sequence numbers, and a fault every 4-9 s drawn
			              from --seed (default random, printed): SIGKILL, SIGTERM and SIGSTOP/SIGCONT of containers, of
			              the leading admin, of a broker and of ZooKeeper, a container cut off from ZooKeeper (not Kafka),
			              a broker's full disk (a tmpfs; skipped, and said, where mount is refused); then recovery and the whole history checked. Exit status 1 on any loss, any duplicate under exactly-once, or two
			              instances of one module at once. About 3.5 minutes with --quick, 13 without.

			--seed N      the chaos suite's fault schedule (the same seed and duration give the same schedule)
			--duration D  how long the chaos suite injects faults: 90s, 10m, 1h
			--brokers N   the chaos suite's Kafka brokers: 1 (default) or 3 (topics of 3 replicas, min.insync.replicas 2;
			              broker faults hit one broker at a time)
			--rounds N    the peer suite's rounds (default 2, 1 with --quick); each figure is the median of its rounds

			--quick runs every default suite briefly: 4 min 13 s and 4 min 14 s on 2 vCPUs on 2026-11-28 (12 min 12 s before it was cut);
			without it every suite runs full length, for the figures to quote.
			Results: target/bench/<suite>.json, and target/bench/report.html with charts (also <suite>-<n>.svg).
			Starts bin/kafka-local for the Kafka suites if no broker answers on 127.0.0.1:9092, and stops it at the end.""";

	private BenchRunner() {
	}

	public static void main(String[] args) {
		Bench.main("xd-bench", USAGE, args, BenchOptions::xdBench, BenchOptions.XdBench::help, BenchRunner::run);
	}

	private static void run(Bench bench, BenchOptions.XdBench options) throws Exception {
		Path work = bench.freshDirectory("xd-bench");
		List<String> failures = new ArrayList<>();
		try (Servers servers = new Servers(bench, options.quick(), work)) {
			Suites suites = new Suites(bench, servers, work);
			for (String suite : options.suites()) {
				long started = bench.seconds();
				switch (suite) {
					case "direct" -> suites.direct();
					case "kafka" -> kafka(bench, servers, options.quick());
					case "latency" -> suites.latency();
					case "saturation" -> suites.saturation();
					case "partitions" -> suites.partitions();
					case "tuning" -> suites.tuning();
					case "footprint" -> new FootprintSuite(bench, options.quick(), work).run();
					case "exactly-once" -> suites.exactlyOnce();
					case "contention" -> new ContentionSuite(bench, servers, work).run();
					case "peer" -> new PeerSuite(bench, options.quick(), work, options.rounds()).run();
					case "chaos" -> failures.addAll(new ChaosSuite(bench, options.quick(),
							bench.freshDirectory("chaos"), options.seed(), options.duration(), options.brokers()).run());
					default -> throw new IllegalStateException("no suite " + suite);
				}
				bench.progress(suite + ": done in " + (bench.seconds() - started) + " s");
			}
		}
		bench.progress("writing the report");
		Path out = bench.out();
		System.setOut(System.err);
		BenchReport.main(new String[] { out.toString(), "--out", out.resolve("report.html").toString() });
		bench.progress("done: target/bench/report.html, target/bench/*.json");
		if (!failures.isEmpty()) {
			throw new IllegalStateException("FAILED: " + String.join("; ", failures));
		}
	}

	private static void kafka(Bench bench, Servers servers, boolean quick) throws Exception {
		String records = quick ? BenchOptions.QUICK_KAFKA_RECORDS : "";
		List<Integer> sizes = quick ? BenchOptions.QUICK_KAFKA_SIZES : BenchOptions.KAFKA_SIZES;
		bench.progress("kafka: native tools and XD alternating (as bin/kafka-bench --sizes "
				+ sizes.stream().map(String::valueOf).collect(Collectors.joining(",")) + " --records "
				+ (records.isEmpty() ? "<defaults>" : records) + ")");
		BenchOptions.KafkaBench options = new BenchOptions.KafkaBench(sizes, BenchOptions.records(records), 1, false);
		new KafkaBench(bench, options).run(System.err, servers, "kafka", bench.freshDirectory("kafka-xd"));
	}
}
