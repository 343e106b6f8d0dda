package io.xd.benchmarks.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

	private final Map<Case, Map<String, List<Double>>> rounds = new LinkedHashMap<>();

	/**
	 * Records one round's rate of {@code side} ({@link #XD} or {@link #STREAMS}) in {@code mode}; an n/a figure
	 * is kept as a round without a rate, which the median leaves out.
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

	private static SuiteJson.Rounded ratio(Figure numerator, Figure denominator) {
		return SuiteJson.rounded(numerator.dividedBy(denominator), 2);
	}

	private List<Double> rounds(Case key, String side, String mode) {
		return this.rounds.getOrDefault(key, Map.of()).getOrDefault(side + " " + mode, List.of());
	}
}
