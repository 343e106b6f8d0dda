package io.xd.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The singlenodes the suites of one {@code bin/xd-bench} run measure through. Without {@code --quick} each suite
 * starts its own and stops it when done. With {@code --quick} the suites on the local bus ({@code direct},
 * {@code latency}) share one singlenode, and those on the Kafka bus with its defaults ({@code latency},
 * {@code saturation}, {@code tuning}, {@code exactly-once}, {@code contention}) share another, each started by the
 * first suite that needs it and stopped at the end of the run: a singlenode costs 5-12 s to start on 2 vCPUs. The
 * shared Kafka singlenode also declares the {@code contention} suite's data source, on a port reserved up front
 * for the PostgreSQL that suite starts ({@link #contentionDatabasePort()}); a data source is only a declaration
 * until a {@code jdbc} module connects. The {@code kafka} and {@code partitions} suites, which run with raw records
 * otherwise, use it too ({@link #raw}). The Kafka broker starts when the first suite on Kafka needs it, not beside
 * the local-bus singlenode: two JVMs starting at once on 2 vCPUs took 17 s where one after the other took 10, and
 * the broker's start-up work went on into the {@code direct} suite's measurement.
 */
final class Servers implements AutoCloseable {

	private final Bench bench;

	private final boolean quick;

	private final Path work;

	private Singlenode local;

	private Singlenode kafka;

	private int contentionDatabasePort;

	Servers(Bench bench, boolean quick, Path work) {
		this.bench = bench;
		this.quick = quick;
		this.work = work;
	}

	/**
	 * A singlenode for a suite: its own, stopped on {@link #close()}, or the run's shared one, which
	 * {@link #close()} leaves running.
	 *
	 * @param singlenode the server
	 * @param fresh whether it was started for this suite (it has run no other suite's streams)
	 * @param shared whether other suites of the run use it too
	 */
	record Lease(Singlenode singlenode, boolean fresh, boolean shared) implements AutoCloseable {

		@Override
		public void close() {
			if (!this.shared) {
				this.singlenode.close();
			}
		}
	}

	boolean quick() {
		return this.quick;
	}

	/** A singlenode on the local bus: the shared one under {@code --quick}, else a fresh one named {@code name}. */
	Lease local(String name) throws IOException, InterruptedException {
		if (!this.quick) {
			return new Lease(start(name), true, false);
		}
		boolean fresh = this.local == null;
		if (fresh) {
			this.local = start("quick-local");
		}
		return new Lease(this.local, fresh, true);
	}

	/**
	 * A singlenode on the Kafka bus with its defaults ({@link Suites#KAFKA}): the shared one under {@code --quick},
	 * else a fresh one named {@code name} with {@code extra} arguments.
	 */
	Lease kafka(String name, String... extra) throws IOException, InterruptedException {
		this.bench.ensureBroker();
		if (!this.quick) {
			List<String> args = new ArrayList<>(List.of(Suites.KAFKA));
			args.addAll(List.of(extra));
			return new Lease(start(name, args.toArray(String[]::new)), true, false);
		}
		boolean fresh = this.kafka == null;
		if (fresh) {
			List<String> args = new ArrayList<>(List.of(Suites.KAFKA));
			args.addAll(ContentionDatabase.dataSource(contentionDatabasePort()));
			this.kafka = start("quick-kafka", args.toArray(String[]::new));
		}
		return new Lease(this.kafka, fresh, true);
	}

	/**
	 * A singlenode on the Kafka bus with raw records and the seed's settings ({@link KafkaBench#SINGLENODE}), named
	 * {@code name}; under {@code --quick} the shared one of {@link #kafka}, whose records carry headers: one JVM fewer
	 * to start, the streams setting the rest ({@link KafkaBench#STREAM}).
	 */
	Lease raw(String name) throws IOException, InterruptedException {
		this.bench.ensureBroker();
		return this.quick ? kafka(name) : new Lease(start(name, KafkaBench.SINGLENODE), true, false);
	}

	/**
	 * Under {@code --quick}, the port the {@code contention} suite's PostgreSQL listens on, the one the shared Kafka
	 * singlenode's data source names; reserved (found free) on first use.
	 */
	int contentionDatabasePort() {
		if (this.contentionDatabasePort == 0) {
			this.contentionDatabasePort = Net.freePort(15432);
		}
		return this.contentionDatabasePort;
	}

	private Singlenode start(String name, String... args) throws IOException, InterruptedException {
		return Singlenode.start(this.bench, this.work, name, Bench.serverJavaOptions(), args);
	}

	/** Stops the shared singlenodes, both at once. */
	@Override
	public void close() {
		CompletableFuture.allOf(Stream.of(this.local, this.kafka)
			.filter(Objects::nonNull)
			.map(singlenode -> CompletableFuture.runAsync(singlenode::close))
			.toArray(CompletableFuture[]::new)).join();
		this.local = null;
		this.kafka = null;
	}
}
