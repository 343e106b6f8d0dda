package io.xd.modules.builtin.processor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidJsonException;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code header-enricher} processor, with Spring XD's options: {@code headers} is a JSON object of header names
 * to SpEL expressions, such as <code>{"foo":"payload.toUpperCase()","n":"headers['count'] + 1"}</code>; each
 * message is sent on with those headers set to the expressions' values (a {@code null} value sets nothing). An
 * existing header keeps its value unless {@code overwrite} is true. The payload is passed on unchanged. Every
 * expression is checked when the stream is created.
 */
public final class HeaderEnricherProcessor implements Processor {

	static final ModuleOption<HeaderExpressions> HEADERS = ModuleOption
		.ofType("headers", "JSON object of header names to expressions", HeaderExpressions.class,
				HeaderExpressions::parse)
		.withDefault(HeaderExpressions.parse("{}"))
		.withDescription("a JSON object of header name to SpEL expression, e.g. {\"foo\":\"payload.toUpperCase()\"}");

	static final ModuleOption<Boolean> OVERWRITE = ModuleOption.ofBoolean("overwrite")
		.withDefault(false)
		.withDescription("whether to replace headers the message already has");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "header-enricher",
			"Adds headers whose values are expressions over the message", List.of(HEADERS, OVERWRITE));

	private final Map<String, SafeExpression> headers;

	private final boolean overwrite;

	private MessageChannel output;

	HeaderEnricherProcessor(ModuleContext context) {
		this.headers = context.options().get(HEADERS).expressions();
		this.overwrite = context.options().get(OVERWRITE);
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		MessageBuilder<?> builder = MessageBuilder.fromMessage(message);
		this.headers.forEach((name, expression) -> {
			Object value = expression.evaluate(message);
			if (value == null) {
				return;
			}
			if (this.overwrite) {
				builder.setHeader(name, value);
			}
			else {
				builder.setHeaderIfAbsent(name, value);
			}
		});
		this.output.send(builder.build());
	}

	/**
	 * The value of the {@code headers} option: header names to checked expressions, in the order given.
	 *
	 * @param text the option's value as the user wrote it
	 * @param expressions each header's expression
	 */
	public record HeaderExpressions(String text, Map<String, SafeExpression> expressions) {

		/**
		 * Parses a JSON object of header names to expression texts, checking each expression.
		 * @throws IllegalArgumentException naming the header whose expression is refused, or saying why the text is
		 * not such an object
		 */
		public static HeaderExpressions parse(String text) {
			Object json;
			try {
				json = Configuration.defaultConfiguration().jsonProvider().parse(text);
			}
			catch (InvalidJsonException ex) {
				throw new IllegalArgumentException("not JSON: " + ex.getMessage(), ex);
			}
			if (!(json instanceof Map<?, ?> map)) {
				throw new IllegalArgumentException("not a JSON object");
			}
			Map<String, SafeExpression> expressions = new LinkedHashMap<>();
			map.forEach((name, value) -> {
				if (!(value instanceof String expression)) {
					throw new IllegalArgumentException("header '" + name + "' must be given an expression as a string");
				}
				try {
					expressions.put(name.toString(), SafeExpression.parse(expression));
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalArgumentException("header '" + name + "': " + ex.getMessage(), ex);
				}
			});
			return new HeaderExpressions(text, Collections.unmodifiableMap(expressions));
		}

		@Override
		public String toString() {
			return this.text;
		}
	}

	/** Declares and creates the {@code header-enricher} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, HeaderEnricherProcessor::new);
		}
	}
}
