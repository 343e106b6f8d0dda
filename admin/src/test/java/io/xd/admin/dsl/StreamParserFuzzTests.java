package io.xd.admin.dsl;

import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Feeds the parser thousands of mutated definitions and checks that it either returns a well-formed stream or throws
 * a well-formed {@link DslException}, never anything else. The seed is fixed so a failure can be replayed; set
 * {@code -Dxd.dsl.fuzz.seed=N} to explore other inputs.
 */
class StreamParserFuzzTests {

	private static final long SEED = Long.getLong("xd.dsl.fuzz.seed", 0x5D15EA5EL);

	private static final int INPUTS = 20_000;

	private static final List<String> CORPUS = List.of(
			"time | log",
			"time",
			"ticktock = time --interval=5 | log",
			"s=time|log",
			"http --port=9000 | transform --expression=payload.toUpperCase() | log",
			"http | t1: transform | t2: transform | log",
			"lbl:time --format=HH:mm:ss > queue:ticks",
			"queue:ticks > log",
			"topic:news.eu > filter --expression='payload > 5' | file --dir=/tmp/out",
			"queue:a > topic:b",
			"tap:stream:ticktock > counter",
			"tap:stream:ticktock.time > log --level=WARN",
			"tap:queue:orders > log",
			"tap:topic:news > transform | log",
			"tap:stream:s.t > queue:copy",
			"名前 = time | log",
			"x-1 = queue:in > transform --expression=--payload > topic:out",
			"time --a.b.c=1 --d='x | y; z' | log",
			"transform --expression='payload+''hi''' | log",
			"time --a=\"say \"\"x\"\"\" | log",
			"time --a='hi'+payload --b=a'b c' | log",
			"time --a=b=c --e=\"it's\" | log",
			"time\n|\ttransform\r\n| log",
			"load-generator --producers=4 --messageSize=1000 --messageCount=100000 | throughput --reportEveryMs=1000",
			"http | splitter | aggregator --timeout=5000 | router --expression=headers['t'] | log",
			"t = first: time | second: transform --script='a\\b' | log",
			"$cash = time | log",
			"time --x='' | log --y=\"\"",
			"queue:a.b.c > p1 | p2 | p3 > topic:d.e",
			"Straße-1 = tap:stream:poll.p2 > hdfs --rollover=10M");

	private static final String ALPHABET = "|>:=-.'\"\\ ;\t\n\rabcqtxyz_$ABZ0189éß名\u0000\u0007\u001F\u200B\u00A0#@";

	private static final List<String> FRAGMENTS = List.of("--", " --", " | ", "|", " > ", ">", ":", "queue:", "topic:",
			"tap:", "tap:stream:", "stream:", "job:", "'", "\"", "''", "=", " = ", ".", "\uD835\uDCB3", "\uD835",
			"bridge", "time", "log");

	private final StreamParser parser = new StreamParser();

	@Test
	void acceptsEveryCorpusEntry() {
		for (String definition : CORPUS) {
			assertThat(this.parser.parse(definition).modules()).as(definition).isNotEmpty();
		}
	}

	@Test
	void answersEveryMutatedDefinitionWithAStreamOrADslException() {
		Random random = new Random(SEED);
		int parsed = 0;
		Set<DslErrorCode> seen = EnumSet.noneOf(DslErrorCode.class);
		for (int i = 0; i < INPUTS; i++) {
			String input = mutate(random);
			try {
				StreamDefinition definition = this.parser.parse(input);
				checkDefinition(input, definition);
				parsed++;
			}
			catch (DslException ex) {
				checkException(input, ex);
				seen.add(ex.code());
			}
			catch (Throwable ex) {
				throw new AssertionError(describe(i, input) + " threw " + ex, ex);
			}
		}
		// a fuzzer that only ever produces errors, or never does, would prove little
		assertThat(parsed).as("inputs that parsed (seed %d)", SEED).isBetween(INPUTS / 50, INPUTS - INPUTS / 50);
		assertThat(seen).as("error codes reached (seed %d)", SEED).hasSizeGreaterThanOrEqualTo(12);
	}

	private String mutate(Random random) {
		StringBuilder text = new StringBuilder(pick(random, CORPUS));
		int mutations = 1 + random.nextInt(4);
		for (int m = 0; m < mutations; m++) {
			int length = text.length();
			int at = random.nextInt(length + 1);
			switch (random.nextInt(8)) {
				case 0 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
				case 1 -> {
					if (length > 0) {
						int from = Math.min(at, length - 1);
						text.delete(from, Math.min(length, from + 1 + random.nextInt(3)));
					}
				}
				case 2 -> {
					if (length > 0) {
						text.setCharAt(Math.min(at, length - 1), ALPHABET.charAt(random.nextInt(ALPHABET.length())));
					}
				}
				case 3 -> {
					int end = Math.min(length, at + 1 + random.nextInt(6));
					text.insert(at, text.substring(at, end));
				}
				case 4 -> {
					int other = random.nextInt(length + 1);
					int first = Math.min(at, other);
					int second = Math.max(at, other);
					int width = Math.min(1 + random.nextInt(5), (second - first) / 2);
					if (width > 0) {
						String a = text.substring(first, first + width);
						String b = text.substring(second - width, second);
						text.replace(second - width, second, a);
						text.replace(first, first + width, b);
					}
				}
				case 5 -> text.setLength(at);
				case 6 -> {
					String other = pick(random, CORPUS);
					text.setLength(at);
					text.append(other, random.nextInt(other.length() + 1), other.length());
				}
				default -> text.insert(at, pick(random, FRAGMENTS));
			}
		}
		return text.toString();
	}

	private static String pick(Random random, List<String> choices) {
		return choices.get(random.nextInt(choices.size()));
	}

	private static void checkDefinition(String input, StreamDefinition definition) {
		if (definition == null || definition.modules() == null || definition.modules().isEmpty()
				|| !input.equals(definition.text())) {
			fail("parsed into an incomplete definition " + definition + " from " + escape(input) + seedNote());
		}
		for (StreamModule module : definition.modules()) {
			boolean wellFormed = module.name() != null && !module.name().isEmpty() && module.label() != null
					&& !module.label().isEmpty() && module.type() != null && module.options() != null
					&& module.position() >= 0 && module.position() < input.length();
			boolean bridge = definition.sourceChannel() != null && definition.sinkChannel() != null
					&& module.name().equals("bridge") && input.charAt(module.position()) == '>';
			if (!wellFormed || !(bridge || input.startsWith(module.name(), module.position()))) {
				fail("parsed into a malformed module " + module + " from " + escape(input) + seedNote());
			}
		}
	}

	private static void checkException(String input, DslException ex) {
		String message = ex.getMessage();
		String[] lines = message == null ? new String[0] : message.split("\n", -1);
		boolean wellFormed = ex.code() != null && ex.position() >= 0 && ex.position() <= input.length()
				&& input.equals(ex.definition()) && lines.length == 3
				&& lines[0].startsWith(ex.code().code() + ":(pos " + ex.position() + "): ")
				&& lines[2].length() == ex.position() + 1 && lines[2].endsWith("^");
		if (!wellFormed) {
			fail("malformed DslException for " + escape(input) + seedNote() + ":\n" + message);
		}
	}

	private static String describe(int iteration, String input) {
		return "input #" + iteration + " " + escape(input) + seedNote();
	}

	private static String seedNote() {
		return " (seed " + SEED + ")";
	}

	/** The input as a Java string literal, so a failing case can be pasted into a unit test. */
	private static String escape(String input) {
		StringBuilder literal = new StringBuilder("\"");
		for (int i = 0; i < input.length(); i++) {
			char c = input.charAt(i);
			switch (c) {
				case '"' -> literal.append("\\\"");
				case '\\' -> literal.append("\\\\");
				case '\n' -> literal.append("\\n");
				case '\t' -> literal.append("\\t");
				case '\r' -> literal.append("\\r");
				default -> {
					if (c < 0x20 || c > 0x7E) {
						literal.append(String.format("\\u%04X", (int) c));
					}
					else {
						literal.append(c);
					}
				}
			}
		}
		return literal.append('"').toString();
	}
}
