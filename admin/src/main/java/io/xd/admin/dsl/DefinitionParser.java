package io.xd.admin.dsl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.xd.admin.dsl.ChannelReference.Kind;
import io.xd.modules.ModuleType;

/**
 * The recursive-descent parser behind {@link StreamParser}: one instance parses one definition, then is dropped.
 * Every error is thrown as a {@link DslException} positioned at the first offending character.
 */
final class DefinitionParser {

	private static final String BRIDGE = "bridge";

	private static final String AFTER_MODULE = "'|', '>', an option or the end of the definition";

	private final String text;

	private final List<Token> tokens;

	/** Index of the next token to consume. */
	private int next;

	private String streamName;

	private int streamNamePosition;

	private final List<ParsedModule> modules = new ArrayList<>();

	/** Where each option's value is written, in the order read. */
	private final List<StreamParser.Written> optionValues = new ArrayList<>();

	/** Labels seen so far, with the offset of the module that uses each. */
	private final Map<String, Integer> labels = new HashMap<>();

	DefinitionParser(String text) {
		this.text = text;
		this.tokens = Tokenizer.tokenize(text);
	}

	StreamDefinition parse() {
		if (kindAt(0) == Token.Kind.END) {
			throw new DslException(DslErrorCode.EMPTY_DEFINITION, this.text, 0,
					this.text.isEmpty() ? "an empty string" : "only whitespace");
		}
		if (kindAt(0) == Token.Kind.WORD && kindAt(1) == Token.Kind.EQUALS) {
			Token name = take();
			checkStreamName(name);
			this.streamName = name.text();
			this.streamNamePosition = name.start();
			take();
		}
		ChannelReference source = null;
		ChannelReference sink = null;
		if (channelAhead() == Token.Kind.GT) {
			source = sourceChannel();
			Token gt = peek();
			if (!gt.is(Token.Kind.GT)) {
				throw unexpected("'>' after source channel '" + source + "'", gt);
			}
			take();
			if (channelAhead() == Token.Kind.END) {
				sink = sinkChannel();
				if (BRIDGE.equals(this.streamName)) {
					throw new DslException(DslErrorCode.STREAM_NAME_MATCHES_MODULE, this.text, this.streamNamePosition,
							this.streamName, gt.start());
				}
				addModule(new ParsedModule(BRIDGE, BRIDGE, false, Map.of(), gt.start(), gt.start()));
				return build(source, sink);
			}
			module("a module name or a sink channel after '>'");
		}
		else {
			module(this.streamName == null ? "a stream name, a source channel or a module name"
					: "a source channel or a module name after '" + this.streamName + " ='");
		}
		while (peek().is(Token.Kind.PIPE)) {
			take();
			module("a module name after '|'");
		}
		Token after = peek();
		if (after.is(Token.Kind.GT)) {
			take();
			sink = sinkChannel();
			Token end = peek();
			if (!end.is(Token.Kind.END)) {
				throw new DslException(DslErrorCode.UNEXPECTED_DATA_AFTER_STREAM, this.text, end.start(),
						"the end of the definition", "sink channel '" + sink + "'", end.describe());
			}
		}
		else if (!after.is(Token.Kind.END)) {
			ParsedModule last = this.modules.get(this.modules.size() - 1);
			throw new DslException(DslErrorCode.UNEXPECTED_DATA_AFTER_STREAM, this.text, after.start(), AFTER_MODULE,
					"module '" + last.label() + "'", after.describe());
		}
		return build(source, sink);
	}

	// ---- modules

	private void module(String expected) {
		Token first = peek();
		if (!first.is(Token.Kind.WORD)) {
			throw unexpected(expected, first);
		}
		Token label = null;
		if (kindAt(this.next + 1) == Token.Kind.COLON) {
			label = take();
			if (this.tokens.get(this.next).start() > label.end()) {
				throw whitespace(label.end(), "between a label and its ':'");
			}
			checkName(label, "label");
			take();
			Token name = peek();
			if (!name.is(Token.Kind.WORD)) {
				throw unexpected("a module name after label '" + label.text() + ":'", name);
			}
		}
		Token name = take();
		checkName(name, "module name");
		if (name.text().equals(this.streamName)) {
			throw new DslException(DslErrorCode.STREAM_NAME_MATCHES_MODULE, this.text, this.streamNamePosition,
					this.streamName, name.start());
		}
		Map<String, String> options = new LinkedHashMap<>();
		Map<String, Integer> optionPositions = new HashMap<>();
		while (peek().is(Token.Kind.DOUBLE_MINUS)) {
			Token dashes = take();
			// the token before '--' is the module name: a value always ends at whitespace or a terminator
			if (dashes.start() == this.tokens.get(this.next - 2).end()) {
				throw new DslException(DslErrorCode.NO_WHITESPACE_BEFORE_OPTION, this.text, dashes.start(), name.text());
			}
			option(name.text(), options, optionPositions);
		}
		String effectiveLabel = label == null ? name.text() : label.text();
		int labelPosition = label == null ? name.start() : label.start();
		addModule(new ParsedModule(effectiveLabel, name.text(), label != null, options, name.start(), labelPosition));
	}

	/** The rest of an option after its {@code --}. */
	private void option(String module, Map<String, String> options, Map<String, Integer> positions) {
		Token first = adjacentWord("an option name after '--'", "between '--' and the option name");
		checkName(first, "option name");
		StringBuilder name = new StringBuilder(first.text());
		while (peek().is(Token.Kind.DOT)) {
			requireAdjacent(peek(), "inside option name '--" + name + "'");
			take();
			Token part = adjacentWord("a name after '--" + name + ".'", "inside option name '--" + name + ".'");
			checkName(part, "option name");
			name.append('.').append(part.text());
		}
		Token equals = peek();
		if (!equals.is(Token.Kind.EQUALS)) {
			throw unexpected("'=' after option name '--" + name + "'", equals);
		}
		requireAdjacent(equals, "between option name '--" + name + "' and '='");
		take();
		Token value = peek();
		if (!value.is(Token.Kind.VALUE)) {
			// the tokenizer reads a value after every '=' that ends an option name, so this is only a safety net
			throw unexpected("a value after '--" + name + "='", value);
		}
		if (value.start() == value.end()) {
			String found = value.start() >= this.text.length() ? "reached the end of the definition"
					: "found " + describeWhitespaceOrChar(value.start());
			throw new DslException(DslErrorCode.MISSING_VALUE, this.text, value.start(), name, found);
		}
		take();
		String key = name.toString();
		Integer earlier = positions.putIfAbsent(key, first.start());
		if (earlier != null) {
			throw new DslException(DslErrorCode.DUPLICATE_OPTION, this.text, first.start(), key, module, earlier);
		}
		options.put(key, value.text());
		this.optionValues.add(new StreamParser.Written(this.modules.size(), key, value.start(), value.end()));
	}

	/** Where each option's value is written, once {@link #parse()} has run. */
	List<StreamParser.Written> optionValues() {
		return List.copyOf(this.optionValues);
	}

	private void addModule(ParsedModule module) {
		Integer earlier = this.labels.putIfAbsent(module.label(), module.labelPosition());
		if (earlier != null) {
			throw new DslException(DslErrorCode.DUPLICATE_LABEL, this.text, module.labelPosition(), module.label(),
					earlier, freshLabel(module.name()), module.name());
		}
		this.modules.add(module);
	}

	/** A label suggestion not yet used in the stream: the module name with the first free number appended. */
	private String freshLabel(String moduleName) {
		int suffix = 2;
		while (this.labels.containsKey(moduleName + suffix)) {
			suffix++;
		}
		return moduleName + suffix;
	}

	// ---- channels

	/**
	 * When the next tokens start like a channel reference ({@code queue:}, {@code topic:} or {@code tap:}), the kind
	 * of the first token after the run of words, colons and dots that could belong to it; otherwise null. The run
	 * may contain whitespace so that a misplaced space is reported as such by the channel parser.
	 */
	private Token.Kind channelAhead() {
		Token first = this.tokens.get(this.next);
		if (!(first.isWord("queue") || first.isWord("topic") || first.isWord("tap"))
				|| kindAt(this.next + 1) != Token.Kind.COLON) {
			return null;
		}
		int i = this.next + 2;
		while (kindAt(i) == Token.Kind.WORD || kindAt(i) == Token.Kind.COLON || kindAt(i) == Token.Kind.DOT) {
			i++;
		}
		return kindAt(i);
	}

	private ChannelReference sourceChannel() {
		// only called when channelAhead() matched, so the first token is queue, topic or tap
		Token prefix = take();
		requireAdjacentColon(prefix);
		if (!prefix.isWord("tap")) {
			Kind kind = prefix.isWord("queue") ? Kind.QUEUE : Kind.TOPIC;
			return new ChannelReference(kind, channelName(kind), null, prefix.start());
		}
		Token what = adjacentWord("'stream', 'queue' or 'topic' after 'tap:'", "inside a channel reference");
		switch (what.text()) {
			case "stream" -> {
				requireAdjacentColon(what);
				Token stream = adjacentWord("a stream name after 'tap:stream:'", "inside a channel reference");
				checkStreamName(stream);
				String label = null;
				if (peek().is(Token.Kind.DOT)) {
					requireAdjacent(peek(), "inside a channel reference");
					take();
					Token module = adjacentWord("a module label after 'tap:stream:" + stream.text() + ".'",
							"inside a channel reference");
					checkName(module, "module label");
					label = module.text();
				}
				return new ChannelReference(Kind.TAP_STREAM, stream.text(), label, prefix.start());
			}
			case "queue", "topic" -> {
				requireAdjacentColon(what);
				Kind kind = what.text().equals("queue") ? Kind.TAP_QUEUE : Kind.TAP_TOPIC;
				return new ChannelReference(kind, channelName(kind), null, prefix.start());
			}
			case "job" -> throw new DslException(DslErrorCode.UNSUPPORTED_TAP_KIND, this.text, what.start(), "job",
					"job");
			default -> throw unexpected("'stream', 'queue' or 'topic' after 'tap:'", what);
		}
	}

	private ChannelReference sinkChannel() {
		Token prefix = peek();
		if (prefix.isWord("tap")) {
			throw new DslException(DslErrorCode.TAP_AS_SINK, this.text, prefix.start());
		}
		if (!(prefix.isWord("queue") || prefix.isWord("topic"))) {
			throw unexpected("a sink channel ('queue:NAME' or 'topic:NAME') after '>'", prefix);
		}
		take();
		requireAdjacentColon(prefix);
		Kind kind = prefix.isWord("queue") ? Kind.QUEUE : Kind.TOPIC;
		return new ChannelReference(kind, channelName(kind), null, prefix.start());
	}

	/** A dotted channel name right after the colon that ends the prefix of {@code kind}. */
	private String channelName(Kind kind) {
		Token first = adjacentWord("a channel name after '" + kind.prefix() + "'", "inside a channel reference");
		checkName(first, "channel name");
		StringBuilder name = new StringBuilder(first.text());
		while (peek().is(Token.Kind.DOT)) {
			requireAdjacent(peek(), "inside a channel reference");
			take();
			Token part = adjacentWord("a name after '" + name + ".' in a channel name", "inside a channel reference");
			checkName(part, "channel name");
			name.append('.').append(part.text());
		}
		return name.toString();
	}

	private void requireAdjacentColon(Token word) {
		Token colon = peek();
		if (!colon.is(Token.Kind.COLON)) {
			throw unexpected("':' after '" + word.text() + "'", colon);
		}
		requireAdjacent(colon, "inside a channel reference");
		take();
	}

	// ---- names

	private void checkName(Token word, String what) {
		NameRules.checkName(this.text, word, what);
	}

	private void checkStreamName(Token word) {
		NameRules.checkStreamName(this.text, word);
	}

	// ---- token access

	/** The kind of token {@code index}, without throwing: past the end this is the final END or ERROR token. */
	private Token.Kind kindAt(int index) {
		return this.tokens.get(Math.min(index, this.tokens.size() - 1)).kind();
	}

	/** The next token; reaching a lexical error throws it. */
	private Token peek() {
		Token token = this.tokens.get(this.next);
		if (token.is(Token.Kind.ERROR)) {
			throw token.error();
		}
		return token;
	}

	/** Consumes and returns the next token; the final END token is never consumed. */
	private Token take() {
		Token token = peek();
		if (!token.is(Token.Kind.END)) {
			this.next++;
		}
		return token;
	}

	private Token previous() {
		return this.tokens.get(this.next - 1);
	}

	/** Consumes a word that must touch the previous token. */
	private Token adjacentWord(String expected, String where) {
		Token word = peek();
		if (!word.is(Token.Kind.WORD)) {
			throw unexpected(expected, word);
		}
		requireAdjacent(word, where);
		return take();
	}

	/** Throws if whitespace separates {@code token}, the next one, from the token before it. */
	private void requireAdjacent(Token token, String where) {
		int previousEnd = previous().end();
		if (token.start() > previousEnd) {
			throw whitespace(previousEnd, where);
		}
	}

	// ---- errors

	private DslException unexpected(String expected, Token found) {
		return switch (found.kind()) {
			case END -> new DslException(DslErrorCode.UNEXPECTED_END, this.text, found.start(), expected);
			case UNKNOWN -> new DslException(DslErrorCode.UNEXPECTED_CHARACTER, this.text, found.start(), expected,
					found.describe());
			default -> new DslException(DslErrorCode.UNEXPECTED_TOKEN, this.text, found.start(), expected,
					found.describe());
		};
	}

	private DslException whitespace(int position, String where) {
		return new DslException(DslErrorCode.WHITESPACE_NOT_ALLOWED, this.text, position, where,
				describeWhitespaceOrChar(position));
	}

	private String describeWhitespaceOrChar(int position) {
		return switch (this.text.charAt(position)) {
			case ' ' -> "a space";
			case '\t' -> "a tab";
			case '\n' -> "a newline";
			case '\r' -> "a carriage return";
			default -> Tokenizer.describeCodePoint(this.text.codePointAt(position));
		};
	}

	// ---- result

	private StreamDefinition build(ChannelReference source, ChannelReference sink) {
		List<StreamModule> result = new ArrayList<>(this.modules.size());
		int last = this.modules.size() - 1;
		for (int i = 0; i <= last; i++) {
			ParsedModule module = this.modules.get(i);
			result.add(new StreamModule(module.label(), module.name(), typeAt(i, last, source != null, sink != null),
					module.options(), i, module.position(), module.explicitLabel()));
		}
		return new StreamDefinition(this.streamName, this.text, result, source, sink);
	}

	private static ModuleType typeAt(int index, int last, boolean hasSource, boolean hasSink) {
		if (hasSource && hasSink) {
			return ModuleType.PROCESSOR;
		}
		if (hasSource) {
			return index == last ? ModuleType.SINK : ModuleType.PROCESSOR;
		}
		if (hasSink) {
			return index == 0 ? ModuleType.SOURCE : ModuleType.PROCESSOR;
		}
		if (index == 0) {
			return ModuleType.SOURCE;
		}
		return index == last ? ModuleType.SINK : ModuleType.PROCESSOR;
	}

	/** A module before its type is known, which needs the whole stream. */
	private record ParsedModule(String label, String name, boolean explicitLabel, Map<String, String> options,
			int position, int labelPosition) {
	}
}
