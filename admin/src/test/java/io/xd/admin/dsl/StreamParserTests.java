package io.xd.admin.dsl;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.xd.admin.dsl.ChannelReference.Kind;
import io.xd.modules.ModuleType;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamParserTests {

	private final StreamParser parser = new StreamParser();

	private StreamDefinition parse(String definition) {
		return this.parser.parse(definition);
	}

	private DslException error(String definition) {
		try {
			StreamDefinition parsed = this.parser.parse(definition);
			throw new AssertionError("expected a DslException for <" + definition + "> but parsed " + parsed);
		}
		catch (DslException ex) {
			return ex;
		}
	}

	/** Asserts the code, the position, and that the message names what was expected and what was found. */
	private DslException assertError(String definition, DslErrorCode code, int position, String... fragments) {
		DslException ex = error(definition);
		assertThat(ex.code()).as("code of %s", ex.getMessage()).isEqualTo(code);
		assertThat(ex.position()).as("position of %s", ex.getMessage()).isEqualTo(position);
		assertThat(ex.definition()).isEqualTo(definition);
		assertThat(ex.detail()).isNotBlank();
		if (fragments.length > 0) {
			assertThat(ex.detail()).contains(fragments);
		}
		String[] lines = ex.getMessage().split("\n", -1);
		assertThat(lines).hasSize(3);
		assertThat(lines[0]).isEqualTo(code.code() + ":(pos " + position + "): " + ex.detail());
		assertThat(lines[2]).isEqualTo(" ".repeat(position) + "^");
		return ex;
	}

	private static List<ModuleType> types(StreamDefinition definition) {
		return definition.modules().stream().map(StreamModule::type).toList();
	}

	@Nested
	class Modules {

		@Test
		void parsesSourceAndSink() {
			StreamDefinition stream = parse("time | log");
			assertThat(stream.name()).isNull();
			assertThat(stream.text()).isEqualTo("time | log");
			assertThat(stream.sourceChannel()).isNull();
			assertThat(stream.sinkChannel()).isNull();
			assertThat(stream.modules()).containsExactly(
					new StreamModule("time", "time", ModuleType.SOURCE, Map.of(), 0, 0, false),
					new StreamModule("log", "log", ModuleType.SINK, Map.of(), 1, 7, false));
		}

		@Test
		void typesMiddleModulesAsProcessors() {
			StreamDefinition stream = parse("http | transform | filter | log");
			assertThat(types(stream)).containsExactly(ModuleType.SOURCE, ModuleType.PROCESSOR, ModuleType.PROCESSOR,
					ModuleType.SINK);
			assertThat(stream.modules()).extracting(StreamModule::index).containsExactly(0, 1, 2, 3);
			assertThat(stream.modules()).extracting(StreamModule::position).containsExactly(0, 7, 19, 28);
		}

		@Test
		void typesLoneModuleAsSource() {
			StreamDefinition stream = parse("time");
			assertThat(stream.modules()).singleElement().satisfies(module -> {
				assertThat(module.type()).isEqualTo(ModuleType.SOURCE);
				assertThat(module.name()).isEqualTo("time");
			});
		}

		@Test
		void needsNoWhitespaceAroundPipes() {
			assertThat(parse("time|transform|log").modules()).extracting(StreamModule::name)
				.containsExactly("time", "transform", "log");
		}

		@Test
		void treatsTabsNewlinesAndCarriageReturnsAsWhitespace() {
			StreamDefinition stream = parse("time\n|\ttransform\r\n| log ");
			assertThat(stream.modules()).extracting(StreamModule::name).containsExactly("time", "transform", "log");
			assertThat(stream.modules()).extracting(StreamModule::position).containsExactly(0, 7, 20);
		}

		@Test
		void acceptsNamesWithDigitsUnderscoresDollarsAndHyphens() {
			assertThat(parse("my-source_1 | 2nd$sink-").modules()).extracting(StreamModule::name)
				.containsExactly("my-source_1", "2nd$sink-");
		}

		@Test
		void rejectsNonAsciiModuleName() {
			assertError("tïme | log", DslErrorCode.ILLEGAL_NAME, 1, "only ASCII letters", "found 'ï'",
					"module name 'tïme'");
		}

		@Test
		void rejectsModuleNameStartingWithDollar() {
			assertError("time | $log", DslErrorCode.ILLEGAL_NAME, 7, "letter, digit or '_' first", "found '$'",
					"module name '$log'");
		}

		@Test
		void exposesModulesAsUnmodifiableList() {
			StreamDefinition stream = parse("time | log");
			assertThatThrownBy(() -> stream.modules().add(stream.modules().get(0)))
				.isInstanceOf(UnsupportedOperationException.class);
		}
	}

	@Nested
	class StreamNames {

		@ParameterizedTest
		@ValueSource(strings = { "ticktock = time | log", "ticktock=time|log", "ticktock =time | log",
				"ticktock= time | log", "  ticktock\t=\n time | log" })
		void acceptsNamePrefixWithOrWithoutWhitespace(String definition) {
			StreamDefinition stream = parse(definition);
			assertThat(stream.name()).isEqualTo("ticktock");
			assertThat(stream.modules()).extracting(StreamModule::name).containsExactly("time", "log");
			assertThat(stream.modules().get(0).position()).isEqualTo(definition.indexOf("time"));
		}

		@ParameterizedTest
		@ValueSource(strings = { "名前", "ñandú-2", "$cash", "_under", "Straße", "поток", "\uD835\uDCB3ray" })
		void acceptsUnicodeNamesAllowedByJavaIdentifierRules(String name) {
			assertThat(parse(name + " = time | log").name()).isEqualTo(name);
		}

		@Test
		void rejectsNameStartingWithDigit() {
			assertError("1abc = time | log", DslErrorCode.ILLEGAL_STREAM_NAME, 0, "first", "found '1'",
					"stream name '1abc'");
		}

		@Test
		void rejectsInvisibleCharacterInName() {
			assertError("a\u200Bb = time", DslErrorCode.ILLEGAL_STREAM_NAME, 1, "found U+200B");
		}

		@Test
		void rejectsNameEqualToOneOfItsModules() {
			assertError("log = time | log", DslErrorCode.STREAM_NAME_MATCHES_MODULE, 0, "'log'", "pos 13");
		}

		@Test
		void rejectsNameEqualToImplicitBridge() {
			assertError("bridge = queue:a > queue:b", DslErrorCode.STREAM_NAME_MATCHES_MODULE, 0, "'bridge'");
		}

		@Test
		void allowsNameEqualToALabel() {
			assertThat(parse("t = t: time | log").name()).isEqualTo("t");
		}

		@Test
		void rejectsNameWithoutStream() {
			assertError("ticktock =", DslErrorCode.UNEXPECTED_END, 10, "a source channel or a module name after 'ticktock ='");
		}
	}

	@Nested
	class Labels {

		@ParameterizedTest
		@ValueSource(strings = { "t1: time | log", "t1:time | log", "t1:\n  time | log" })
		void acceptsLabelWithOrWithoutWhitespaceAfterColon(String definition) {
			StreamModule time = parse(definition).modules().get(0);
			assertThat(time.label()).isEqualTo("t1");
			assertThat(time.name()).isEqualTo("time");
			assertThat(time.explicitLabel()).isTrue();
			assertThat(time.position()).isEqualTo(definition.indexOf("time"));
		}

		@Test
		void usesModuleNameAsImplicitLabel() {
			StreamModule log = parse("time | log").modules().get(1);
			assertThat(log.label()).isEqualTo("log");
			assertThat(log.explicitLabel()).isFalse();
		}

		@Test
		void findsModulesByLabel() {
			StreamDefinition stream = parse("http | first: transform | second: transform | log");
			assertThat(stream.module("second")).get().extracting(StreamModule::index).isEqualTo(2);
			assertThat(stream.module("log")).get().extracting(StreamModule::name).isEqualTo("log");
			assertThat(stream.module("transform")).isEmpty();
		}

		@Test
		void rejectsWhitespaceBeforeColon() {
			assertError("lbl : time", DslErrorCode.WHITESPACE_NOT_ALLOWED, 3, "between a label and its ':'",
					"found a space");
			assertError("lbl\t: time", DslErrorCode.WHITESPACE_NOT_ALLOWED, 3, "found a tab");
		}

		@Test
		void rejectsRepeatedModuleWithoutLabels() {
			assertError("http | transform | transform | log", DslErrorCode.DUPLICATE_LABEL, 19, "'transform'",
					"pos 7", "transform2: transform");
		}

		@Test
		void rejectsRepeatedExplicitLabel() {
			assertError("a: time | a: log", DslErrorCode.DUPLICATE_LABEL, 10, "label 'a'", "pos 0", "log2: log");
		}

		@Test
		void rejectsExplicitLabelThatRepeatsAnImplicitOne() {
			assertError("time | time: log", DslErrorCode.DUPLICATE_LABEL, 7, "label 'time'", "log2: log");
		}

		@Test
		void rejectsMissingModuleAfterLabel() {
			assertError("lbl: | log", DslErrorCode.UNEXPECTED_TOKEN, 5, "a module name after label 'lbl:'",
					"found '|'");
			assertError("time | lbl:", DslErrorCode.UNEXPECTED_END, 11, "a module name after label 'lbl:'");
		}

		@Test
		void rejectsNonAsciiLabel() {
			assertError("é: time", DslErrorCode.ILLEGAL_NAME, 0, "label 'é'");
		}
	}

	@Nested
	class Options {

		@Test
		void keepsOptionsInOrder() {
			StreamModule time = parse("time --z=1 --a=2 --m=HH:mm:ss | log").modules().get(0);
			Map<String, String> expected = new LinkedHashMap<>();
			expected.put("z", "1");
			expected.put("a", "2");
			expected.put("m", "HH:mm:ss");
			assertThat(time.options()).containsExactlyEntriesOf(expected);
			assertThatThrownBy(() -> time.options().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
		}

		@Test
		void acceptsDottedOptionNames() {
			assertThat(parse("time --a.b.c=1 --a=2").modules().get(0).options()).containsEntry("a.b.c", "1")
				.containsEntry("a", "2");
		}

		@Test
		void unquotesSingleAndDoubleQuotedValues() {
			Map<String, String> options = parse("t --a='x y' --b=\"p q\" | log").modules().get(0).options();
			assertThat(options).containsEntry("a", "x y").containsEntry("b", "p q");
		}

		@Test
		void unescapesDoubledQuotesOfTheSameKind() {
			Map<String, String> options = parse("t --a='payload+''hi''' --b=\"say \"\"x\"\"\" --c='it\"s'")
				.modules()
				.get(0)
				.options();
			assertThat(options).containsEntry("a", "payload+'hi'").containsEntry("b", "say \"x\"")
				.containsEntry("c", "it\"s");
		}

		@Test
		void keepsTerminatorsAndBackslashesInsideQuotes() {
			Map<String, String> options = parse("t --a='x | y > z; \t\n w' --b=\"c:\\dir\" | log").modules()
				.get(0)
				.options();
			assertThat(options).containsEntry("a", "x | y > z; \t\n w").containsEntry("b", "c:\\dir");
		}

		@Test
		void acceptsQuotedEmptyValue() {
			assertThat(parse("time --a='' --b=\"\"").modules().get(0).options()).containsEntry("a", "")
				.containsEntry("b", "");
		}

		@Test
		void keepsPartlyQuotedValuesAsWritten() {
			Map<String, String> options = parse("t --a='hi'+payload --b=a'b c' --c=x\"|\"y --d='p'q'r' | log")
				.modules()
				.get(0)
				.options();
			assertThat(options).containsEntry("a", "'hi'+payload").containsEntry("b", "a'b c'")
				.containsEntry("c", "x\"|\"y").containsEntry("d", "'p'q'r'");
		}

		@Test
		void readsRawValuesUpToATerminator() {
			StreamDefinition stream = parse("t --expression=--payload --a=b=c --u=http://x:8080/p?q=1|log>queue:out");
			assertThat(stream.modules().get(0).options()).containsEntry("expression", "--payload")
				.containsEntry("a", "b=c")
				.containsEntry("u", "http://x:8080/p?q=1");
			assertThat(stream.modules()).extracting(StreamModule::name).containsExactly("t", "log");
			assertThat(stream.sinkChannel()).hasToString("queue:out");
		}

		@Test
		void rejectsOptionGluedToModuleName() {
			assertError("time--a=1", DslErrorCode.NO_WHITESPACE_BEFORE_OPTION, 4, "whitespace between module 'time'",
					"found none");
			assertError("x: time--a=1 | log", DslErrorCode.NO_WHITESPACE_BEFORE_OPTION, 7);
		}

		@Test
		void rejectsWhitespaceInsideOption() {
			assertError("time -- a=1", DslErrorCode.WHITESPACE_NOT_ALLOWED, 7, "between '--' and the option name",
					"found a space");
			assertError("time --a =1", DslErrorCode.WHITESPACE_NOT_ALLOWED, 8, "between option name '--a' and '='");
			assertError("time --a .b=1", DslErrorCode.WHITESPACE_NOT_ALLOWED, 8, "inside option name '--a'");
			assertError("time --a. b=1", DslErrorCode.WHITESPACE_NOT_ALLOWED, 9, "inside option name '--a.'");
		}

		@Test
		void rejectsWhitespaceAfterEquals() {
			assertError("time --a= 1", DslErrorCode.MISSING_VALUE, 9, "a value after '--a='", "found a space");
		}

		@Test
		void rejectsMissingValue() {
			assertError("time --a=", DslErrorCode.MISSING_VALUE, 9, "a value after '--a='",
					"reached the end of the definition");
			assertError("time --a.b=| log", DslErrorCode.MISSING_VALUE, 11, "'--a.b='", "found '|'");
			assertError("time --a=> queue:x", DslErrorCode.MISSING_VALUE, 9, "found '>'");
		}

		@Test
		void rejectsOptionWithoutEquals() {
			assertError("time --a | log", DslErrorCode.UNEXPECTED_TOKEN, 9, "'=' after option name '--a'", "found '|'");
			assertError("time --a", DslErrorCode.UNEXPECTED_END, 8, "'=' after option name '--a'");
			assertError("time --a b=1", DslErrorCode.UNEXPECTED_TOKEN, 9, "found 'b'");
		}

		@Test
		void rejectsOptionWithoutName() {
			assertError("time --=1", DslErrorCode.UNEXPECTED_TOKEN, 7, "an option name after '--'", "found '='");
			assertError("time --", DslErrorCode.UNEXPECTED_END, 7, "an option name after '--'");
			assertError("time ---a=1", DslErrorCode.UNEXPECTED_CHARACTER, 7, "an option name after '--'",
					"found the character '-'");
			assertError("time --a.=1", DslErrorCode.UNEXPECTED_TOKEN, 9, "a name after '--a.'", "found '='");
		}

		@Test
		void rejectsNonAsciiOptionName() {
			assertError("time --größe=1", DslErrorCode.ILLEGAL_NAME, 9, "found 'ö'", "option name 'größe'");
		}

		@Test
		void rejectsRepeatedOption() {
			assertError("time --a=1 --b=2 --a=3", DslErrorCode.DUPLICATE_OPTION, 19, "option 'a'", "module 'time'",
					"pos 7");
			assertError("time --a.b=1 --a.b=2", DslErrorCode.DUPLICATE_OPTION, 15, "option 'a.b'");
		}

		@Test
		void allowsSameOptionOnDifferentModulesAndDifferentDottedNames() {
			StreamDefinition stream = parse("time --a=1 --a.b=2 | log --a=3");
			assertThat(stream.modules().get(0).options()).containsOnlyKeys("a", "a.b");
			assertThat(stream.modules().get(1).options()).containsEntry("a", "3");
		}

		@Test
		void rejectsUnterminatedQuotes() {
			assertError("time --a='abc", DslErrorCode.UNTERMINATED_QUOTE, 9, "closing '");
			assertError("time --a=\"abc | log", DslErrorCode.UNTERMINATED_QUOTE, 9, "closing \"");
			assertError("time --a=x'abc | log", DslErrorCode.UNTERMINATED_QUOTE, 10);
			assertError("time --a='abc'' | log", DslErrorCode.UNTERMINATED_QUOTE, 9);
		}

		@Test
		void rejectsBackslashOutsideQuotes() {
			assertError("time --a=b\\c", DslErrorCode.BACKSLASH_NOT_ALLOWED, 10, "found '\\'");
			assertError("time --a='b'\\c", DslErrorCode.BACKSLASH_NOT_ALLOWED, 12);
			assertError("time \\ log", DslErrorCode.BACKSLASH_NOT_ALLOWED, 5);
		}
	}

	@Nested
	class Channels {

		@Test
		void readsQueueAsSource() {
			StreamDefinition stream = parse("queue:orders > log");
			assertThat(stream.sourceChannel()).isEqualTo(new ChannelReference(Kind.QUEUE, "orders", null, 0));
			assertThat(stream.sinkChannel()).isNull();
			assertThat(stream.modules()).singleElement().satisfies(module -> {
				assertThat(module.type()).isEqualTo(ModuleType.SINK);
				assertThat(module.position()).isEqualTo(15);
			});
		}

		@Test
		void readsTopicWithDottedNameAsSource() {
			StreamDefinition stream = parse("s = topic:news.eu.fr>transform | log");
			assertThat(stream.sourceChannel()).isEqualTo(new ChannelReference(Kind.TOPIC, "news.eu.fr", null, 4));
			assertThat(types(stream)).containsExactly(ModuleType.PROCESSOR, ModuleType.SINK);
		}

		@Test
		void readsQueueAndTopicAsSink() {
			StreamDefinition queue = parse("time > queue:out");
			assertThat(queue.sinkChannel()).isEqualTo(new ChannelReference(Kind.QUEUE, "out", null, 7));
			assertThat(types(queue)).containsExactly(ModuleType.SOURCE);
			StreamDefinition topic = parse("time | transform > topic:a.b");
			assertThat(topic.sinkChannel()).isEqualTo(new ChannelReference(Kind.TOPIC, "a.b", null, 19));
			assertThat(types(topic)).containsExactly(ModuleType.SOURCE, ModuleType.PROCESSOR);
		}

		@Test
		void typesEveryModuleAsProcessorBetweenTwoChannels() {
			assertThat(types(parse("queue:a > t | u > topic:b"))).containsExactly(ModuleType.PROCESSOR,
					ModuleType.PROCESSOR);
			assertThat(types(parse("queue:a>t>topic:b"))).containsExactly(ModuleType.PROCESSOR);
		}

		@Test
		void typesModulesAfterSourceChannel() {
			assertThat(types(parse("queue:a > t | u | v"))).containsExactly(ModuleType.PROCESSOR,
					ModuleType.PROCESSOR, ModuleType.SINK);
		}

		@Test
		void typesModulesBeforeSinkChannel() {
			assertThat(types(parse("t | u | v > queue:b"))).containsExactly(ModuleType.SOURCE, ModuleType.PROCESSOR,
					ModuleType.PROCESSOR);
		}

		@Test
		void bridgesTwoChannels() {
			StreamDefinition stream = parse("queue:a > topic:b");
			assertThat(stream.sourceChannel()).hasToString("queue:a");
			assertThat(stream.sinkChannel()).hasToString("topic:b");
			assertThat(stream.modules()).containsExactly(
					new StreamModule("bridge", "bridge", ModuleType.PROCESSOR, Map.of(), 0, 8, false));
		}

		@Test
		void bridgesTapToChannel() {
			StreamDefinition stream = parse("tap:stream:s.t>queue:copy");
			assertThat(stream.sourceChannel().kind()).isEqualTo(Kind.TAP_STREAM);
			assertThat(stream.modules()).singleElement().extracting(StreamModule::name, StreamModule::position)
				.containsExactly("bridge", 14);
		}

		@Test
		void readsStreamTapWithAndWithoutLabel() {
			assertThat(parse("tap:stream:ticktock > log").sourceChannel())
				.isEqualTo(new ChannelReference(Kind.TAP_STREAM, "ticktock", null, 0));
			assertThat(parse("tap:stream:tick-tock.t1 > log").sourceChannel())
				.isEqualTo(new ChannelReference(Kind.TAP_STREAM, "tick-tock", "t1", 0));
			assertThat(parse("tap:stream:名前.log > file").sourceChannel().name()).isEqualTo("名前");
		}

		@Test
		void readsQueueAndTopicTaps() {
			assertThat(parse("tap:queue:orders.eu > log").sourceChannel())
				.isEqualTo(new ChannelReference(Kind.TAP_QUEUE, "orders.eu", null, 0));
			assertThat(parse("x = tap:topic:news > log").sourceChannel())
				.isEqualTo(new ChannelReference(Kind.TAP_TOPIC, "news", null, 4));
		}

		@Test
		void rendersReferencesInLanguageForm() {
			assertThat(new ChannelReference(Kind.QUEUE, "foo", null, 0)).hasToString("queue:foo");
			assertThat(new ChannelReference(Kind.TOPIC, "a.b", null, 0)).hasToString("topic:a.b");
			assertThat(new ChannelReference(Kind.TAP_STREAM, "s", null, 0)).hasToString("tap:stream:s");
			assertThat(new ChannelReference(Kind.TAP_STREAM, "s", "label", 0)).hasToString("tap:stream:s.label");
			assertThat(new ChannelReference(Kind.TAP_QUEUE, "q", null, 0)).hasToString("tap:queue:q");
			assertThat(new ChannelReference(Kind.TAP_TOPIC, "t", null, 0)).hasToString("tap:topic:t");
			assertThatThrownBy(() -> new ChannelReference(Kind.QUEUE, "q", "label", 0))
				.isInstanceOf(IllegalArgumentException.class);
		}

		@Test
		void readsQueuePrefixAsLabelWhenNoArrowFollows() {
			StreamDefinition stream = parse("queue:foo | log");
			assertThat(stream.sourceChannel()).isNull();
			assertThat(stream.modules().get(0)).extracting(StreamModule::label, StreamModule::name,
					StreamModule::type).containsExactly("queue", "foo", ModuleType.SOURCE);
		}

		@Test
		void readsChannelPrefixAsLabelAfterSourceWhenMoreFollows() {
			StreamDefinition stream = parse("queue:a > topic:t | log");
			assertThat(stream.modules()).extracting(StreamModule::label, StreamModule::name)
				.map(tuple -> tuple.toList())
				.containsExactly(List.of("topic", "t"), List.of("log", "log"));
		}

		@Test
		void rejectsTapAsSink() {
			assertError("time > tap:stream:x", DslErrorCode.TAP_AS_SINK, 7, "a sink channel", "found a tap");
			assertError("queue:a > tap:queue:b", DslErrorCode.TAP_AS_SINK, 10);
		}

		@Test
		void rejectsJobTap() {
			assertError("tap:job:nightly > log", DslErrorCode.UNSUPPORTED_TAP_KIND, 4, "'stream', 'queue' or 'topic'",
					"found 'job'", "job taps are not supported");
		}

		@Test
		void rejectsUnknownTapKind() {
			assertError("tap:foo:x > log", DslErrorCode.UNEXPECTED_TOKEN, 4, "'stream', 'queue' or 'topic' after 'tap:'",
					"found 'foo'");
		}

		@Test
		void rejectsModuleAsSink() {
			assertError("time > log", DslErrorCode.UNEXPECTED_TOKEN, 7, "a sink channel ('queue:NAME' or 'topic:NAME')",
					"found 'log'");
		}

		@Test
		void rejectsWhitespaceInsideChannelReferences() {
			assertError("queue :a > log", DslErrorCode.WHITESPACE_NOT_ALLOWED, 5, "inside a channel reference");
			assertError("queue: a > log", DslErrorCode.WHITESPACE_NOT_ALLOWED, 6);
			assertError("queue:a .b > log", DslErrorCode.WHITESPACE_NOT_ALLOWED, 7);
			assertError("tap: stream:s > log", DslErrorCode.WHITESPACE_NOT_ALLOWED, 4);
			assertError("tap:stream:s .t > log", DslErrorCode.WHITESPACE_NOT_ALLOWED, 12);
			assertError("time > queue :x", DslErrorCode.WHITESPACE_NOT_ALLOWED, 12);
			assertError("time > topic:a. b", DslErrorCode.WHITESPACE_NOT_ALLOWED, 15);
		}

		@Test
		void rejectsMalformedChannelReferences() {
			assertError("time > queue", DslErrorCode.UNEXPECTED_END, 12, "':' after 'queue'");
			assertError("time > queue:", DslErrorCode.UNEXPECTED_END, 13, "a channel name after 'queue:'");
			assertError("queue:a. > log", DslErrorCode.UNEXPECTED_TOKEN, 9, "a name after 'a.'", "found '>'");
			assertError("tap:stream:s.t.u > log", DslErrorCode.UNEXPECTED_TOKEN, 14,
					"'>' after source channel 'tap:stream:s.t'", "found '.'");
			// Spring XD's indexed tap
			assertError("tap:stream:s.transform.1 > log", DslErrorCode.UNEXPECTED_TOKEN, 22,
					"'>' after source channel 'tap:stream:s.transform'", "found '.'");
			assertError("queue:ä > log", DslErrorCode.ILLEGAL_NAME, 6, "channel name 'ä'");
			assertError("tap:stream:9s > log", DslErrorCode.ILLEGAL_STREAM_NAME, 11, "stream name '9s'");
		}
	}

	@Nested
	class Errors {

		@Test
		void rejectsEmptyDefinition() {
			assertError("", DslErrorCode.EMPTY_DEFINITION, 0, "expected a stream definition", "empty");
			assertError(" \t\n ", DslErrorCode.EMPTY_DEFINITION, 0, "only whitespace");
		}

		@Test
		void rejectsNullAsEmptyDefinition() {
			DslException ex = error(null);
			assertThat(ex.code()).isEqualTo(DslErrorCode.EMPTY_DEFINITION);
			assertThat(ex.position()).isZero();
			assertThat(ex.definition()).isEmpty();
			assertThat(ex.getMessage()).isEqualTo("XD100E:(pos 0): expected a stream definition but found null\n\n^");
		}

		@Test
		void rejectsNamesOverSixtyFourCharacters() {
			String name = "n".repeat(StreamParser.MAX_NAME_LENGTH);
			assertThat(parse(name + ": time | log").modules().get(0).label()).isEqualTo(name);
			assertError(name + "x: time | log", DslErrorCode.NAME_TOO_LONG, 64, "at most 64 characters in label");
			assertError("time | " + name + "x", DslErrorCode.NAME_TOO_LONG, 71, "module name but found 65");
		}

		@Test
		void rejectsMoreThanOneStream() {
			assertError("time | log; http | file", DslErrorCode.MULTIPLE_STREAMS, 10, "found ';'");
			assertError("time --a=x;y", DslErrorCode.MULTIPLE_STREAMS, 10);
			assertThat(parse("time --a=';' | log").modules().get(0).options()).containsEntry("a", ";");
		}

		@Test
		void rejectsDataAfterCompleteStream() {
			assertError("time | log extra", DslErrorCode.UNEXPECTED_DATA_AFTER_STREAM, 11,
					"expected '|', '>', an option or the end of the definition after module 'log'", "found 'extra'");
			assertError("time | log > queue:x extra", DslErrorCode.UNEXPECTED_DATA_AFTER_STREAM, 21,
					"the end of the definition after sink channel 'queue:x'", "found 'extra'");
			assertError("time > queue:x | log", DslErrorCode.UNEXPECTED_DATA_AFTER_STREAM, 15, "found '|'");
			assertError("time = ", DslErrorCode.UNEXPECTED_END, 7);
		}

		@Test
		void rejectsMissingModules() {
			assertError("time | log >", DslErrorCode.UNEXPECTED_END, 12, "a sink channel",
					"reached the end of the definition");
			assertError("time | | log", DslErrorCode.UNEXPECTED_TOKEN, 7, "expected a module name after '|' but found '|'");
			assertError("| log", DslErrorCode.UNEXPECTED_TOKEN, 0, "a stream name, a source channel or a module name",
					"found '|'");
			assertError("time |", DslErrorCode.UNEXPECTED_END, 6,
					"expected a module name after '|' but reached the end of the definition");
			assertError("time |  \n", DslErrorCode.UNEXPECTED_END, 9);
			assertError("queue:a >", DslErrorCode.UNEXPECTED_END, 9, "a module name or a sink channel after '>'");
			assertError("queue:a > > log", DslErrorCode.UNEXPECTED_TOKEN, 10, "found '>'");
		}

		@Test
		void rejectsUnexpectedCharacters() {
			assertError("time | @log", DslErrorCode.UNEXPECTED_CHARACTER, 7, "a module name after '|'",
					"found the character '@'");
			assertError("- time", DslErrorCode.UNEXPECTED_CHARACTER, 0, "found the character '-'");
			assertError("time | \u001F", DslErrorCode.UNEXPECTED_CHARACTER, 7, "U+001F");
			assertError("time | \u0007", DslErrorCode.ILLEGAL_NAME, 7, "found U+0007");
		}

		@Test
		void rejectsQuotesOutsideOptionValues() {
			assertError("'time' | log", DslErrorCode.UNEXPECTED_CHARACTER, 0, "found the character '''");
		}

		@Test
		void rendersCodePositionDefinitionAndCaret() {
			assertThat(error("time | | log").getMessage())
				.isEqualTo("XD102E:(pos 7): expected a module name after '|' but found '|'\ntime | | log\n       ^");
		}

		@Test
		void keepsMessageOnThreeLinesWhenDefinitionSpansSeveral() {
			DslException ex = error("time\n| log\textra");
			assertThat(ex.getMessage()).isEqualTo("XD104E:(pos 11): expected '|', '>', an option or the end of the "
					+ "definition after module 'log' but found 'extra'\ntime | log extra\n           ^");
			assertThat(ex.definition()).isEqualTo("time\n| log\textra");
		}

		@Test
		void reportsTheFirstErrorInTheText() {
			assertError("lbl : time --a=b\\c", DslErrorCode.WHITESPACE_NOT_ALLOWED, 3);
			assertError("time | | log; x", DslErrorCode.UNEXPECTED_TOKEN, 7);
		}

		@Test
		void givesEveryCodeAStableUniqueIdentifier() {
			assertThat(DslErrorCode.values()).extracting(DslErrorCode::code).doesNotHaveDuplicates()
				.allMatch(code -> code.matches("XD1\\d\\dE"));
			assertThat(DslErrorCode.UNEXPECTED_TOKEN.code()).isEqualTo("XD102E");
		}

		@ParameterizedTest
		@CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
				EMPTY_DEFINITION             | ``
				UNEXPECTED_CHARACTER         | `time | #`
				UNEXPECTED_TOKEN             | `time | | log`
				UNEXPECTED_END               | `time |`
				UNEXPECTED_DATA_AFTER_STREAM | `time | log extra`
				ILLEGAL_STREAM_NAME          | `1x = time`
				ILLEGAL_NAME                 | `tïme`
				STREAM_NAME_MATCHES_MODULE   | `time = time | log`
				MISSING_VALUE                | `time --a=`
				UNTERMINATED_QUOTE           | `time --a='x`
				BACKSLASH_NOT_ALLOWED        | `time --a=\\`
				WHITESPACE_NOT_ALLOWED       | `lbl : time`
				NO_WHITESPACE_BEFORE_OPTION  | `time--a=1`
				DUPLICATE_OPTION             | `time --a=1 --a=2`
				DUPLICATE_LABEL              | `time | time`
				TAP_AS_SINK                  | `time > tap:queue:x`
				UNSUPPORTED_TAP_KIND         | `tap:job:j > log`
				MULTIPLE_STREAMS             | `time; log`
				NAME_TOO_LONG                | `time | log --l12345678901234567890123456789012345678901234567890123456789012345=1`
				""")
		void reachesEveryErrorCode(DslErrorCode code, String definition) {
			assertThat(error(definition == null ? "" : definition).code()).isEqualTo(code);
		}

		@Test
		void listsEveryErrorCodeInTheReachabilityTable() throws Exception {
			// keeps reachesEveryErrorCode honest when a code is added
			CsvSource table = Errors.class.getDeclaredMethod("reachesEveryErrorCode", DslErrorCode.class, String.class)
				.getAnnotation(CsvSource.class);
			Set<DslErrorCode> listed = EnumSet.noneOf(DslErrorCode.class);
			for (String row : table.textBlock().split("\n")) {
				if (!row.isBlank()) {
					listed.add(DslErrorCode.valueOf(row.substring(0, row.indexOf('|')).trim()));
				}
			}
			assertThat(listed).containsExactlyInAnyOrder(DslErrorCode.values());
		}
	}

	@Test
	void sharesOneParserAcrossThreads() {
		List<String> names = List.of("a", "b", "c", "d", "e", "f", "g", "h").parallelStream()
			.map(name -> this.parser.parse(name + " = time --x=" + name + " | log").name())
			.toList();
		assertThat(names).containsExactly("a", "b", "c", "d", "e", "f", "g", "h");
	}
}
