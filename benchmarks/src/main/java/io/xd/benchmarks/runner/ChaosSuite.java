package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.xd.benchmarks.runner.ChaosCluster.BrokerNode;
import io.xd.benchmarks.runner.ChaosCluster.Node;
import io.xd.benchmarks.runner.ChaosCluster.State;
import io.xd.benchmarks.runner.ChaosCluster.XdNode;
import io.xd.benchmarks.runner.ChaosSchedule.Fault;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code chaos} suite: a cluster of its own ({@link ChaosCluster}), one stream per delivery mode carrying
 * sequence numbers the suite writes to its input topic and reads back from its output topic, faults from a seed
 * ({@link ChaosSchedule}) for the run's duration, then recovery and the whole history checked ({@link ChaosHistory}):
 * nothing lost, nothing twice under exactly-once, never two instances of one module at once.
 */
final class ChaosSuite {

	/** The streams' delivery modes and their deployment properties. */
	static final Map<String, String> MODES = modes();

	/** Messages per second the suite sends to each stream. */
	static final int RATE = 100;

	/** A stream is back after a fault once every message sent over this window comes through within the bound. */
	private static final long RECOVERY_WINDOW_MILLIS = 3_000;

	private static final long RECOVERY_BOUND_MILLIS = 1_000;

	private static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(1);

	private static final int START_ATTEMPTS = 5;

	/** How long the load goes on once the faults are over and every server is back. */
	private static final Duration SETTLE = Duration.ofSeconds(20);

	private final Bench bench;

	private final boolean quick;

	private final Path work;

	private final long seed;

	private final Duration duration;

	/** How many Kafka brokers: 1, or 3 (topics of three replicas, two in sync). */
	private final int brokers;

	private final Map<String, ChaosHistory> histories = new LinkedHashMap<>();

	private final List<FaultRun> faultRuns = new CopyOnWriteArrayList<>();

	private final List<String> overlaps = new CopyOnWriteArrayList<>();

	private final List<String> registeredTwice = new CopyOnWriteArrayList<>();

	/** Per module, the longest time it was held by two containers, from the first sample to the last in a row. */
	private final Map<String, Long> longestTwiceMillis = new java.util.concurrent.ConcurrentHashMap<>();

	/** Samples where a module handled messages on two containers, not in the sample before: a hand-off, or not. */
	private final List<String> handledTwiceOnce = new CopyOnWriteArrayList<>();

	private final List<Thread> restorers = new CopyOnWriteArrayList<>();

	private volatile boolean running = true;

	private volatile boolean reading = true;

	/** Where the sampler last found each module: module to containers. */
	private volatile Map<String, Set<String>> placement = Map.of();

	private volatile long samples;

	private volatile long sampleErrors;

	private volatile String lastSampleError = "none";

	private long loadStart;

	ChaosSuite(Bench bench, boolean quick, Path work, Long seed, Duration duration, int brokers) {
		this.brokers = brokers;
		this.bench = bench;
		this.quick = quick;
		this.work = work;
		this.seed = (seed != null) ? seed : new Random().nextLong() & 0xffffffffL;
		this.duration = (duration != null) ? duration : quick ? Duration.ofMinutes(2) : Duration.ofMinutes(10);
	}

	private static Map<String, String> modes() {
		Map<String, String> modes = new LinkedHashMap<>();
		modes.put("at-least-once", "");
		modes.put("noLoss", "module.*.producer.requiredAcks=all");
		modes.put("exactly-once", "module.*.consumer.transactional=true");
		return Collections.unmodifiableMap(modes);
	}

	/**
	 * Runs the suite and writes {@code chaos.json}.
	 * @return what failed (a loss, a duplicate under exactly-once, two instances at once); empty when nothing did
	 */
	List<String> run() throws Exception {
		quietKafkaClients();
		List<Fault> schedule = ChaosSchedule.plan(this.seed, this.duration, ChaosCluster.SESSION_TIMEOUT);
		this.bench.progress("chaos: seed " + this.seed + " (bin/xd-bench --seed " + this.seed + " --duration "
				+ this.duration.toSeconds() + "s chaos repeats this schedule), " + schedule.size() + " faults over "
				+ this.duration.toSeconds() + " s");
		String run = this.bench.runId();
		String noDiskFaults;
		try (ChaosCluster cluster = new ChaosCluster(this.bench, this.work, this.brokers)) {
			cluster.start();
			List<Thread> threads = new ArrayList<>();
			List<KafkaProducer<String, String>> producers = new ArrayList<>();
			try (KafkaOffsets topics = new KafkaOffsets(cluster.brokers())) {
				for (String mode : MODES.keySet()) {
					String stream = streamName(mode, run);
					topics.createTopic(inputTopic(stream), 1, cluster.replicas());
					topics.createTopic(outputTopic(stream), 1, cluster.replicas());
					Singlenode admin = cluster.anyAdmin();
					admin.createStream(stream, "queue:" + stream + "-in > filter --expression=true | bridge > queue:"
							+ stream + "-out");
					admin.deployStream(stream, MODES.get(mode));
					this.bench.progress("chaos: deployed " + stream + " (" + mode + "): " + (MODES.get(mode).isEmpty()
							? "no deployment properties" : MODES.get(mode)));
					this.histories.put(mode, new ChaosHistory());
				}
			}
			this.loadStart = System.nanoTime();
			for (String mode : MODES.keySet()) {
				String stream = streamName(mode, run);
				threads.add(thread("read-" + mode, () -> read(cluster, outputTopic(stream), this.histories.get(mode))));
				KafkaProducer<String, String> producer = producer(cluster);
				producers.add(producer);
				threads.add(thread("send-" + mode, () -> send(producer, inputTopic(stream), this.histories.get(mode))));
			}
			Set<String> modules = new LinkedHashSet<>();
			for (String mode : MODES.keySet()) {
				modules.add(streamName(mode, run) + "/filter");
				modules.add(streamName(mode, run) + "/bridge");
			}
			Thread sampler = thread("instances", () -> sampleInstances(cluster, modules));
			awaitFlow();
			Thread.sleep(SAMPLE_INTERVAL.toMillis() * 2);
			this.bench.progress("chaos: modules on containers: " + this.placement);
			long faultsStart = System.nanoTime();
			this.bench.progress("chaos: every stream delivers; faults for " + this.duration.toSeconds() + " s");
			for (Fault fault : schedule) {
				sleepUntil(faultsStart + TimeUnit.MILLISECONDS.toNanos(fault.atMillis()));
				inject(cluster, fault);
			}
			sleepUntil(faultsStart + this.duration.toNanos());
			this.bench.progress("chaos: faults over; letting every server come back");
			for (Thread restorer : this.restorers) {
				restorer.join();
			}
			for (Node node : cluster.all()) {
				if (node.state() == State.UP && !node.alive() && node.take(State.UP, State.STARTING)) {
					// a server that ended by itself after a fault it seemed to have survived
					this.bench.progress("chaos: " + node.name + " had ended by itself; starting it again");
					startAgain(node);
				}
				else if (node.state() == State.DOWN && node.take(State.DOWN, State.STARTING)) {
					startAgain(node);
				}
			}
			// the load goes on a while with every server back, so that the last faults' recovery is measured too
			this.bench.progress("chaos: every server is back; " + SETTLE.toSeconds() + " s more of load");
			Thread.sleep(SETTLE.toMillis());
			this.running = false;
			for (KafkaProducer<String, String> producer : producers) {
				producer.close(Duration.ofSeconds(120));
			}
			long recoveryEnd = System.nanoTime() + (this.quick ? Duration.ofSeconds(90) : Duration.ofSeconds(300))
				.toNanos();
			while (System.nanoTime() < recoveryEnd && !this.histories.values().stream().allMatch(ChaosHistory::complete)) {
				Thread.sleep(500);
			}
			boolean complete = this.histories.values().stream().allMatch(ChaosHistory::complete);
			// a last look for duplicates and for two instances at once after recovery
			Thread.sleep(5_000);
			this.bench.progress("chaos: " + (complete ? "every message is back" : "not every message came back in time")
					+ "; checking the history");
			sampler.interrupt();
			this.reading = false;
			for (Thread thread : threads) {
				thread.join(10_000);
			}
			sampler.join(10_000);
			noDiskFaults = cluster.noDiskFaults;
			this.bench.progress("chaos: " + this.samples + " samples of the modules' containers (" + this.sampleErrors
					+ " reads of a container failed, the last: " + this.lastSampleError + "); last: " + this.placement);
		}
		return report(schedule, noDiskFaults);
	}

	private static String streamName(String mode, String run) {
		return "chaos-" + switch (mode) {
			case "at-least-once" -> "alo";
			case "noLoss" -> "noloss";
			default -> "eos";
		} + "-" + run;
	}

	/** The bus's topic of {@code queue:<stream>-in} (':' escaped as _3A, see KafkaTopicProvisioner). */
	private static String inputTopic(String stream) {
		return "queue_3A" + stream + "-in";
	}

	private static String outputTopic(String stream) {
		return "queue_3A" + stream + "-out";
	}

	private long millis() {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.loadStart);
	}

	private static void quietKafkaClients() {
		((Logger) LoggerFactory.getLogger("org.apache.kafka")).setLevel(Level.ERROR);
	}

	private static Thread thread(String name, Task task) {
		Thread thread = new Thread(() -> {
			try {
				task.run();
			}
			catch (InterruptedException ex) {
				// asked to stop
			}
			catch (Exception ex) {
				System.err.println("chaos: " + name + " failed: " + ex);
			}
		}, "chaos-" + name);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	private interface Task {

		void run() throws Exception;

	}

	private static void sleepUntil(long nanos) throws InterruptedException {
		long left = nanos - System.nanoTime();
		if (left > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

	/** Waits until every stream has delivered a message (the modules deployed, the consumers assigned). */
	private void awaitFlow() throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
		while (this.histories.values().stream().anyMatch(history -> history.receivedCount() == 0)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("chaos: a stream delivered nothing within 180 s of its deployment; "
						+ "see the logs in " + this.work);
			}
			Thread.sleep(200);
		}
	}

	/** The suite's own producer: idempotent, acks=all, waiting out a broker that is down rather than failing. */
	private static KafkaProducer<String, String> producer(ChaosCluster cluster) {
		Map<String, Object> config = new LinkedHashMap<>();
		config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.brokers());
		config.put(ProducerConfig.ACKS_CONFIG, "all");
		config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
		config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000);
		config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 600_000);
		return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
	}

	/** Sends {@link #RATE} sequence numbers a second until the faults are over. */
	private void send(KafkaProducer<String, String> producer, String topic, ChaosHistory history)
			throws InterruptedException {
		long interval = TimeUnit.SECONDS.toNanos(1) / RATE;
		long next = System.nanoTime();
		while (this.running) {
			int seq = history.send(millis());
			producer.send(new ProducerRecord<>(topic, Integer.toString(seq)), (metadata, failure) -> {
				if (failure == null) {
					history.acked(seq, millis());
				}
				else {
					history.failed(seq);
				}
			});
			next += interval;
			sleepUntil(next);
		}
	}

	/** Reads the output topic from its start, {@code read_committed}, into the history. */
	private void read(ChaosCluster cluster, String topic, ChaosHistory history) {
		Map<String, Object> config = new LinkedHashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.brokers());
		config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
				new StringDeserializer())) {
			consumer.assign(List.of(new TopicPartition(topic, 0)));
			while (this.reading) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					long seq;
					try {
						seq = Long.parseLong(record.value().strip());
					}
					catch (NumberFormatException ex) {
						seq = -1;
					}
					history.received(record.partition(), seq, millis());
				}
			}
		}
	}

	/**
	 * Every second, which containers run each module, and which of them handled messages since the sample before.
	 * A module instance registers its meters ({@code xd_module_messages_in_total}, family
	 * {@code xd_module_messages_in}, with tags {@code stream} and {@code module}) when its container starts deploying
	 * it and removes them once it is undeployed, so the meters of a container's {@code /actuator/prometheus} are the
	 * modules that process holds, and their count says whether it handled any message meanwhile. Every live
	 * container process is read (one being stopped too), a paused one gives up after 1 s. Two at once: a module
	 * whose count grew on two containers between the same two samples, twice in a row (once alone could be a
	 * hand-off within one second). Registered twice: a module held by two containers in two samples in a row,
	 * whether or not both handled anything (one of them deploying or undeploying).
	 */
	private void sampleInstances(ChaosCluster cluster, Set<String> modules) throws InterruptedException {
		Map<String, Set<String>> previous = Map.of();
		Map<String, Set<String>> previousHandling = Map.of();
		Map<String, Double> counts = new HashMap<>();
		Map<String, Long> twiceSince = new HashMap<>();
		while (!Thread.currentThread().isInterrupted()) {
			Map<String, Set<String>> where = new TreeMap<>();
			Map<String, Set<String>> handling = new TreeMap<>();
			Map<String, Double> newCounts = new HashMap<>();
			for (XdNode container : cluster.containers) {
				Singlenode server = container.server;
				if (container.state() == State.PAUSED || server == null || !server.isAlive()) {
					continue;
				}
				try {
					Prometheus meters = server.prometheus(Duration.ofSeconds(1), "xd_module_messages_in");
					for (Prometheus.Metric metric : meters.metrics()) {
						String module = metric.labels().get("stream") + "/" + metric.labels().get("module");
						if (!metric.name().equals("xd_module_messages_in_total") || !modules.contains(module)) {
							continue;
						}
						where.computeIfAbsent(module, key -> new TreeSet<>()).add(container.name);
						String key = module + " " + container.name + " " + server.pid();
						newCounts.put(key, metric.value());
						Double before = counts.get(key);
						if (before != null && metric.value() > before) {
							handling.computeIfAbsent(module, name -> new TreeSet<>()).add(container.name);
						}
					}
				}
				catch (IOException ex) {
					// not answering (stopping, or just resumed): nothing known of it this time
					this.sampleErrors++;
					this.lastSampleError = container.name + ": " + ex;
				}
			}
			String at = String.format(Locale.ROOT, "%.1f s", millis() / 1000.0);
			for (Map.Entry<String, Set<String>> entry : handling.entrySet()) {
				if (entry.getValue().size() < 2) {
					continue;
				}
				String overlap = at + ": " + entry.getKey() + " handled messages on " + entry.getValue();
				if (previousHandling.getOrDefault(entry.getKey(), Set.of()).size() > 1) {
					this.overlaps.add(overlap);
					this.bench.progress("chaos: TWO INSTANCES AT ONCE: " + overlap);
				}
				else {
					this.handledTwiceOnce.add(overlap);
					this.bench.progress("chaos: handled on two containers in one sample: " + overlap);
				}
			}
			long now = millis();
			twiceSince.keySet().removeIf(module -> where.getOrDefault(module, Set.of()).size() < 2);
			for (Map.Entry<String, Set<String>> entry : where.entrySet()) {
				if (entry.getValue().size() > 1) {
					long since = twiceSince.computeIfAbsent(entry.getKey(), module -> now);
					this.longestTwiceMillis.merge(entry.getKey(), now - since, Math::max);
				}
				if (entry.getValue().size() > 1 && previous.getOrDefault(entry.getKey(), Set.of()).size() > 1) {
					String twice = at + ": " + entry.getKey() + " registered on " + entry.getValue() + ", handling on "
							+ handling.getOrDefault(entry.getKey(), Set.of());
					this.registeredTwice.add(twice);
					this.bench.progress("chaos: registered twice: " + twice);
				}
			}
			previous = where;
			previousHandling = handling;
			counts = newCounts;
			this.placement = where;
			this.samples++;
			Thread.sleep(SAMPLE_INTERVAL.toMillis());
		}
	}

	/** Applies one fault and schedules the start (or resumption) of its target after the fault's hold. */
	private void inject(ChaosCluster cluster, Fault fault) throws IOException, InterruptedException {
		Node target = target(cluster, fault);
		long at = millis();
		State during = fault.kind().cut() ? State.CUT_OFF : fault.kind().diskFull() ? State.DISK_FULL
				: fault.kind().pause() ? State.PAUSED : State.DOWN;
		String skipped = null;
		if (fault.kind().diskFull() && cluster.noDiskFaults != null) {
			skipped = "no full disk here: " + cluster.noDiskFaults;
		}
		else if (fault.kind().target == ChaosSchedule.Target.BROKER
				&& cluster.brokerNodes.stream().anyMatch(broker -> broker != target && broker.state() != State.UP)) {
			skipped = "one broker at a time, and another is not up";
		}
		if (skipped == null && (target == null || !target.take(State.UP, during))) {
			skipped = "no such server up";
		}
		if (skipped != null) {
			this.bench.progress("chaos: fault " + fault + ": skipped, " + skipped);
			this.faultRuns.add(new FaultRun(fault, "-", at, true));
			return;
		}
		this.bench.progress("chaos: fault " + fault + " on " + target.name + " (pid " + target.pid() + ")");
		this.faultRuns.add(new FaultRun(fault, target.name, at, false));
		long logMark = (target instanceof BrokerNode broker) ? broker.logMark() : 0;
		if (fault.kind().cut()) {
			((XdNode) target).zooKeeperProxy.cut();
		}
		else if (fault.kind().diskFull()) {
			long written = ((BrokerNode) target).fillDisk();
			this.bench.progress("chaos: " + target.name + "'s disk full (" + (written >> 20) + " MB of filler)");
		}
		else {
			target.signal(fault.kind().signal);
		}
		Thread restorer = thread("restore-" + fault.index(), () -> {
			Thread.sleep(fault.holdMillis());
			if (fault.kind().cut()) {
				((XdNode) target).zooKeeperProxy.restore();
				target.state(State.UP);
				this.bench.progress("chaos: " + target.name + " reaches ZooKeeper again");
			}
			else if (fault.kind().diskFull()) {
				BrokerNode broker = (BrokerNode) target;
				broker.freeDisk();
				if (broker.alive() && !broker.gaveUpSince(logMark)) {
					target.state(State.UP);
					this.bench.progress("chaos: " + target.name + "'s disk freed; it ran through it");
				}
				else {
					// a broker whose only log directory failed shuts down by itself, and may still be doing so
					this.bench.progress("chaos: " + target.name + "'s disk freed; it "
							+ (broker.alive() ? "is shutting down" : "had stopped") + ": starting it again");
					target.state(State.STARTING);
					target.awaitExit(Duration.ofSeconds(30));
					startAgain(target);
				}
			}
			else if (fault.kind().pause()) {
				target.signal("CONT");
				target.state(State.UP);
				this.bench.progress("chaos: " + target.name + " resumed (SIGCONT)");
			}
			else {
				target.awaitExit(Duration.ofSeconds(30));
				target.state(State.STARTING);
				startAgain(target);
			}
		});
		this.restorers.add(restorer);
	}

	/**
	 * Starts a server again, trying again up to {@value #START_ATTEMPTS} times (ZooKeeper or the broker may be down
	 * meanwhile); then fails, the server left down.
	 */
	private void startAgain(Node node) throws IOException, InterruptedException {
		for (int attempt = 1;; attempt++) {
			try {
				node.start();
				this.bench.progress("chaos: " + node.name + " started again (pid " + node.pid() + ")");
				return;
			}
			catch (IOException ex) {
				this.bench.progress("chaos: " + node.name + " did not start (attempt " + attempt + "): "
						+ ex.getMessage().lines().findFirst().orElse(""));
				if (attempt == START_ATTEMPTS) {
					node.state(State.DOWN);
					throw new IOException(node.name + " did not start again in " + START_ATTEMPTS + " attempts; see "
							+ this.work, ex);
				}
				node.signal("KILL");
				Thread.sleep(2_000);
			}
		}
	}

	private static Node target(ChaosCluster cluster, Fault fault) {
		return switch (fault.kind().target) {
			case ZOOKEEPER -> cluster.zooKeeper;
			case BROKER -> cluster.brokerNodes.get(fault.container() % cluster.brokerNodes.size());
			case LEADER_ADMIN -> cluster.leader().orElse(null);
			case CONTAINER -> {
				for (int i = 0; i < cluster.containers.size(); i++) {
					XdNode container = cluster.containers.get((fault.container() + i) % cluster.containers.size());
					if (container.state() == State.UP) {
						yield container;
					}
				}
				yield null;
			}
		};
	}

	/**
	 * One fault as it was applied.
	 *
	 * @param fault the scheduled fault
	 * @param target the server it hit
	 * @param atMillis when, from the start of the load
	 * @param skipped whether no server of its kind was up to take it
	 */
	record FaultRun(Fault fault, String target, long atMillis, boolean skipped) {
	}

	/** The two-at-once cell of a mode's row: never, or how many samples found it. */
	private String twoAtOnce(String mode) {
		String stream = streamName(mode, this.bench.runId()) + "/";
		long count = this.overlaps.stream().filter(overlap -> overlap.contains(stream)).count();
		return (count == 0) ? "never" : count + " samples";
	}

	/** How many samples found a module of the mode's stream registered twice (two in a row). */
	private long registeredTwiceSamples(String mode) {
		String stream = streamName(mode, this.bench.runId()) + "/";
		return this.registeredTwice.stream().filter(twice -> twice.contains(stream)).count();
	}

	/** The longest time a module of the mode's stream was held by two containers (0 when never). */
	private long longestRegisteredTwiceMillis(String mode) {
		String stream = streamName(mode, this.bench.runId()) + "/";
		return this.longestTwiceMillis.entrySet()
			.stream()
			.filter(entry -> entry.getKey().startsWith(stream))
			.mapToLong(Map.Entry::getValue)
			.max()
			.orElse(0);
	}

	/** Writes {@code chaos.json}, prints the table; returns the failures. */
	private List<String> report(List<Fault> schedule, String noDiskFaults) throws IOException {
		List<String> failures = new ArrayList<>();
		SuiteJson json = new SuiteJson(this.bench, "chaos", "Faults together: every message counted")
			.note("Seed " + this.seed + ": bin/xd-bench --seed " + this.seed + " --duration "
					+ this.duration.toSeconds() + "s chaos repeats this schedule. " + schedule.size()
					+ " faults over " + this.duration.toSeconds() + " s, one every 4-9 s, each kind once per round: "
					+ "SIGKILL, SIGTERM and SIGSTOP of a container and of the leading admin (SIGCONT after the "
					+ ChaosCluster.SESSION_TIMEOUT.toSeconds() + " s ZooKeeper session timeout and 2-6 s more), "
					+ "SIGKILL, SIGTERM and SIGSTOP of a broker and of ZooKeeper, a container cut off from ZooKeeper "
					+ "(not Kafka) and a broker's full disk (its data directory, a " + ChaosCluster.BROKER_DISK_SIZE
					+ " tmpfs, filled by a file) for as long as a pause; a stopped server is started again after 1-5 "
					+ "s, a broker that died of its full disk once the disk is freed"
					+ ((this.brokers > 1) ? "; broker faults hit one broker at a time (skipped while another is not up)"
							: "") + ".")
			.note((noDiskFaults == null) ? "Full-disk faults: applied (each broker's data directory a tmpfs)."
					: "Full-disk faults: SKIPPED, " + noDiskFaults + ".")
			.note("Cluster: ZooKeeper, " + ((this.brokers == 1) ? "one Kafka broker" : this.brokers
					+ " Kafka brokers (one KRaft quorum; every topic with 3 replicas, min.insync.replicas 2)")
					+ " (bin/kafka-local), two admins, three containers, each its own "
					+ "process on 127.0.0.1, the Kafka transport. Per mode, the suite sends " + RATE + " sequence "
					+ "numbers a second (idempotent producer, acks=all) to the 1-partition topic of queue:<s>-in, "
					+ "the stream queue:<s>-in > filter --expression=true | bridge > queue:<s>-out carries them, and "
					+ "the suite reads queue:<s>-out (1 partition) with a plain read_committed consumer.")
			.note("sent: acknowledged by the broker; lost: sent and never read back; duplicated: read again; out of "
					+ "order: read after a higher number of the same partition; recovery: from a fault until the first "
					+ "message from which on every message sent over " + RECOVERY_WINDOW_MILLIS / 1000
					+ " s came through within " + RECOVERY_BOUND_MILLIS / 1000 + " s. Two at once: a module whose "
					+ "messages-in count grew on two containers between the same two samples, twice in a row (each "
					+ "container's /actuator/prometheus read every second).")
			.columns("mode", "sent", "received", "lost", "duplicated", "out of order", "longest stall (s)",
					"unacknowledged sends", "two at once (handling)", "registered twice (samples)",
					"longest registered twice (s)");
		SuiteJson.Chart chart = json.chart("Messages read per second, faults marked", "line",
				"seconds from the start of the load", "msg/s", false);
		int longest = 0;
		double top = RATE;
		Map<String, ChaosHistory.Summary> summaries = new LinkedHashMap<>();
		for (Map.Entry<String, ChaosHistory> entry : this.histories.entrySet()) {
			ChaosHistory.Summary summary = entry.getValue().summary();
			summaries.put(entry.getKey(), summary);
			longest = Math.max(longest, summary.perSecond().length);
			for (int count : summary.perSecond()) {
				top = Math.max(top, count);
			}
		}
		for (Map.Entry<String, ChaosHistory.Summary> entry : summaries.entrySet()) {
			String mode = entry.getKey();
			ChaosHistory.Summary summary = entry.getValue();
			json.row(mode, summary.sent(), summary.received(), summary.lost(), summary.duplicates(),
					summary.outOfOrder(), SuiteJson.rounded(Figure.of(summary.longestStallMillis() / 1000.0), 1),
					summary.unacknowledged(),
					twoAtOnce(mode), registeredTwiceSamples(mode),
					SuiteJson.rounded(Figure.of(longestRegisteredTwiceMillis(mode) / 1000.0), 1));
			List<Integer> xs = new ArrayList<>();
			List<Integer> ys = new ArrayList<>();
			for (int second = 0; second < longest; second++) {
				xs.add(second);
				ys.add(second < summary.perSecond().length ? summary.perSecond()[second] : 0);
			}
			chart.series(mode, xs, ys);
			if (summary.lost() > 0) {
				failures.add(mode + ": " + summary.lost() + " messages lost");
			}
			if (summary.unknown() > 0) {
				failures.add(mode + ": " + summary.unknown() + " records the suite never sent");
			}
			if (mode.equals("exactly-once") && summary.duplicates() > 0) {
				failures.add(mode + ": " + summary.duplicates() + " duplicates");
			}
			this.bench.progress(String.format(Locale.ROOT, "chaos: %-13s sent %d, received %d, lost %d, duplicated %d, "
					+ "out of order %d, longest stall %.1f s (at %.1f s), unacknowledged %d, two at once %s, registered "
					+ "twice %d samples (longest %.1f s)", mode, summary.sent(),
					summary.received(), summary.lost(), summary.duplicates(), summary.outOfOrder(),
					summary.longestStallMillis() / 1000.0, summary.stallAtMillis() / 1000.0, summary.unacknowledged(),
					twoAtOnce(mode), registeredTwiceSamples(mode), longestRegisteredTwiceMillis(mode) / 1000.0));
		}
		if (!this.overlaps.isEmpty()) {
			failures.add("two instances of one module at once: " + this.overlaps);
		}
		// the faults as markers: one point each at the top of the chart, unjoined (a null between them)
		List<Double> faultXs = new ArrayList<>();
		List<Double> faultYs = new ArrayList<>();
		ArrayNode faults = json.array("faults");
		for (FaultRun run : this.faultRuns) {
			ObjectNode node = faults.addObject();
			node.put("index", run.fault().index());
			node.put("fault", run.fault().describe());
			node.put("target", run.target());
			node.put("atSeconds", run.atMillis() / 1000.0);
			node.put("holdSeconds", run.fault().holdMillis() / 1000.0);
			node.put("skipped", run.skipped());
			ObjectNode recovery = node.putObject("recoverySeconds");
			List<String> recoveries = new ArrayList<>();
			for (Map.Entry<String, ChaosHistory> entry : this.histories.entrySet()) {
				long millis = entry.getValue().recoveryMillis(run.atMillis(), RECOVERY_WINDOW_MILLIS,
						RECOVERY_BOUND_MILLIS);
				if (millis < 0) {
					recovery.putNull(entry.getKey());
					recoveries.add(entry.getKey() + " never");
				}
				else {
					recovery.put(entry.getKey(), millis / 1000.0);
					recoveries.add(String.format(Locale.ROOT, "%s %.1f s", entry.getKey(), millis / 1000.0));
				}
			}
			json.note(String.format(Locale.ROOT, "Fault %s%s; recovery: %s.", run.fault(),
					run.skipped() ? " (skipped: none up)" : " on " + run.target(), String.join(", ", recoveries)));
			if (!run.skipped()) {
				faultXs.add(run.atMillis() / 1000.0);
				faultYs.add(top);
				faultXs.add(run.atMillis() / 1000.0 + 0.01);
				faultYs.add(null);
			}
		}
		chart.series("faults", faultXs, faultYs);
		ObjectNode meta = json.object("chaos");
		meta.put("seed", this.seed);
		meta.put("durationSeconds", this.duration.toSeconds());
		meta.put("ratePerMode", RATE);
		meta.put("brokers", this.brokers);
		if (noDiskFaults != null) {
			meta.put("diskFaultsSkipped", noDiskFaults);
		}
		ArrayNode overlapNode = meta.putArray("twoInstancesAtOnce");
		this.overlaps.forEach(overlapNode::add);
		ArrayNode onceNode = meta.putArray("handledOnTwoInOneSample");
		this.handledTwiceOnce.forEach(onceNode::add);
		json.note(this.handledTwiceOnce.isEmpty() ? "Handled on two containers in one sample alone: never."
				: "Handled on two containers in one sample alone (a hand-off within a second, or a brief overlap; "
						+ "not failed): " + String.join("; ", this.handledTwiceOnce) + ".");
		ArrayNode registeredNode = meta.putArray("registeredTwice");
		this.registeredTwice.forEach(registeredNode::add);
		meta.put("samples", this.samples);
		json.note(this.registeredTwice.isEmpty() ? "Registered twice: never."
				: "Registered twice (a module held by two containers in two samples in a row, at most one of them "
						+ "handling messages unless listed under two at once): " + this.registeredTwice.size()
						+ " samples, " + String.join("; ", this.registeredTwice) + ".");
		ArrayNode failureNode = meta.putArray("failures");
		failures.forEach(failureNode::add);
		json.note(failures.isEmpty() ? "Verdict: nothing lost, no duplicate under exactly-once, never two instances "
				+ "of a module at once." : "Verdict: FAILED: " + String.join("; ", failures) + ".");
		json.write();
		return failures;
	}
}
