package io.xd.modules.builtin;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

import org.springframework.messaging.Message;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code log} sink: logs each payload (or the value of {@code expression}, as Spring XD's {@code log} did) as text,
 * at the chosen level, to the logger {@code xd.sink.log.<name>}. A {@code byte[]} value is decoded as UTF-8; any other
 * value is shown with {@code toString()}.
 */
public final class LogSink implements Sink {

	static final ModuleOption<String> LEVEL = ModuleOption.ofChoice("level", "TRACE", "DEBUG", "INFO", "WARN", "ERROR")
		.withDefault("INFO")
		.withDescription("the level at which payloads are logged");

	static final ModuleOption<String> NAME = ModuleOption.ofString("name")
		.withDescription("the suffix of the logger name xd.sink.log.<name>; defaults to the stream name");

	static final ModuleOption<SafeExpression> EXPRESSION = ModuleOption.ofExpression("expression")
		.withDefault(SafeExpression.parse("payload"))
		.withDescription("a SpEL expression over payload and headers whose value is logged");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "log", "Logs each payload as text",
			List.of(LEVEL, NAME, EXPRESSION));

	private final Logger logger;

	private final Level level;

	private final SafeExpression expression;

	public LogSink(ModuleContext context) {
		this.expression = context.options().get(EXPRESSION);
		String name = context.options().get(NAME);
		this.logger = LoggerFactory.getLogger("xd.sink.log." + (name == null ? context.streamName() : name));
		this.level = Level.valueOf(context.options().get(LEVEL));
	}

	@Override
	public void handleMessage(Message<?> message) {
		if (this.logger.isEnabledForLevel(this.level)) {
			this.logger.atLevel(this.level).log(asText(this.expression.evaluate(message)));
		}
	}

	static String asText(Object payload) {
		return (payload instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(payload);
	}

	/** Declares and creates the {@code log} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, LogSink::new);
		}
	}
}
