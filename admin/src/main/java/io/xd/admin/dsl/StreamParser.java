package io.xd.admin.dsl;

import java.util.List;

/**
 * Parses stream definitions such as {@code ticktock = time --fixedDelay=5 | log}.
 * <p>
 * The grammar, where whitespace may separate any two tokens except where noted:
 * <pre>
 * stream      := [STREAMNAME '='] [srcChannel '&gt;'] module ('|' module)* ['&gt;' sinkChannel]
 *              | srcChannel '&gt;' sinkChannel           (an implicit "bridge" processor)
 * module      := [LABEL ':'] NAME option*               (no whitespace before the ':')
 * option      := WS '--' NAME ('.' NAME)* '=' value      (no whitespace inside)
 * srcChannel  := ('queue'|'topic') ':' CHANNEL
 *              | 'tap:stream:' STREAMNAME ['.' LABEL]
 *              | 'tap:' ('queue'|'topic') ':' CHANNEL
 * sinkChannel := ('queue'|'topic') ':' CHANNEL           (no whitespace inside a channel reference)
 * NAME, LABEL := [A-Za-z0-9_][A-Za-z0-9_$-]*            (never containing "--", which always starts an option)
 * CHANNEL     := NAME ('.' NAME)*
 * STREAMNAME  := a Java identifier start, then Java identifier parts or '-' (invisible "ignorable" characters excluded)
 * </pre>
 * {@code queue:x} at the start is a source channel only when {@code >} follows it; otherwise {@code queue} is the
 * label of a module {@code x}. An option value runs to the first unquoted space, tab, newline, {@code |},
 * {@code ;} or {@code >}. A value quoted from end to end with {@code '} or {@code "} loses its quotes, and a
 * doubled quote of that kind inside it stands for one; a value only partly quoted is kept as written. A backslash
 * is allowed only inside quotes.
 * <p>
 * Module types follow from position: without channels the first module is a source, the last a sink and the rest
 * processors (a lone module is a source); after a source channel all are processors but the last, which is a sink
 * (a lone module is a sink); before a sink channel the first is a source and the rest processors; between two
 * channels all are processors.
 * <p>
 * Instances hold no state, so one parser may be shared by any number of threads.
 */
public final class StreamParser {

	/**
	 * The most characters a label, module, option or channel name may have: names become parts of ZooKeeper paths,
	 * module ids and Kafka topic names (at most 249 characters). A stream name's limit is the admin's
	 * ({@code xd.admin.limits.maxNameLength}).
	 */
	public static final int MAX_NAME_LENGTH = 64;

	/**
	 * Parses one stream definition.
	 * @param definition the text to parse; null is rejected like an empty definition
	 * @return the parsed stream, never null
	 * @throws DslException for any text that is not a valid stream definition, including null; this method throws
	 *     no other exception
	 */
	public StreamDefinition parse(String definition) {
		if (definition == null) {
			throw new DslException(DslErrorCode.EMPTY_DEFINITION, "", 0, "null");
		}
		return new DefinitionParser(definition).parse();
	}

	/**
	 * Where the value of every option is written in a definition, with its module, so that a value may be shown
	 * masked; one parse.
	 * @throws DslException as {@link #parse(String)}
	 */
	public List<OptionValue> optionValues(String definition) {
		if (definition == null) {
			throw new DslException(DslErrorCode.EMPTY_DEFINITION, "", 0, "null");
		}
		DefinitionParser parser = new DefinitionParser(definition);
		List<StreamModule> modules = parser.parse().modules();
		return parser.optionValues()
			.stream()
			.map(value -> new OptionValue(modules.get(value.moduleIndex()), value.option(), value.start(),
					value.end()))
			.toList();
	}

	/**
	 * The written value of one option.
	 *
	 * @param module the module it belongs to
	 * @param option the option's name
	 * @param start the offset of the value's first character in the definition, quotes included
	 * @param end the offset just after its last
	 */
	public record OptionValue(StreamModule module, String option, int start, int end) {
	}

	/** Where an option's value is written, as the parser finds it: its module by index in the stream. */
	record Written(int moduleIndex, String option, int start, int end) {
	}

	/**
	 * Checks a stream name against the STREAMNAME rule above.
	 * @param name a candidate stream name
	 * @return the index of its first offending character (0 for an empty name), or -1 when it is valid; a name
	 *     longer than {@link #MAX_NAME_LENGTH} is not checked here
	 */
	public static int invalidStreamNameIndex(String name) {
		return NameRules.invalidStreamNameIndex(name);
	}
}
