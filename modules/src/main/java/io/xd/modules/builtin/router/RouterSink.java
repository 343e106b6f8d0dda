package io.xd.modules.builtin.router;

import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.Destinations;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code router} sink: sends each message, unchanged, to the named destinations ({@code queue:NAME},
 * {@code topic:NAME}) that {@code expression} yields for it, through the container's {@link Destinations} (bound on
 * the stream's bus, local or Kafka, on first use). The expression yields one value, or a collection or array of
 * values; with {@code destinationMappings} each value is looked up there, otherwise the value is the destination's
 * name, a bare name meaning {@code queue:NAME} as in Spring XD.
 * <p>
 * A value that resolves to no destination (not in the mappings, not a destination name, or refused by the container)
 * is an error when {@code resolutionRequired} is true; otherwise it is skipped and counted. A message for which no
 * destination resolves at all (the expression gave {@code null}, an empty collection, or only values skipped) goes
 * to {@code defaultOutputChannel}, or, without one, is an error: {@code handleMessage} throws, so the bus sends the
 * message to its error path. Spring XD silently dropped such messages into {@code nullChannel}; here
 * {@code --defaultOutputChannel} says where they go.
 */
public final class RouterSink implements Sink {

	/** A destination as the container binds it; a bare name means {@code queue:NAME}. */
	private static final Pattern DESTINATION = Pattern.compile("((queue|topic):)?[A-Za-z0-9_$][A-Za-z0-9_$.-]{0,199}");

	static final ModuleOption<SafeExpression> EXPRESSION = ModuleOption.ofExpression("expression")
		.withDefault(SafeExpression.parse("payload.toString()"))
		.withDescription("a SpEL expression over payload and headers yielding a destination (queue:NAME, topic:NAME, "
				+ "or a bare NAME for queue:NAME), a key of destinationMappings, or a collection or array of them");

	static final ModuleOption<String> DESTINATION_MAPPINGS = ModuleOption.ofString("destinationMappings")
		.withRule(RouterSink::isMappings, "be value=destination pairs separated by commas, each destination "
				+ "queue:NAME, topic:NAME or NAME")
		.withDescription("value=destination pairs (value1=queue:a,value2=topic:b): the expression's value is looked "
				+ "up here, and a value not listed resolves to no destination");

	static final ModuleOption<String> DEFAULT_OUTPUT_CHANNEL = ModuleOption.ofString("defaultOutputChannel")
		.withRule(RouterSink::isDestination, "be queue:NAME, topic:NAME or NAME")
		.withDescription("where a message for which no destination resolves goes; without it, such a message is an "
				+ "error, sent to the bus's error path");

	static final ModuleOption<Boolean> RESOLUTION_REQUIRED = ModuleOption.ofBoolean("resolutionRequired")
		.withDefault(false)
		.withDescription("whether a value that resolves to no destination is an error, even when other values of "
				+ "the same message resolve; when false it is skipped");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "router",
			"Sends each message to the named destinations an expression chooses",
			List.of(EXPRESSION, DESTINATION_MAPPINGS, DEFAULT_OUTPUT_CHANNEL, RESOLUTION_REQUIRED));

	private static final Logger logger = LoggerFactory.getLogger(RouterSink.class);

	private final ModuleContext context;

	private final SafeExpression expression;

	private final Map<String, String> mappings;

	private final String defaultOutputChannel;

	private final boolean resolutionRequired;

	private final LongAdder unresolved = new LongAdder();

	private volatile Destinations destinations;

	RouterSink(ModuleContext context) {
		this.context = context;
		this.expression = context.options().get(EXPRESSION);
		String mappingText = context.options().get(DESTINATION_MAPPINGS);
		this.mappings = (mappingText != null) ? mappings(mappingText) : null;
		String fallback = context.options().get(DEFAULT_OUTPUT_CHANNEL);
		this.defaultOutputChannel = (fallback != null) ? qualified(fallback) : null;
		this.resolutionRequired = context.options().get(RESOLUTION_REQUIRED);
	}

	@Override
	public void start() {
		this.destinations = this.context.service(Destinations.class);
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object result = this.expression.evaluate(message);
		Set<String> targets = new LinkedHashSet<>();
		List<String> skipped = new ArrayList<>();
		for (Object value : values(result)) {
			String target = resolve(value);
			if (target != null) {
				targets.add(target);
			}
			else if (this.resolutionRequired) {
				throw new MessageDeliveryException(message, "router: the value '" + shown(value) + "' of expression '"
						+ this.expression.text() + "' resolves to no destination" + resolutionHint()
						+ " (resolutionRequired is true)");
			}
			else {
				skipped.add(shown(value));
			}
		}
		if (!skipped.isEmpty()) {
			this.unresolved.add(skipped.size());
			logger.debug("Stream '{}': router skipped values that resolve to no destination: {}",
					this.context.streamName(), skipped);
		}
		if (targets.isEmpty()) {
			if (this.defaultOutputChannel == null) {
				throw new MessageDeliveryException(message, "router: expression '" + this.expression.text()
						+ "' gave " + (skipped.isEmpty() ? "no destination (" + shown(result) + ")" : skipped
								+ ", which resolve to no destination" + resolutionHint())
						+ ", and no --defaultOutputChannel is set");
			}
			targets.add(this.defaultOutputChannel);
		}
		for (String target : targets) {
			this.destinations.channel(target).send(message);
		}
	}

	/** The destination a value of the expression names, or null when it names none. */
	private String resolve(Object value) {
		if (value == null) {
			return null;
		}
		String key = (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: value.toString();
		String name = (this.mappings != null) ? this.mappings.get(key) : key;
		return (name != null && isDestination(name)) ? qualified(name) : null;
	}

	private String resolutionHint() {
		return (this.mappings != null) ? ": it is not a key of destinationMappings " + this.mappings.keySet()
				: ": a destination is queue:NAME, topic:NAME or NAME (letters, digits, '_', '$', '.', '-')";
	}

	/** The values of a result: the elements of a collection or array, else the result itself (none for null). */
	private static List<Object> values(Object result) {
		if (result == null) {
			return List.of();
		}
		if (result instanceof Collection<?> collection) {
			return new ArrayList<>(collection);
		}
		if (result.getClass().isArray() && !(result instanceof byte[])) {
			List<Object> elements = new ArrayList<>();
			for (int i = 0; i < Array.getLength(result); i++) {
				elements.add(Array.get(result, i));
			}
			return elements;
		}
		return List.of(result);
	}

	private static String shown(Object value) {
		String text = String.valueOf(value);
		return (text.length() > 100) ? text.substring(0, 100) + "..." : text;
	}

	/** How many values resolved to no destination and were skipped so far. */
	public long unresolved() {
		return this.unresolved.sum();
	}

	@Override
	public void stop() {
		if (unresolved() > 0) {
			logger.info("Stream '{}': router '{}' skipped {} values that resolved to no destination",
					this.context.streamName(), this.context.label(), unresolved());
		}
	}

	static boolean isDestination(String name) {
		return DESTINATION.matcher(name).matches();
	}

	/** {@code queue:NAME} for a bare {@code NAME}; a qualified name as it is. */
	static String qualified(String name) {
		return (name.startsWith("queue:") || name.startsWith("topic:")) ? name : "queue:" + name;
	}

	static boolean isMappings(String text) {
		try {
			mappings(text);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/** Parses {@code value=destination,...}; the destination after the last {@code =} of each pair. */
	static Map<String, String> mappings(String text) {
		Map<String, String> mappings = new LinkedHashMap<>();
		for (String pair : text.split(",")) {
			int equals = pair.lastIndexOf('=');
			if (equals <= 0) {
				throw new IllegalArgumentException("not value=destination: " + pair);
			}
			String destination = pair.substring(equals + 1).strip();
			if (!isDestination(destination)) {
				throw new IllegalArgumentException("not a destination: " + destination);
			}
			mappings.put(pair.substring(0, equals).strip(), qualified(destination));
		}
		if (mappings.isEmpty()) {
			throw new IllegalArgumentException("no mappings");
		}
		return Collections.unmodifiableMap(mappings);
	}

	/** Declares and creates the {@code router} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, RouterSink::new);
		}
	}
}
