package io.xd.benchmarks.runner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command lines of {@code bin/xd-bench} ({@code [--quick] [SUITE ...]}) and {@code bin/kafka-bench}
 * ({@code [--sizes S,...] [--records SIZE=COUNT,...] [--rounds R]}). Bad arguments are an
 * {@link IllegalArgumentException} whose message a user can act on.
 */
final class BenchOptions {

	/** Every suite of {@code bin/xd-bench}, in the order they run by default. */
	static final List<String> SUITES = List.of("direct", "kafka", "latency", "saturation", "partitions", "tuning",
			"footprint", "exactly-once", "contention");

	/** Suites that run only when named: longer than the default run can afford. */
	static final List<String> NAMED_ONLY = List.of("peer", "chaos");

	/** Record counts of {@code bin/kafka-bench} per message size: 15-20 s per side on 2 vCPUs. */
	static final Map<Integer, Long> KAFKA_RECORDS = Map.of(100, 8_000_000L, 1000, 2_000_000L, 10_000, 200_000L,
			100_000, 20_000L);

	/** The message sizes of {@code bin/kafka-bench} and of the {@code kafka} suite. */
	static final List<Integer> KAFKA_SIZES = List.of(100, 1000, 10_000, 100_000);

	/** The message sizes of the {@code kafka} suite under {@code --quick}. */
	static final List<Integer> QUICK_KAFKA_SIZES = List.of(100, 1000);

	/** The record counts of the {@code kafka} suite under {@code --quick}. */
	static final String QUICK_KAFKA_RECORDS = "100=500000,1000=150000";

	private BenchOptions() {
	}

	/**
	 * {@code bin/xd-bench}'s options.
	 *
	 * @param quick every suite briefly
	 * @param suites the suites to run, in {@link #SUITES} order when none were named (never {@link #NAMED_ONLY})
	 * @param help whether help was asked for
	 * @param seed the {@code chaos} suite's {@code --seed}, or {@code null} for a random one
	 * @param duration the {@code chaos} suite's {@code --duration}, or {@code null} for its default
	 * @param brokers the {@code chaos} suite's {@code --brokers}: 1 (the default) or 3
	 * @param rounds the {@code peer} suite's {@code --rounds}, or {@code null} for its default
	 */
	record XdBench(boolean quick, List<String> suites, boolean help, Long seed, Duration duration, int brokers,
			Integer rounds) {

		XdBench(boolean quick, List<String> suites, boolean help) {
			this(quick, suites, help, null, null, 1, null);
		}
	}

	/**
	 * {@code bin/kafka-bench}'s options.
	 *
	 * @param sizes the message sizes, in the order given
	 * @param records the record count of each size
	 * @param rounds how many times to run every size on each side (the best is kept)
	 * @param help whether help was asked for
	 */
	record KafkaBench(List<Integer> sizes, Map<Integer, Long> records, int rounds, boolean help) {
	}

	static XdBench xdBench(String... args) {
		boolean quick = false;
		Long seed = null;
		Duration duration = null;
		int brokers = 1;
		Integer rounds = null;
		List<String> suites = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			if (arg.equals("--quick")) {
				quick = true;
			}
			else if (arg.equals("--rounds")) {
				if (i + 1 >= args.length) {
					throw new IllegalArgumentException(arg + " needs a value (see --help)");
				}
				rounds = positive(args[++i], "--rounds");
			}
			else if (arg.equals("--brokers")) {
				if (i + 1 >= args.length) {
					throw new IllegalArgumentException(arg + " needs a value (see --help)");
				}
				String value = args[++i];
				if (!value.equals("1") && !value.equals("3")) {
					throw new IllegalArgumentException("--brokers takes 1 or 3, not '" + value + "'");
				}
				brokers = Integer.parseInt(value);
			}
			else if (arg.equals("--seed") || arg.equals("--duration")) {
				if (i + 1 >= args.length) {
					throw new IllegalArgumentException(arg + " needs a value (see --help)");
				}
				String value = args[++i];
				if (arg.equals("--seed")) {
					try {
						seed = Long.parseLong(value);
					}
					catch (NumberFormatException ex) {
						throw new IllegalArgumentException("--seed takes a whole number, not '" + value + "'");
					}
				}
				else {
					duration = duration(value);
				}
			}
			else if (arg.equals("-h") || arg.equals("--help")) {
				return new XdBench(quick, SUITES, true);
			}
			else if (SUITES.contains(arg) || NAMED_ONLY.contains(arg)) {
				suites.add(arg);
			}
			else {
				throw new IllegalArgumentException("Unknown argument: " + arg + " (see --help)");
			}
		}
		return new XdBench(quick, suites.isEmpty() ? SUITES : List.copyOf(suites), false, seed, duration, brokers,
				rounds);
	}

	/** {@code 90s}, {@code 10m}, {@code 1h}: a positive whole number of seconds, minutes or hours. */
	static Duration duration(String text) {
		Matcher matcher = Pattern.compile("([0-9]{1,6})([smh])").matcher(text.strip());
		if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
			throw new IllegalArgumentException("--duration takes a positive number with s, m or h (90s, 10m, 1h), not '"
					+ text + "'");
		}
		long amount = Long.parseLong(matcher.group(1));
		return switch (matcher.group(2)) {
			case "s" -> Duration.ofSeconds(amount);
			case "m" -> Duration.ofMinutes(amount);
			default -> Duration.ofHours(amount);
		};
	}

	static KafkaBench kafkaBench(String... args) {
		String sizes = "100,1000,10000,100000";
		String records = "";
		int rounds = 1;
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			switch (arg) {
				case "-h", "--help" -> {
					return new KafkaBench(List.of(), Map.of(), 1, true);
				}
				case "--sizes", "--records", "--rounds" -> {
					if (i + 1 >= args.length) {
						throw new IllegalArgumentException(arg + " needs a value (see --help)");
					}
					String value = args[++i];
					if (arg.equals("--sizes")) {
						sizes = value;
					}
					else if (arg.equals("--records")) {
						records = value;
					}
					else {
						rounds = positive(value, "--rounds");
					}
				}
				default -> throw new IllegalArgumentException("Unknown argument: " + arg + " (see --help)");
			}
		}
		Map<Integer, Long> counts = records(records);
		List<Integer> sizeList = new ArrayList<>();
		for (String size : sizes.split(",")) {
			int value = positive(size.strip(), "--sizes");
			if (!counts.containsKey(value)) {
				throw new IllegalArgumentException("No record count for size " + value + ": give one with --records "
						+ value + "=COUNT");
			}
			sizeList.add(value);
		}
		return new KafkaBench(List.copyOf(sizeList), counts, rounds, false);
	}

	/** The default record counts with those of {@code SIZE=COUNT,...} replaced. */
	static Map<Integer, Long> records(String overrides) {
		Map<Integer, Long> counts = new LinkedHashMap<>(KAFKA_RECORDS);
		if (overrides.isBlank()) {
			return counts;
		}
		for (String pair : overrides.split(",")) {
			String[] parts = pair.strip().split("=", -1);
			if (parts.length != 2 || !parts[0].matches("[0-9]+") || !parts[1].matches("[0-9]+")) {
				throw new IllegalArgumentException(
						"--records takes SIZE=COUNT pairs separated by commas, not '" + pair + "'");
			}
			counts.put(positive(parts[0], "--records"), (long) positive(parts[1], "--records"));
		}
		return counts;
	}

	private static int positive(String text, String option) {
		try {
			int value = Integer.parseInt(text);
			if (value > 0) {
				return value;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException(option + " takes positive whole numbers, not '" + text + "'");
	}
}
