package io.xd.benchmarks.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The {@code footprint} suite: the memory of a container process in a cluster of its own (a ZooKeeper, an admin and
 * a container, each a process, on Kafka), measured through {@code jcmd} and {@code /proc}.
 */
final class FootprintSuite {

	private final Bench bench;

	private final boolean quick;

	private final Path work;

	FootprintSuite(Bench bench, boolean quick, Path work) {
		this.bench = bench;
		this.quick = quick;
		this.work = work;
	}

	/**
	 * Heap after GC and resident memory of a container process (admin, container and ZooKeeper apart, on Kafka)
	 * idle, then at 1 000 msg/s of 8 KB, with {@code bin/xd-container}'s default JVM options and with its
	 * {@code --small} profile.
	 */
	void run() throws IOException, InterruptedException {
		this.bench.ensureBroker();
		int seconds = this.quick ? 8 : 60;
		int idleSeconds = this.quick ? 3 : 5;
		Map<String, List<String>> profiles = new LinkedHashMap<>();
		profiles.put("--small", Bench.smallJavaOptions());
		profiles.put("default", Bench.serverJavaOptions());
		SuiteJson json = new SuiteJson(this.bench, "footprint", "Footprint of a container process on Kafka")
			.note("A ZooKeeper, an admin and one container per profile, each a process of its own "
					+ "(bin/zookeeper-local, bin/xd-admin, bin/xd-container), the Kafka transport; every module of the "
					+ "measured stream runs in its container (deployed by the container's group). Heap after a full GC "
					+ "(jcmd GC.run, then Actuator's jvm.gc.live.data.size: the old generation after the collection) "
					+ "and resident set (VmRSS in /proc) of the container. Idle: " + idleSeconds + " s after the first "
					+ "container started; the second starts while the first is measured, so it has been idle longer "
					+ "when its turn comes.")
			.note("Busy: load-generator --rate=1000 --messageSize=8192 | throughput for " + seconds + "s (so two Kafka "
					+ "hops' producer and consumer in the container), measured 3 s before the end.")
			.note("--small: " + String.join(" ", Bench.smallJavaOptions()) + ". default: "
					+ String.join(" ", Bench.serverJavaOptions()) + " (a fixed heap touched at start-up, for speed).")
			.columns("profile", "state", "heap after GC MiB", "resident MiB");
		List<String> states = new ArrayList<>();
		List<Figure> heaps = new ArrayList<>();
		List<Figure> resident = new ArrayList<>();
		int zkPort = Net.freePort(2181);
		Process zookeeper = zookeeper(zkPort);
		try {
			List<String> cluster = new ArrayList<>(Singlenode.CLUSTER_USER);
			cluster.addAll(List.of("--zk.client.connect=127.0.0.1:" + zkPort, Suites.KAFKA[0], Suites.KAFKA[1],
					Suites.KAFKA[2]));
			List<Map.Entry<String, List<String>>> entries = List.copyOf(profiles.entrySet());
			// the first container starts while the admin does: nothing is measured before both are up
			this.bench.progress("footprint: a container with " + entries.get(0).getKey() + " JVM options");
			// two ports found free before either server binds one
			int adminPort = Net.freePort(9393);
			int firstPort = Net.freePort(adminPort + 1);
			CompletableFuture<Singlenode> first = CompletableFuture.supplyAsync(() -> container(0,
					entries.get(0).getValue(), cluster, firstPort));
			try (Singlenode admin = startAdmin(cluster, adminPort, first)) {
				CompletableFuture<Singlenode> next = first;
				for (int i = 0; i < entries.size(); i++) {
					String label = entries.get(i).getKey();
					if (i > 0) {
						this.bench.progress("footprint: a container with " + label + " JVM options");
					}
					try (Singlenode container = await(next)) {
						// the next container starts while this one is measured (memory, which it does not share);
						// each stream is deployed by its container's group, so it lands on the one measured
						int following = i + 1;
						next = (following < entries.size()) ? CompletableFuture.supplyAsync(() -> container(following,
								entries.get(following).getValue(), cluster, Net.freePort(firstPort + following)))
								: null;
						Thread.sleep(idleSeconds * 1000L);
						Figure[] idle = afterGc(container);
						String name = "foot" + states.size() + this.bench.runId();
						admin.createStream(name, Suites.timedLoad(1000, seconds).replace("--messageSize=100",
								"--messageSize=8192") + " | throughput --reportEveryMs=5000");
						admin.deployStream(name, "module.*.criteria=groups.contains('" + group(i) + "')");
						Thread.sleep((seconds - 3) * 1000L);
						Figure[] busy = afterGc(container);
						admin.destroyStream(name);
						json.row(label, "idle", idle[1], idle[0]).row(label, "1 000 msg/s of 8 KB", busy[1], busy[0]);
						this.bench.progress("footprint: " + label + ": idle heap " + idle[1].format("%.1f") + " MiB, RSS "
								+ idle[0].format("%.1f") + " MiB; busy heap " + busy[1].format("%.1f") + " MiB, RSS "
								+ busy[0].format("%.1f") + " MiB");
						for (Figure[] figures : List.of(idle, busy)) {
							states.add(label + (figures == idle ? " idle" : " busy"));
							resident.add(figures[0]);
							heaps.add(figures[1]);
						}
					}
					catch (IOException | InterruptedException | RuntimeException ex) {
						// the next container is stopped before ZooKeeper is, not left starting against none
						if (next != null) {
							next.handle((container, failure) -> {
								if (container != null) {
									container.close();
								}
								return null;
							}).join();
						}
						throw ex;
					}
				}
			}
		}
		finally {
			zookeeper.destroy();
			zookeeper.waitFor(30, TimeUnit.SECONDS);
		}
		json.chart("Container memory, idle and at 1 000 msg/s of 8 KB", "bar", "profile and state", "MiB", true)
			.series("heap after GC", states, heaps)
			.series("resident", states, resident);
		json.write();
	}

	/** The admin, started beside {@code first}; if it fails to start, {@code first} is stopped once it is up. */
	private Singlenode startAdmin(List<String> cluster, int port, CompletableFuture<Singlenode> first)
			throws IOException, InterruptedException {
		try {
			return Singlenode.start(this.bench, this.work, "footprint-admin", "footprint-admin.log", "admin", port,
					List.of("-Xmx256m"), cluster.toArray(String[]::new));
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			first.thenAccept(Singlenode::close);
			throw ex;
		}
	}

	/**
	 * Container {@code index} of the suite's cluster on {@code port}, with {@code javaOptions}; unchecked for use in
	 * a future.
	 */
	private Singlenode container(int index, List<String> javaOptions, List<String> cluster, int port) {
		String name = "footprint-container" + index;
		List<String> args = new ArrayList<>(cluster);
		args.addAll(List.of("--groups", group(index)));
		try {
			return Singlenode.start(this.bench, this.work, name, name + ".log", "container", port, javaOptions,
					args.toArray(String[]::new));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while starting a container", ex);
		}
	}

	/** The group of container {@code index}, by which its stream is deployed on it. */
	private static String group(int index) {
		return "footprint" + index;
	}

	private static Singlenode await(CompletableFuture<Singlenode> container) throws IOException {
		try {
			return container.join();
		}
		catch (CompletionException ex) {
			if (ex.getCause() instanceof UncheckedIOException io) {
				throw io.getCause();
			}
			throw ex;
		}
	}

	/** A standalone ZooKeeper ({@code xd.jar zookeeper}) on {@code port}, once it listens. */
	private Process zookeeper(int port) throws IOException, InterruptedException {
		Path log = this.work.resolve("footprint-zookeeper.log");
		List<String> command = new ArrayList<>(List.of(Bench.javaCommand(), "-Xmx128m"));
		command.addAll(this.bench.serverJar());
		command.addAll(List.of("zookeeper", "--port=" + port, "--dir=" + this.work.resolve("footprint-zookeeper")));
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (!Files.readString(log).contains("ZooKeeper listening")) {
			if (!process.isAlive() || System.nanoTime() > deadline) {
				process.destroyForcibly();
				throw new IOException("ZooKeeper did not start; see " + log);
			}
			Thread.sleep(100);
		}
		return process;
	}

	/**
	 * A full GC in the server ({@code jcmd <pid> GC.run}), then its resident MiB and the MiB its heap held after
	 * that GC (Micrometer's {@code jvm.gc.live.data.size}: the old generation after a full collection, into which
	 * the serial collector compacts every live object; unlike heap used, it does not count what the server allocated
	 * since).
	 */
	private static Figure[] afterGc(Singlenode server) throws IOException, InterruptedException {
		Path jcmd = Path.of(Bench.javaCommand()).resolveSibling("jcmd");
		Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(server.pid()), "GC.run").redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		if (!gc.waitFor(30, TimeUnit.SECONDS) || gc.exitValue() != 0) {
			gc.destroyForcibly();
			return new Figure[] { Figure.na("jcmd GC.run failed"), Figure.na("jcmd GC.run failed") };
		}
		Figure rss = resident(server);
		Double live = server.metric("jvm.gc.live.data.size", Map.of());
		return new Figure[] { rss,
				(live != null) ? Figure.of(live / (1024.0 * 1024.0)) : Figure.na("no jvm.gc.live.data.size metric") };
	}

	/** Resident MiB of the server, from {@code /proc/<pid>/status}. */
	private static Figure resident(Singlenode server) throws IOException {
		Path status = Path.of("/proc", Long.toString(server.pid()), "status");
		if (Files.isReadable(status)) {
			for (String line : Files.readAllLines(status)) {
				if (line.startsWith("VmRSS:")) {
					return Figure.of(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0);
				}
			}
		}
		return Figure.na("no VmRSS in " + status);
	}
}
