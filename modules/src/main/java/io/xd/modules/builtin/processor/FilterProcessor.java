package io.xd.modules.builtin.processor;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code filter} processor: passes on, unchanged, each message for which {@code expression} is true, and drops
 * the others, counting them ({@link #dropped()}; the count is logged when the module stops). A result that is
 * {@code null} or not true counts as false; an expression that fails fails the message.
 */
public final class FilterProcessor implements Processor {

	static final ModuleOption<SafeExpression> EXPRESSION = ModuleOption.ofExpression("expression")
		.withDefault(SafeExpression.parse("true"))
		.withDescription("a boolean SpEL expression over payload and headers; messages for which it is false are "
				+ "dropped");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "filter",
			"Passes on the messages for which an expression is true", List.of(EXPRESSION));

	private static final Logger logger = LoggerFactory.getLogger(FilterProcessor.class);

	private final ModuleContext context;

	private final SafeExpression expression;

	private final LongAdder dropped = new LongAdder();

	private MessageChannel output;

	FilterProcessor(ModuleContext context) {
		this.context = context;
		this.expression = context.options().get(EXPRESSION);
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		if (this.expression.test(message)) {
			this.output.send(message);
		}
		else {
			this.dropped.increment();
		}
	}

	/** How many messages this filter has dropped so far. */
	public long dropped() {
		return this.dropped.sum();
	}

	@Override
	public void stop() {
		logger.info("Stream '{}': filter '{}' dropped {} messages", this.context.streamName(), this.context.label(),
				dropped());
	}

	/** Declares and creates the {@code filter} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, FilterProcessor::new);
		}
	}
}
