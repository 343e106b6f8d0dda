package io.xd.benchmarks.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The {@code peer} suite's measurements and the table made of them: the rounds of each case on each side, their
 * medians, and the ratios XD / Kafka Streams per delivery mode and at-least-once / exactly-once per side. Rows come in
 * the order their cases were first measured. Not thread-safe.
 */
final class PeerTable {

	static final String XD = "XD";

	static final String STREAMS = "Kafka Streams";

	static final String AT_LEAST_ONCE = "at-least-once";

	static final String EXACTLY_ONCE = "exactly-once";

	static final List<String> COLUMNS = List.of("hop", "size (bytes)", "partitions", "stream",
			"XD at-least-once msg/s", "Kafka Streams at-least-once msg/s", "XD / Kafka Streams at-least-once",
			"XD exactly-once msg/s", "Kafka Streams exactly-once msg/s", "XD / Kafka Streams exactly-once",
			"XD at-least-once / exactly-once", "Kafka Streams at-least-once / exactly-once",
			"rounds msg/s (XD, Kafka Streams at-least-once; XD, Kafka Streams exactly-once)");

	/**
	 * One row of the table: a hop at a size over a number of partitions, in a fresh JVM's first stream or a later one.
	 *
	 * @param hop {@code bridge} or {@code transform}
	 * @param size the record size in bytes
	 * @param partitions the input and output topics' partitions
	 * @param stream {@code first} or {@code later}
	 */
	record Case(String hop, int size, int partitions, String stream) {
	}

	/**
	 * What exactly-once costs beside at-least-once on one side, measurement by measurement: each round measures both
	 * modes of a case side by side (PeerSuite), so their ratio leaves out much of what moves from one minute to the
	 * next (the machine is shared), and pooling the ratios of many cases says more than any one case's medians can.
	 *
	 * @param pairs the pairs of measurements (the n-th of each mode in a case) with a rate in both modes
	 * @param median the median of their ratios exactly-once / at-least-once: below 1, at-least-once is faster
	 * @param low the lower end of a 95% interval for that median, n/a under 6 pairs
	 * @param high the upper end of that interval
	 * @param atLeastOnceAhead the pairs in which at-least-once was at least as fast as exactly-once
	 */
	record ModeCost(int pairs, Figure median, Figure low, Figure high, int atLeastOnceAhead) {

		/** Such as {@code 0.966 (95% interval 0.945-0.980) over 80 pairs, at-least-once at least as fast in 54}. */
		String describe() {
			String interval = this.low.isPresent() ? "95% interval " + this.low.format("%.3f") + "-"
					+ this.high.format("%.3f") : "no interval under 6 pairs";
			return this.median.format("%.3f") + " (" + interval + ") over " + this.pairs
					+ " pairs, at-least-once at least as fast in " + this.atLeastOnceAhead;
		}
	}

	private final Map<Case, Map<String, List<Double>>> rounds = new LinkedHashMap<>();

	/**
	 * Records one measurement's rate of {@code side} ({@link #XD} or {@link #STREAMS}) in {@code mode}, in the order
	 * measured (one per round, or more); an n/a figure is kept as a measurement without a rate, which the median
	 * leaves out.
	 */
	void add(Case key, String side, String mode, Figure rate) {
		this.rounds.computeIfAbsent(key, k -> new LinkedHashMap<>())
			.computeIfAbsent(side + " " + mode, k -> new ArrayList<>())
			.add(rate.isPresent() ? rate.get() : Double.NaN);
	}

	/** The cases measured, in the order they were first measured. */
	List<Case> cases() {
		return List.copyOf(this.rounds.keySet());
	}

	/** The median of a side's rounds in a mode; n/a when none measured a rate. */
	Figure median(Case key, String side, String mode) {
		List<Double> measured = rounds(key, side, mode);
		return measured.isEmpty() ? Figure.na("not measured") : Suites.median(measured);
	}

	/** The table's rows, one per case, in {@link #COLUMNS} order: medians, ratios (two decimals), the rounds. */
	List<Object[]> rows() {
		List<Object[]> rows = new ArrayList<>();
		for (Case key : this.rounds.keySet()) {
			Figure xdAtLeastOnce = median(key, XD, AT_LEAST_ONCE);
			Figure streamsAtLeastOnce = median(key, STREAMS, AT_LEAST_ONCE);
			Figure xdExactlyOnce = median(key, XD, EXACTLY_ONCE);
			Figure streamsExactlyOnce = median(key, STREAMS, EXACTLY_ONCE);
			rows.add(new Object[] { key.hop(), key.size(), key.partitions(), key.stream(), xdAtLeastOnce,
					streamsAtLeastOnce, ratio(xdAtLeastOnce, streamsAtLeastOnce), xdExactlyOnce, streamsExactlyOnce,
					ratio(xdExactlyOnce, streamsExactlyOnce), ratio(xdAtLeastOnce, xdExactlyOnce),
					ratio(streamsAtLeastOnce, streamsExactlyOnce),
					Suites.rounds(rounds(key, XD, AT_LEAST_ONCE)) + "; " + Suites.rounds(rounds(key, STREAMS, AT_LEAST_ONCE))
							+ " | " + Suites.rounds(rounds(key, XD, EXACTLY_ONCE)) + "; "
							+ Suites.rounds(rounds(key, STREAMS, EXACTLY_ONCE)) });
		}
		return rows;
	}

	/** The ratio XD / Kafka Streams of the medians in {@code mode}, per case. */
	Figure ratio(Case key, String mode) {
		return median(key, XD, mode).dividedBy(median(key, STREAMS, mode));
	}

	/**
	 * Exactly-once / at-least-once on {@code side} over the cases {@code which} accepts, pairing each case's
	 * measurements in the order they were measured: the n-th of one mode with the n-th of the other. The interval is distribution-free: the order statistics of the ratios that
	 * the binomial distribution puts around their median, so it holds whatever the spread of the rounds.
	 */
	ModeCost modeCost(String side, Predicate<Case> which) {
		List<Double> ratios = new ArrayList<>();
		int ahead = 0;
		for (Case key : this.rounds.keySet()) {
			if (!which.test(key)) {
				continue;
			}
			List<Double> atLeastOnce = rounds(key, side, AT_LEAST_ONCE);
			List<Double> exactlyOnce = rounds(key, side, EXACTLY_ONCE);
			for (int i = 0; i < Math.min(atLeastOnce.size(), exactlyOnce.size()); i++) {
				double ratio = exactlyOnce.get(i) / atLeastOnce.get(i);
				if (!Double.isFinite(ratio)) {
					continue;
				}
				ratios.add(ratio);
				if (ratio <= 1.0) {
					ahead++;
				}
			}
		}
		Figure median = Suites.median(ratios);
		int n = ratios.size();
		// the rank r with P(X < r) < 2.5% for X ~ B(n, 1/2): [x(r), x(n - r + 1)] covers the median at least 95%
		int rank = (n == 0) ? 0 : new BinomialDistribution(null, n, 0.5).inverseCumulativeProbability(0.025);
		if (rank < 1) {
			Figure none = Figure.na("fewer than 6 pairs");
			return new ModeCost(n, median, none, none, ahead);
		}
		List<Double> sorted = ratios.stream().sorted().toList();
		return new ModeCost(n, median, Figure.of(sorted.get(rank - 1)), Figure.of(sorted.get(n - rank)), ahead);
	}

	private static SuiteJson.Rounded ratio(Figure numerator, Figure denominator) {
		return SuiteJson.rounded(numerator.dividedBy(denominator), 2);
	}

	private List<Double> rounds(Case key, String side, String mode) {
		return this.rounds.getOrDefault(key, Map.of()).getOrDefault(side + " " + mode, List.of());
	}
}
