package io.xd.benchmarks.runner;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.AppInfoParser;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code peer} suite: one Kafka hop through XD ({@code queue:in > bridge > queue:out}, and {@code transform
 * --expression=payload.toUpperCase()}) beside the same hop as a Kafka Streams topology ({@link KafkaStreamsHop}),
 * each with its default settings, at-least-once and exactly-once, on topics filled beforehand. The rate is the
 * output topic's, from its first record to its last, read as a {@code read_committed} consumer would see it; start-up
 * is left out. XD and Kafka Streams alternate; each round runs each case in two fresh JVMs per side, one right
 * after the other: a first stream (or Kafka Streams instance) measured cold in one mode, a settling one in the other,
 * then two later ones in each mode ({@link Hop#stages}).
 */
final class PeerSuite {

	static final List<String> HOPS = List.of("bridge", "transform");

	static final List<String> STREAMS = List.of("first", "later");

	/**
	 * The stage of a JVM that runs its first stream in the mode other than the JVM's: measured and kept in the JSON,
	 * not in the table. In a JVM's second and third streams the Kafka clients' hot methods are still being compiled
	 * again (deoptimized at a new consumer, producer and topic) and the other mode's own paths for the first time:
	 * such a stream ramped from 200-300 k to 500-700 k msg/s at 100 B over its 3-5 s, and one JVM's streams went on
	 * speeding up until the fourth; a later stream measured there measured the JIT more than the mode.
	 */
	static final String SETTLING = "settling";

	/**
	 * Records per size, the setting: 3-10 s per hop on 2 vCPUs. Half of it left the later streams 1.5-2 s,
	 * where a pause of the JIT, the collector or the broker moved a figure by 10-20%.
	 */
	static final Map<Integer, Long> RECORDS = Map.of(100, 2_000_000L, 1000, 600_000L);

	/** Records per size under {@code --quick}: 2-5 s per hop, mostly the JIT compilers' warm-up. */
	static final Map<Integer, Long> QUICK_RECORDS = Map.of(100, 200_000L, 1000, 60_000L);

	/**
	 * For tuning experiments: a regular expression that a case must match to run, against {@code <side> <hop>
	 * <size> B <mode> <P>p}, such as {@code XD bridge 100 B at-least-once 1p} (the side {@code XD} or {@code Kafka
	 * Streams}).
	 */
	static final String ONLY = "XD_PEER_ONLY";

	/** For tuning experiments: deployment properties added to XD's stream, {@code <hop>} standing for its label. */
	static final String XD_PROPERTIES = "XD_PEER_XD_PROPERTIES";

	/**
	 * For tuning experiments: a directory where each measured stream's samples (nanoseconds, records out) go as a CSV
	 * file of their own, to see how a stream's rate moves while it runs.
	 */
	static final String SAMPLES = "XD_PEER_SAMPLES";

	/** For tuning experiments: records per size, such as {@code 100=2000000,1000=600000}. */
	static final String RECORDS_OVERRIDE = "XD_PEER_RECORDS";

	/**
	 * Rounds of the full suite, each figure the median of its rounds' measurements (per mode, one first stream and
	 * four later ones a round): one case's figure moved by 10-20% from one run to the next here (a fresh JVM per side
	 * and case, a shared machine), as much as the two modes differ. Two rounds took 53 minutes here.
	 */
	static final int ROUNDS = 2;

	private static final List<Integer> SIZES = List.of(100, 1000);

	/** The round of the warm-up's runs, in the progress lines. */
	private static final String WARM_UP = "warm-up, not measured";

	private static final Duration POLL = Duration.ofMillis(50);

	private static final long TIMEOUT_NANOS = Duration.ofSeconds(600).toNanos();

	private static final long PROGRESS_NANOS = Duration.ofSeconds(5).toNanos();

	/**
	 * What XD's own producer writes beside a {@code String} payload (KafkaRecords' payload header), so that XD's
	 * consumer hands the modules a {@code String}, as after an XD module upstream.
	 */
	private static final Header STRING_PAYLOAD = new RecordHeader("xd-payload",
			"String".getBytes(StandardCharsets.UTF_8));

	private final Bench bench;

	private final boolean quick;

	private final Path work;

	private final int rounds;

	private int topics;

	/** Whether this run began with {@link #warmUp}. */
	private boolean warmedUp;

	/** @param rounds the rounds to run, or {@code null} for {@link #ROUNDS} (one under {@code quick}) */
	PeerSuite(Bench bench, boolean quick, Path work, Integer rounds) {
		this.bench = bench;
		this.quick = quick;
		this.work = work;
		this.rounds = (rounds != null) ? rounds : quick ? 1 : ROUNDS;
	}

	void run() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		List<Integer> partitionCounts = this.quick ? List.of(1) : List.of(1, 3);
		Map<Integer, Long> records = recordsOverride(this.quick ? QUICK_RECORDS : RECORDS);
		Pattern only = Pattern.compile(System.getenv().getOrDefault(ONLY, ".*"));
		PeerTable table = new PeerTable();
		Map<String, List<Figure>> settling = new LinkedHashMap<>();
		int turn = 0;
		try (KafkaOffsets offsets = new KafkaOffsets(Bench.BROKER)) {
			if (!this.quick && !System.getenv().containsKey(ONLY)) {
				warmUp(offsets);
				this.warmedUp = true;
			}
			for (int round = 1; round <= this.rounds; round++) {
				for (int partitions : partitionCounts) {
					for (int size : SIZES) {
						for (String hop : HOPS) {
							// which side goes first alternates case by case and round by round; on each side, which
							// mode's JVM goes first alternates by round and side: whatever the one before leaves the
							// broker doing (its topics' deletion) falls on each side and mode alike
							List<String> sides = ((turn++ + round) % 2 == 0) ? List.of(PeerTable.XD, PeerTable.STREAMS)
									: List.of(PeerTable.STREAMS, PeerTable.XD);
							for (int s = 0; s < sides.size(); s++) {
								for (String mode : ((round + s) % 2 == 1) ? List.of(PeerTable.AT_LEAST_ONCE,
										PeerTable.EXACTLY_ONCE) : List.of(PeerTable.EXACTLY_ONCE,
												PeerTable.AT_LEAST_ONCE)) {
									Hop run = new Hop(sides.get(s), hop, mode, size, partitions, records.get(size),
											"round " + round + "/" + this.rounds);
									if (!only.matcher(run.key()).find()) {
										continue;
									}
									List<Figure> rates = hop(offsets, run);
									List<Stage> stages = run.stages();
									for (int i = 0; i < stages.size(); i++) {
										Stage stage = stages.get(i);
										if (stage.stream().equals(SETTLING)) {
											settling.computeIfAbsent(run.side() + " " + stage.mode() + " " + hop + " "
													+ size + " B " + partitions + "p", k -> new ArrayList<>())
												.add(rates.get(i));
										}
										else {
											table.add(new PeerTable.Case(hop, size, partitions, stage.stream()),
													run.side(), stage.mode(), rates.get(i));
										}
									}
								}
							}
						}
					}
				}
			}
		}
		write(table, settling, this.rounds, partitionCounts, records);
	}

	/**
	 * Runs the first case (bridge, 100 B, 1 partition) once per side and mode with {@link #QUICK_RECORDS}, not
	 * measured: a broker started for the run has compiled none of its produce, fetch, commit and transaction paths
	 * yet, and without this the first round's first cases would pay for that alone.
	 */
	private void warmUp(KafkaOffsets offsets) throws IOException, InterruptedException {
		for (String mode : List.of(PeerTable.AT_LEAST_ONCE, PeerTable.EXACTLY_ONCE)) {
			for (String side : List.of(PeerTable.XD, PeerTable.STREAMS)) {
				hop(offsets, new Hop(side, HOPS.get(0), mode, 100, 1, QUICK_RECORDS.get(100), WARM_UP));
			}
		}
	}

	/** The rates of a hop's {@link Hop#stages} on its side, in their order. */
	private List<Figure> hop(KafkaOffsets offsets, Hop run) throws IOException, InterruptedException {
		return run.side().equals(PeerTable.XD) ? xd(offsets, run) : streams(offsets, run);
	}

	/**
	 * One stream of a JVM: the first one or a later one, in a delivery mode.
	 *
	 * @param stream {@code first} or {@code later}, the table's {@link PeerTable.Case#stream}
	 * @param mode {@link PeerTable#AT_LEAST_ONCE} or {@link PeerTable#EXACTLY_ONCE}
	 */
	record Stage(String stream, String mode) {

		boolean exactlyOnce() {
			return this.mode.equals(PeerTable.EXACTLY_ONCE);
		}
	}

	/**
	 * One side's measurement of one case: a fresh JVM and its {@link #stages}.
	 *
	 * @param side {@link PeerTable#XD} or {@link PeerTable#STREAMS}
	 * @param hop {@code bridge} or {@code transform}
	 * @param mode {@link PeerTable#AT_LEAST_ONCE} or {@link PeerTable#EXACTLY_ONCE}: the first stream's
	 * @param size bytes per record
	 * @param partitions of the input and output topics
	 * @param records the records filled in and expected out
	 * @param round for the progress lines
	 */
	record Hop(String side, String hop, String mode, int size, int partitions, long records, String round) {

		/**
		 * The JVM's streams, one after the other: the first in the JVM's mode (A), then one in the other mode (B,
		 * {@link #SETTLING}: its first in this JVM), then four later ones, A B B A: each mode's later streams come
		 * from a JVM that has run both modes, two per mode, side by side, so that what drifts on a shared machine
		 * over a minute, and what is left of the warm-up, falls on both modes alike. The case's other JVM, right
		 * after, runs the same the other way round.
		 */
		List<Stage> stages() {
			String other = this.mode.equals(PeerTable.EXACTLY_ONCE) ? PeerTable.AT_LEAST_ONCE : PeerTable.EXACTLY_ONCE;
			String later = STREAMS.get(1);
			return List.of(new Stage(STREAMS.get(0), this.mode), new Stage(SETTLING, other),
					new Stage(later, this.mode), new Stage(later, other), new Stage(later, other),
					new Stage(later, this.mode));
		}

		/** What {@value #ONLY} is matched against, such as {@code XD bridge 100 B at-least-once 1p}. */
		String key() {
			return this.side + " " + this.hop + " " + this.size + " B " + this.mode + " " + this.partitions + "p";
		}

		String describe(Stage stage) {
			return this.hop + ", " + this.size + " B, " + this.partitions + " partition(s), " + stage.mode() + ", "
					+ this.side + " " + stage.stream() + " stream";
		}
	}

	/** What checks, every few seconds of a measurement, that the side measured still works. */
	@FunctionalInterface
	private interface Trouble {

		/** What went wrong, or {@code null}. */
		String find() throws IOException, InterruptedException;
	}

	/**
	 * A fresh singlenode over Kafka and its {@link Hop#stages}, each a stream on topics of its own, all filled before
	 * the singlenode starts (so that its streams run one right after the other), all deleted after it stops.
	 */
	private List<Figure> xd(KafkaOffsets offsets, Hop run) throws IOException, InterruptedException {
		List<Stage> stages = run.stages();
		List<String> queues = new ArrayList<>();
		for (int i = 0; i < stages.size(); i++) {
			String queue = "peer" + (++this.topics) + this.bench.runId();
			queues.add(queue);
			prepare(offsets, run, queueTopic(queue + "in"), queueTopic(queue + "out"));
		}
		writeBack();
		List<Figure> rates = new ArrayList<>();
		try (Singlenode singlenode = Singlenode.start(this.bench, this.work, "peer-xd-" + this.topics,
				Bench.serverJavaOptions(), Suites.KAFKA)) {
			for (int i = 0; i < stages.size(); i++) {
				String queue = queues.get(i);
				if (i > 0) {
					// the last stream's output, which the kernel would otherwise write back during this one
					writeBack();
				}
				singlenode.createStream(queue, "queue:" + queue + "in > " + (run.hop().equals("bridge") ? "bridge"
						: "transform --expression=payload.toUpperCase()") + " > queue:" + queue + "out");
				String properties = String.join(",", Stream.of(stages.get(i).exactlyOnce()
						? "module." + run.hop() + ".consumer.transactional=true" : "", System.getenv()
							.getOrDefault(XD_PROPERTIES, "").replace("<hop>", run.hop()))
					.filter(s -> !s.isBlank())
					.toList());
				singlenode.deployStream(queue, properties);
				// a stream that failed to deploy (a bad XD_PEER_XD_PROPERTIES) ends the case at once, not after 600 s
				Trouble trouble = () -> "failed".equals(singlenode.streamStatus(queue)) ? "stream " + queue
						+ " failed" : null;
				rates.add(measure(offsets, run, stages.get(i), queueTopic(queue + "out"), singlenode::isAlive,
						trouble, singlenode.log()));
				singlenode.destroyStream(queue);
			}
		}
		finally {
			// its queues, and the tap and dead-letter topics the bus made for them, which would outlive them
			for (String queue : queues) {
				offsets.deleteTopicsNaming(queue);
			}
		}
		return rates;
	}

	/** The bus's topic for {@code queue:<name>} (':' escaped as _3A, see KafkaTopicProvisioner). */
	private static String queueTopic(String name) {
		return "queue_3A" + name;
	}

	/**
	 * A forked JVM running {@link KafkaStreamsHop} and its {@link Hop#stages}, each an instance on topics of its own,
	 * all filled before the JVM starts, all deleted after it ends.
	 */
	private List<Figure> streams(KafkaOffsets offsets, Hop run) throws IOException, InterruptedException {
		List<Stage> stages = run.stages();
		List<String> command = new ArrayList<>();
		command.add(Bench.javaCommand());
		command.addAll(Bench.serverJavaOptions());
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), KafkaStreamsHop.class.getName(),
				Bench.BROKER, run.hop(), this.work.resolve("kafka-streams-state").toString()));
		List<String> topicNames = new ArrayList<>();
		for (Stage stage : stages) {
			String stem = "peer" + (++this.topics) + this.bench.runId();
			topicNames.add(stem + "in");
			topicNames.add(stem + "out");
			command.addAll(List.of(stage.exactlyOnce() ? "exactly_once_v2" : "at_least_once", stem + "in",
					stem + "out"));
			prepare(offsets, run, stem + "in", stem + "out");
		}
		writeBack();
		Path log = this.work.resolve("peer-streams-" + this.topics + ".log");
		Process process = new ProcessBuilder(command).directory(this.bench.home().toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		List<Figure> rates = new ArrayList<>();
		try (Writer next = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
			for (int i = 0; i < stages.size(); i++) {
				if (i > 0) {
					// the last instance's output written back, then the next instance
					writeBack();
					next.write("next\n");
					next.flush();
				}
				rates.add(measure(offsets, run, stages.get(i), topicNames.get(2 * i + 1), process::isAlive,
						() -> null, log));
			}
		}
		finally {
			// standard input closed: the last instance closes and the JVM exits
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
			// only now: an instance whose source topic vanishes fails (MissingSourceTopicException)
			offsets.deleteTopics(topicNames);
		}
		return rates;
	}

	private static Map<Integer, Long> recordsOverride(Map<Integer, Long> records) {
		String text = System.getenv(RECORDS_OVERRIDE);
		if (text == null || text.isBlank()) {
			return records;
		}
		Map<Integer, Long> chosen = new HashMap<>(records);
		for (String pair : text.split(",")) {
			String[] parts = pair.trim().split("=");
			if (parts.length != 2) {
				throw new IllegalArgumentException(RECORDS_OVERRIDE + " takes SIZE=COUNT pairs, such as "
						+ "100=2000000,1000=600000, not '" + text + "'");
			}
			chosen.put(Integer.valueOf(parts[0].trim()), Long.valueOf(parts[1].trim()));
		}
		return chosen;
	}

	/** Creates the input and output topics and fills the input with the case's records ({@link #writeBack} after). */
	private void prepare(KafkaOffsets offsets, Hop run, String in, String out) throws IOException,
			InterruptedException {
		offsets.createTopic(in, run.partitions());
		offsets.createTopic(out, run.partitions());
		fill(offsets, in, run.size(), run.records());
	}

	/**
	 * Has the kernel write the fills' records to disk now ({@code sync}), before the JVM starts: left to itself it
	 * writes them back about 30 s later (Linux's {@code dirty_expire_centisecs}), during this case's measurement or
	 * a later one, whichever side and mode that is; and, between two streams of a JVM, the last one's output. Skipped
	 * where there is no {@code sync}.
	 */
	private static void writeBack() throws InterruptedException {
		try {
			Process sync = new ProcessBuilder("sync").redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!sync.waitFor(60, TimeUnit.SECONDS)) {
				sync.destroyForcibly();
			}
		}
		catch (IOException ex) {
			// no sync command: the write-back stays the kernel's
		}
	}

	/**
	 * Writes {@code count} records of {@code size} bytes of lower-case text (so that upper-casing them is work) with
	 * this runner's own producer, and checks that the broker has them all.
	 */
	private static void fill(KafkaOffsets offsets, String topic, int size, long count) throws IOException,
			InterruptedException {
		byte[] text = new byte[size];
		for (int i = 0; i < size; i++) {
			text[i] = (byte) ('a' + i % 26);
		}
		Properties config = new Properties();
		config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Bench.BROKER);
		config.put(ProducerConfig.ACKS_CONFIG, "1");
		config.put(ProducerConfig.LINGER_MS_CONFIG, 10);
		config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
		config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
		config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
		AtomicReference<Exception> failure = new AtomicReference<>();
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
			for (long i = 0; i < count && failure.get() == null; i++) {
				producer.send(new ProducerRecord<byte[], byte[]>(topic, null, null, text, List.of(STRING_PAYLOAD)),
						(metadata, ex) -> {
							if (ex != null) {
								failure.compareAndSet(null, ex);
							}
						});
			}
			producer.flush();
		}
		long filled = offsets.endOffsets(topic);
		if (failure.get() != null || filled != count) {
			throw new IOException("Could not fill " + topic + " with " + count + " records (it has " + filled + ")"
					+ (failure.get() != null ? ": " + failure.get() : ""), failure.get());
		}
	}

	/**
	 * Samples the output topic's committed end offsets until they reach the case's records; the rate from the first
	 * record out to the last.
	 * @throws IOException with the end of the log when the process dies or the hop does not end within 600 s
	 */
	private Figure measure(KafkaOffsets offsets, Hop run, Stage stream, String out, BooleanSupplier alive,
			Trouble trouble, Path log) throws IOException, InterruptedException {
		this.bench.progress("peer, " + run.round() + ": " + run.describe(stream) + ", " + run.records() + " records");
		List<Sample> samples = new ArrayList<>();
		long begin = System.nanoTime();
		long lastProgress = begin;
		while (true) {
			long before = System.nanoTime();
			long count = offsets.committedEndOffsets(out);
			long now = System.nanoTime();
			samples.add(new Sample(before + (now - before) / 2, count));
			if (count >= run.records()) {
				break;
			}
			if (now - begin > TIMEOUT_NANOS || !alive.getAsBoolean()) {
				throw new IOException(run.describe(stream) + " did not complete (" + count + " of " + run.records()
						+ " records out); the end of " + log + ":\n" + tail(log));
			}
			if (now - lastProgress >= PROGRESS_NANOS) {
				String wrong = trouble.find();
				if (wrong != null) {
					throw new IOException(run.describe(stream) + ": " + wrong + " (" + count + " of " + run.records()
							+ " records out); the end of " + log + ":\n" + tail(log));
				}
				this.bench.progress(String.format("  %s: %d s, %,d of %,d records out", out,
						(now - begin) / 1_000_000_000L, count, run.records()));
				lastProgress = now;
			}
			Thread.sleep(Math.max(1, POLL.toMillis() - (System.nanoTime() - before) / 1_000_000));
		}
		Figure rate = Rates.rate(samples, 1, run.records());
		String dump = System.getenv(SAMPLES);
		if (dump != null && !dump.isBlank()) {
			StringBuilder csv = new StringBuilder("nanos,records\n");
			samples.forEach(sample -> csv.append(sample.nanos()).append(',').append(sample.count()).append('\n'));
			Path file = Path.of(dump).resolve(String.format("%s-%s.csv", out, run.describe(stream)
				.replaceAll("[^A-Za-z0-9-]+", "_")));
			Files.createDirectories(file.getParent());
			Files.writeString(file, csv);
		}
		this.bench.progress("peer" + (run.round().equals(WARM_UP) ? " (" + WARM_UP + ")" : "") + ": "
				+ run.describe(stream) + ": " + rate.format("%.0f") + " msg/s");
		return rate;
	}

	private static String tail(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
		return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
	}

	private void write(PeerTable table, Map<String, List<Figure>> settling, int rounds, List<Integer> partitionCounts,
			Map<Integer, Long> records) throws IOException {
		SuiteJson json = new SuiteJson(this.bench, "peer", "A Kafka hop through XD beside Kafka Streams")
			.note("One local broker. For each case, a topic of P partitions is filled beforehand (by this runner's own "
					+ "producer) with " + records.get(100) + " records of 100 B or " + records.get(1000) + " of 1 000 B, "
					+ "lower-case text marked as XD marks a String payload, and the hop copies it to a second topic of "
					+ "P partitions. XD: queue:in > bridge > queue:out, or queue:in > transform "
					+ "--expression=payload.toUpperCase() > queue:out, on a singlenode over the Kafka bus with its "
					+ "defaults. Kafka Streams " + AppInfoParser.getVersion() + ": builder.stream(in).to(out) with byte-array serdes, "
					+ "or .mapValues(String::toUpperCase) with String serdes, with its defaults (one stream thread).")
			.note("at-least-once: each side's default; exactly-once: XD's module.<hop>.consumer.transactional=true, "
					+ "Kafka Streams' processing.guarantee=exactly_once_v2.")
			.note("The rate is the output topic's: its end offsets summed over partitions, as read_committed "
					+ "(listOffsets with READ_COMMITTED) every 50 ms, from the first record out to the last; start-up "
					+ "and the consumer group's join are left out. With exactly-once the offsets also count one "
					+ "transaction marker per partition per transaction (under 0.2% of them here).")
			.note("first: the first stream of a fresh singlenode JVM, the first KafkaStreams instance of a fresh JVM "
					+ "(forked, with the same JVM options as the singlenode: " + String.join(" ",
							Bench.serverJavaOptions()) + "); later: a stream or instance after it in that JVM, on "
					+ "topics of its own. Each round runs, per case and side, two JVMs one right after the other: "
					+ "one's first stream in one mode (A), then a settling stream in the other (B, its first in the "
					+ "JVM: measured, in settlingRates, not in the table), then four later ones, A B B A; the next "
					+ "JVM the same the other way round, so each mode has one first stream and four later ones per "
					+ "round, each later one in a JVM that has run both modes. Which side goes first alternates case "
					+ "by case and "
					+ "round by round, and which mode's JVM round by round and side by side; " + rounds
					+ " round(s), partitions " + partitionCounts + "; each figure is the median of its measurements.")
			.note((this.warmedUp ? "Before the first round the first case ran once per side and mode with "
					+ QUICK_RECORDS.get(100) + " records, not measured, so that no round pays for the broker's "
					+ "warm-up (a run under --quick or narrowed by " + ONLY + " has none). " : "No warm-up run (--quick or "
							+ ONLY + "): the first cases measured a broker that may be cold. ")
					+ "A JVM's input topics are all filled before it starts, then the runner runs sync, and again "
					+ "between two streams, so that the kernel's write-back of the input and of the last output falls "
					+ "into no measurement; a JVM's topics are deleted once it has stopped.");
		json.columns(PeerTable.COLUMNS.toArray(String[]::new));
		ObjectNode settled = json.object("settlingRates");
		settling.forEach((which, rates) -> {
			ArrayNode array = settled.putArray(which);
			rates.forEach(rate -> SuiteJson.add(array, SuiteJson.rounded(rate, 0)));
		});
		table.rows().forEach(json::row);
		// one category per size, partitions and stream, one series per hop and mode: a case not measured (a run
		// narrowed by XD_PEER_ONLY) is a gap in its series
		Map<String, PeerTable.Case> categories = new LinkedHashMap<>();
		for (PeerTable.Case key : table.cases()) {
			categories.putIfAbsent(key.size() + " B " + key.partitions() + "p " + key.stream(), key);
		}
		List<String> names = List.copyOf(categories.keySet());
		SuiteJson.Chart chart = json.chart("XD / Kafka Streams, the same hop (median; 1 = as fast)", "bar",
				"size, partitions, stream", "XD / Kafka Streams", false);
		for (String hop : HOPS) {
			for (String mode : List.of(PeerTable.AT_LEAST_ONCE, PeerTable.EXACTLY_ONCE)) {
				chart.series(hop + " " + mode, names, names.stream()
					.map(name -> {
						PeerTable.Case any = categories.get(name);
						return table.ratio(new PeerTable.Case(hop, any.size(), any.partitions(), any.stream()), mode);
					})
					.toList());
			}
		}
		modeCost(json, table);
		json.write();
	}

	/**
	 * Exactly-once / at-least-once measurement by measurement ({@link PeerTable#modeCost}), pooled over cases per
	 * side (all sizes, then 100 B): a note, an object {@code modeCost} with the figures, and a chart of each case's
	 * median ratio.
	 */
	private void modeCost(SuiteJson json, PeerTable table) {
		ObjectNode figures = json.object("modeCost");
		StringBuilder note = new StringBuilder("Exactly-once / at-least-once, measurement by measurement (in each "
				+ "round a case's first streams of the two modes in JVMs one right after the other, its later ones "
				+ "side by side, A B B A), pooled over cases; the median ratio with a distribution-free 95% interval:");
		for (String side : List.of(PeerTable.XD, PeerTable.STREAMS)) {
			for (Integer size : Arrays.asList(null, 100)) {
				PeerTable.ModeCost cost = table.modeCost(side, key -> size == null || key.size() == size);
				String which = side + (size == null ? ", every case" : ", " + size + " B");
				note.append(' ').append(which).append(": ").append(cost.describe()).append(';');
				ObjectNode figure = figures.putObject(which);
				figure.put("pairs", cost.pairs());
				ArrayNode interval = figure.putArray("median, low, high");
				SuiteJson.add(interval, SuiteJson.rounded(cost.median(), 3));
				SuiteJson.add(interval, SuiteJson.rounded(cost.low(), 3));
				SuiteJson.add(interval, SuiteJson.rounded(cost.high(), 3));
				figure.put("atLeastOnceAtLeastAsFast", cost.atLeastOnceAhead());
				this.bench.progress("peer: exactly-once / at-least-once, " + which + ": " + cost.describe());
			}
		}
		json.note(note.substring(0, note.length() - 1) + ".");
		List<String> categories = new ArrayList<>();
		List<SuiteJson.Rounded> xd = new ArrayList<>();
		List<SuiteJson.Rounded> streams = new ArrayList<>();
		for (PeerTable.Case key : table.cases()) {
			categories.add(key.hop() + " " + key.size() + " B " + key.partitions() + "p " + key.stream());
			xd.add(SuiteJson.rounded(table.modeCost(PeerTable.XD, key::equals).median(), 3));
			streams.add(SuiteJson.rounded(table.modeCost(PeerTable.STREAMS, key::equals).median(), 3));
		}
		json.chart("Exactly-once / at-least-once per case (median of the paired measurements' ratios; below 1 = "
				+ "at-least-once faster)", "bar", "hop, size, partitions, stream", "exactly-once / at-least-once", false)
			.series(PeerTable.XD, categories, xd)
			.series(PeerTable.STREAMS, categories, streams);
	}

}
