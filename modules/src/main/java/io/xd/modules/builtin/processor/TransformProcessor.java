package io.xd.modules.builtin.processor;

import java.util.List;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code transform} processor: replaces each payload with the value of {@code expression}, keeping the headers
 * (the same header object, so no id or timestamp is generated). With the default {@code payload}, the message itself
 * is passed on. A {@code null} result fails the message.
 */
public final class TransformProcessor implements Processor {

	static final ModuleOption<SafeExpression> EXPRESSION = ModuleOption.ofExpression("expression")
		.withDefault(SafeExpression.parse("payload"))
		.withDescription("a SpEL expression over payload and headers whose value becomes the new payload");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "transform",
			"Replaces each payload with the value of an expression", List.of(EXPRESSION));

	private final SafeExpression expression;

	private final boolean identity;

	private MessageChannel output;

	TransformProcessor(ModuleContext context) {
		this.expression = context.options().get(EXPRESSION);
		this.identity = this.expression.isPayload();
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		if (this.identity) {
			this.output.send(message);
			return;
		}
		Object result = this.expression.evaluate(message);
		if (result == null) {
			throw new MessageHandlingException(message,
					"Expression '" + this.expression + "' of the transform processor gave null");
		}
		this.output.send(new GenericMessage<>(result, message.getHeaders()));
	}

	/** Declares and creates the {@code transform} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, TransformProcessor::new);
		}
	}
}
