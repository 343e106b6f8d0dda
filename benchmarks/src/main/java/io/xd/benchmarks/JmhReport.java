package io.xd.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a JMH JSON result into the tables people read: every benchmark's rate per parameter set (and MB/s where
 * there is a {@code messageSize}), then each candidate's ratio to its baseline from the same run, checked against
 * the minimum ratios committed in a thresholds file. Never compares against an absolute time.
 * <p>
 * Usage: {@code JmhReport <result.json> [--thresholds <file>] [--markdown <file>]}. Exits with status 1 when a
 * ratio falls below its threshold, 2 on bad input.
 * <p>
 * A thresholds file has one rule per line, {@code <Benchmark class> <candidate> <baseline> <param=value|*> <min>},
 * for example {@code DirectBindingBenchmark xdDirectBinding plainCallChain messageSize=100 0.45}; {@code #} starts a
 * comment.
 */
public final class JmhReport {

	private final Map<String, Map<String, Map<String, Result>>> byClass = new TreeMap<>();

	private final List<Rule> rules = new ArrayList<>();

	private final StringBuilder markdown = new StringBuilder();

	public static void main(String[] args) throws IOException {
		if (args.length == 0) {
			System.err.println("usage: JmhReport <result.json> [--thresholds <file>] [--markdown <file>]");
			System.exit(2);
		}
		JmhReport report = new JmhReport();
		report.read(Path.of(args[0]));
		Path markdownFile = null;
		for (int i = 1; i + 1 < args.length; i += 2) {
			switch (args[i]) {
				case "--thresholds" -> report.readRules(Path.of(args[i + 1]));
				case "--markdown" -> markdownFile = Path.of(args[i + 1]);
				default -> {
					System.err.println("unknown argument " + args[i]);
					System.exit(2);
				}
			}
		}
		report.printTables();
		boolean passed = report.checkRules();
		if (markdownFile != null) {
			Files.writeString(markdownFile, report.markdown);
		}
		System.exit(passed ? 0 : 1);
	}

	void read(Path json) throws IOException {
		JsonNode root = JsonMapper.builder().build().readTree(Files.readString(json));
		for (JsonNode run : root) {
			String benchmark = run.get("benchmark").asString();
			int dot = benchmark.lastIndexOf('.');
			String className = benchmark.substring(benchmark.lastIndexOf('.', dot - 1) + 1, dot);
			String method = benchmark.substring(dot + 1);
			Map<String, String> params = new TreeMap<>();
			JsonNode paramNode = run.get("params");
			if (paramNode != null) {
				paramNode.properties().forEach(entry -> params.put(entry.getKey(), entry.getValue().asString()));
			}
			JsonNode primary = run.get("primaryMetric");
			Result result = new Result(primary.get("score").asDouble(), primary.get("scoreError").asDouble(),
					primary.get("scoreUnit").asString(), params);
			this.byClass.computeIfAbsent(className, key -> new TreeMap<>())
				.computeIfAbsent(key(params), key -> new LinkedHashMap<>())
				.put(method, result);
		}
	}

	void readRules(Path file) throws IOException {
		for (String line : Files.readAllLines(file)) {
			String text = line.replaceFirst("#.*", "").trim();
			if (text.isEmpty()) {
				continue;
			}
			String[] parts = text.split("\\s+");
			if (parts.length != 5) {
				throw new IllegalArgumentException("A threshold rule has 5 fields: " + line);
			}
			this.rules.add(new Rule(parts[0], parts[1], parts[2], parts[3], Double.parseDouble(parts[4])));
		}
	}

	void printTables() {
		this.byClass.forEach((className, rows) -> {
			Set<String> methods = new LinkedHashSet<>();
			rows.values().forEach(row -> methods.addAll(row.keySet()));
			boolean sized = rows.values().stream().flatMap(row -> row.values().stream())
				.anyMatch(result -> result.params().containsKey("messageSize"));
			emit("");
			emit("### " + className + (sized ? " (msg/s, MB/s; ± is JMH's 99.9% error)" : ""));
			emit("");
			StringBuilder header = new StringBuilder("| params |");
			StringBuilder rule = new StringBuilder("|---|");
			for (String method : methods) {
				header.append(' ').append(method).append(" |");
				rule.append("---:|");
			}
			emit(header.toString());
			emit(rule.toString());
			rows.forEach((params, row) -> {
				StringBuilder line = new StringBuilder("| ").append(params).append(" |");
				for (String method : methods) {
					Result result = row.get(method);
					line.append(' ').append(result == null ? "" : result.describe()).append(" |");
				}
				emit(line.toString());
			});
		});
	}

	boolean checkRules() {
		if (this.rules.isEmpty()) {
			return true;
		}
		boolean passed = true;
		emit("");
		emit("### Ratios to in-run baselines");
		emit("");
		emit("| benchmark | params | candidate / baseline | ratio | minimum | verdict |");
		emit("|---|---|---|---:|---:|---|");
		for (Rule rule : this.rules) {
			Map<String, Map<String, Result>> rows = this.byClass.getOrDefault(rule.className(), Map.of());
			boolean matched = false;
			for (Map.Entry<String, Map<String, Result>> row : rows.entrySet()) {
				if (!rule.params().equals("*") && !row.getKey().equals(rule.params())) {
					continue;
				}
				Result candidate = row.getValue().get(rule.candidate());
				Result baseline = row.getValue().get(rule.baseline());
				if (candidate == null || baseline == null) {
					continue;
				}
				matched = true;
				double ratio = candidate.score() / baseline.score();
				boolean ok = ratio >= rule.minimum();
				passed &= ok;
				emit(String.format(Locale.ROOT, "| %s | %s | %s / %s | %.2f | %.2f | %s |", rule.className(),
						row.getKey(), rule.candidate(), rule.baseline(), ratio, rule.minimum(), ok ? "ok" : "BELOW"));
			}
			if (!matched) {
				passed = false;
				emit("| " + rule.className() + " | " + rule.params() + " | " + rule.candidate() + " / "
						+ rule.baseline() + " | | " + rule.minimum() + " | MISSING from the results |");
			}
		}
		return passed;
	}

	private void emit(String line) {
		System.out.println(line);
		this.markdown.append(line).append('\n');
	}

	private static String key(Map<String, String> params) {
		if (params.isEmpty()) {
			return "-";
		}
		StringBuilder text = new StringBuilder();
		params.forEach((name, value) -> text.append(text.isEmpty() ? "" : ",").append(name).append('=').append(value));
		return text.toString();
	}

	record Result(double score, double error, String unit, Map<String, String> params) {

		String describe() {
			String text = String.format(Locale.ROOT, "%,.0f ± %,.0f %s", this.score, this.error, this.unit);
			String size = this.params.get("messageSize");
			if (size != null && this.unit.equals("ops/s")) {
				text += String.format(Locale.ROOT, " (%,.0f MB/s)", this.score * Long.parseLong(size) / 1048576.0);
			}
			return text;
		}
	}

	record Rule(String className, String candidate, String baseline, String params, double minimum) {
	}
}
