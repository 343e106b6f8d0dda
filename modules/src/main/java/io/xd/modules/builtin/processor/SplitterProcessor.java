package io.xd.modules.builtin.processor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.StringTokenizer;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code splitter} processor: evaluates {@code expression} and sends one message per element when the value is a
 * collection (any {@link Iterable}) or an object array, and the value itself otherwise; {@code null} elements and a
 * {@code null} value send nothing. With {@code delimiters}, the value (text, or UTF-8 bytes) is instead split on any
 * of those characters, taken literally, empty pieces dropped. Every message keeps the headers of the input. A message
 * that would give more than {@value #MAX_PARTS} messages fails whole (to the error path), before any is sent.
 */
public final class SplitterProcessor implements Processor {

	/** The most messages one message is split into. */
	public static final int MAX_PARTS = 100_000;

	static final ModuleOption<SafeExpression> EXPRESSION = ModuleOption.ofExpression("expression")
		.withDefault(SafeExpression.parse("payload"))
		.withDescription("a SpEL expression whose value (a collection or array) is split into one message per element");

	static final ModuleOption<String> DELIMITERS = ModuleOption.ofString("delimiters")
		.withRule(text -> !text.isEmpty(), "not be empty")
		.withDescription("split the expression's value, as text, on any of these characters (literally, no regex)");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "splitter",
			"Splits each message into one message per element or text piece", List.of(EXPRESSION, DELIMITERS));

	private final SafeExpression expression;

	private final String delimiters;

	private MessageChannel output;

	SplitterProcessor(ModuleContext context) {
		this.expression = context.options().get(EXPRESSION);
		this.delimiters = context.options().get(DELIMITERS);
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object value = this.expression.evaluate(message);
		MessageHeaders headers = message.getHeaders();
		if (value == null) {
			return;
		}
		List<Object> parts = new ArrayList<>();
		if (this.delimiters != null) {
			String text = (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
			StringTokenizer pieces = new StringTokenizer(text, this.delimiters);
			while (pieces.hasMoreTokens()) {
				add(parts, pieces.nextToken(), message);
			}
		}
		else if (value instanceof Iterable<?> elements) {
			for (Object element : elements) {
				add(parts, element, message);
			}
		}
		else if (value instanceof Object[] elements) {
			for (Object element : elements) {
				add(parts, element, message);
			}
		}
		else {
			add(parts, value, message);
		}
		// counted before any is sent: a message split beyond the cap goes whole to the error path
		for (Object part : parts) {
			this.output.send(new GenericMessage<>(part, headers));
		}
	}

	private static void add(List<Object> parts, Object part, Message<?> message) {
		if (part == null) {
			return;
		}
		if (parts.size() == MAX_PARTS) {
			throw new MessageHandlingException(message, "The splitter makes at most " + MAX_PARTS
					+ " messages of one message; this one has more");
		}
		parts.add(part);
	}

	/** Declares and creates the {@code splitter} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, SplitterProcessor::new);
		}
	}
}
