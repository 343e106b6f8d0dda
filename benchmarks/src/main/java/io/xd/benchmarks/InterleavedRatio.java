package io.xd.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.DoubleHistogram;

/**
 * The deployed chain and the plain call chain of {@link DeployedChainBenchmark}, measured in turns in one JVM: a
 * slice of about 2 ms of one, then of the other, the order swapped each round, for a given time after a warm-up.
 * The ratio of their rates is then measured under the same machine conditions: on a shared machine the speed of
 * both moves by up to ±20% from one minute to the next, which a JMH run (one benchmark after the other, in separate
 * forks) takes into its ratio, and which slices this short cancel. Also reports the bytes each chain allocates per
 * message, read from the thread's allocation counter: the deployed chain should allocate the payload and nothing
 * else.
 * <p>
 * Usage: {@code InterleavedRatio <messageSize> [seconds [warmupSeconds]]} (defaults 10 and 5) prints one Markdown
 * table row; {@code InterleavedRatio --header} prints the table's header. {@code bin/xd-bench-direct --interleaved}
 * runs it for each size in its own JVM.
 */
public final class InterleavedRatio {

	/** The header of the rows {@link #main} prints. */
	static final String HEADER = """
			| size | rounds | deployed chain | plain call chain | deployed / plain | per round: median (quartiles) \
			| bytes allocated per message, deployed / plain |
			|---:|---:|---:|---:|---:|---|---|""";

	/** How long a slice of one chain lasts, about. */
	private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	private final DeployedChainBenchmark chains = new DeployedChainBenchmark();

	/** Benchmark calls per slice ({@link DeployedChainBenchmark#BATCH} messages each), set after the warm-up. */
	private int callsPerSlice = 1;

	private InterleavedRatio(int messageSize) {
		this.chains.messageSize = messageSize;
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 1 && args[0].equals("--header")) {
			System.out.println(HEADER);
			return;
		}
		if (args.length < 1 || args.length > 3) {
			System.err.println("usage: InterleavedRatio --header | <messageSize> [seconds [warmupSeconds]]");
			System.exit(2);
		}
		int size = Integer.parseInt(args[0]);
		long seconds = (args.length > 1) ? Long.parseLong(args[1]) : 10;
		long warmup = (args.length > 2) ? Long.parseLong(args[2]) : 5;
		InterleavedRatio ratio = new InterleavedRatio(size);
		ratio.chains.setUp();
		try {
			ratio.warmUp(TimeUnit.SECONDS.toNanos(warmup));
			System.out.println(ratio.measure(TimeUnit.SECONDS.toNanos(seconds)).row(size));
		}
		finally {
			ratio.chains.tearDown();
		}
	}

	/** Runs both chains in turns, then sizes the slices from the deployed chain's speed. */
	void warmUp(long nanos) {
		long end = System.nanoTime() + nanos;
		long calls = 0;
		long start = System.nanoTime();
		while (System.nanoTime() < end) {
			this.chains.xdDeployedChain();
			this.chains.plainCallChain();
			calls++;
		}
		long perCall = Math.max(1, (System.nanoTime() - start) / (2 * Math.max(1, calls)));
		this.callsPerSlice = (int) Math.max(1, Math.min(Integer.MAX_VALUE, SLICE_NANOS / perCall));
	}

	/** Measures both chains in turns for about {@code nanos}. */
	Result measure(long nanos) {
		DoubleHistogram perRound = new DoubleHistogram(3);
		long deployedNanos = 0;
		long plainNanos = 0;
		int rounds = 0;
		long end = System.nanoTime() + nanos;
		while (System.nanoTime() < end) {
			long deployed;
			long plain;
			if ((rounds & 1) == 0) {
				deployed = deployedSlice();
				plain = plainSlice();
			}
			else {
				plain = plainSlice();
				deployed = deployedSlice();
			}
			deployedNanos += deployed;
			plainNanos += plain;
			perRound.recordValue((double) plain / deployed);
			rounds++;
		}
		long messagesPerSlice = (long) this.callsPerSlice * DeployedChainBenchmark.BATCH;
		return new Result(rounds, messagesPerSlice * rounds, deployedNanos, plainNanos,
				perRound.getValueAtPercentile(25), perRound.getValueAtPercentile(50), perRound.getValueAtPercentile(75),
				allocatedPerMessage(true), allocatedPerMessage(false));
	}

	private long deployedSlice() {
		long start = System.nanoTime();
		for (int i = 0; i < this.callsPerSlice; i++) {
			this.chains.xdDeployedChain();
		}
		return System.nanoTime() - start;
	}

	private long plainSlice() {
		long start = System.nanoTime();
		for (int i = 0; i < this.callsPerSlice; i++) {
			this.chains.plainCallChain();
		}
		return System.nanoTime() - start;
	}

	/** Bytes the calling thread allocates per message in one slice of a chain, or -1 when the JVM cannot tell. */
	private double allocatedPerMessage(boolean deployed) {
		if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
				|| !threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
			return -1;
		}
		long before = threads.getCurrentThreadAllocatedBytes();
		if (deployed) {
			deployedSlice();
		}
		else {
			plainSlice();
		}
		long after = threads.getCurrentThreadAllocatedBytes();
		return (after - before) / ((double) this.callsPerSlice * DeployedChainBenchmark.BATCH);
	}

	/**
	 * What one measurement found: the messages each chain sent in all its slices, the time each took, the quartiles
	 * of the rounds' ratios, the allocation per message.
	 */
	record Result(int rounds, long messagesEach, long deployedNanos, long plainNanos, double p25, double median,
			double p75, double deployedAllocated, double plainAllocated) {

		double deployedRate() {
			return this.messagesEach * 1e9 / this.deployedNanos;
		}

		double plainRate() {
			return this.messagesEach * 1e9 / this.plainNanos;
		}

		/** The deployed chain's rate over the plain chain's, over all slices. */
		double ratio() {
			return (double) this.plainNanos / this.deployedNanos;
		}

		String row(int size) {
			return String.format(Locale.ROOT,
					"| %,d | %,d | %s msg/s | %s msg/s | **%.3f** | %.3f (%.3f-%.3f) | %.0f / %.0f |", size,
					this.rounds, ReportFormat.compact(deployedRate()), ReportFormat.compact(plainRate()), ratio(),
					this.median, this.p25, this.p75, this.deployedAllocated, this.plainAllocated);
		}
	}
}
