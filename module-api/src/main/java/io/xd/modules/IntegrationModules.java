package io.xd.modules;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;

/**
 * Modules written as Spring Integration flows: the author wires channels and handlers (transformers, filters,
 * routers...) and hands XD the flow's input channel; XD sends every inbound message to that channel and gives the
 * flow the bus channel to send its results to.
 *
 * <pre>{@code
 * Processor upper = IntegrationModules.processor(output -> {
 *     DirectChannel input = new DirectChannel();
 *     MessageTransformingHandler handler = new MessageTransformingHandler(
 *             message -> MessageBuilder.withPayload(((String) message.getPayload()).toUpperCase()).build());
 *     handler.setOutputChannel(output);
 *     input.subscribe(handler);
 *     return input;
 * });
 * }</pre>
 */
public final class IntegrationModules {

	private IntegrationModules() {
	}

	/**
	 * A processor from a flow: {@code flow} receives the output channel once, at start, and returns the flow's input
	 * channel. A message the input channel refuses ({@code send} returns false) is reported as a delivery failure.
	 */
	public static Processor processor(Function<MessageChannel, MessageChannel> flow) {
		Objects.requireNonNull(flow, "flow");
		return new Processor() {

			private volatile MessageChannel input;

			@Override
			public void start(MessageChannel output) {
				this.input = Objects.requireNonNull(flow.apply(output), "the flow returned no input channel");
			}

			@Override
			public void handleMessage(Message<?> message) {
				deliver(this.input, message);
			}
		};
	}

	/** A sink from a flow: {@code flow} is called once, at start, and returns the flow's input channel. */
	public static Sink sink(Supplier<MessageChannel> flow) {
		Objects.requireNonNull(flow, "flow");
		return new Sink() {

			private volatile MessageChannel input;

			@Override
			public void start() {
				this.input = Objects.requireNonNull(flow.get(), "the flow returned no input channel");
			}

			@Override
			public void handleMessage(Message<?> message) {
				deliver(this.input, message);
			}
		};
	}

	private static void deliver(MessageChannel input, Message<?> message) {
		if (input == null) {
			throw new MessageDeliveryException(message, "The module's flow has not been started");
		}
		if (!input.send(message)) {
			throw new MessageDeliveryException(message, "The module's flow refused the message");
		}
	}
}
