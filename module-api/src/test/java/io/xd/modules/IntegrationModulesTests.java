package io.xd.modules;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.integration.channel.DirectChannel;
import org.springframework.integration.filter.MessageFilter;
import org.springframework.integration.transformer.MessageTransformingHandler;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import static org.assertj.core.api.Assertions.assertThat;

class IntegrationModulesTests {

	@Test
	void runsASpringIntegrationFlowAsAProcessor() {
		List<Message<?>> sent = new ArrayList<>();
		MessageChannel output = (message, timeout) -> sent.add(message);
		Processor processor = IntegrationModules.processor(out -> {
			DirectChannel input = new DirectChannel();
			DirectChannel filtered = new DirectChannel();
			MessageFilter filter = new MessageFilter(message -> !((String) message.getPayload()).isEmpty());
			filter.setOutputChannel(filtered);
			input.subscribe(filter);
			MessageTransformingHandler upper = new MessageTransformingHandler(
					message -> MessageBuilder.withPayload(((String) message.getPayload()).toUpperCase())
						.copyHeaders(message.getHeaders())
						.build());
			upper.setOutputChannel(out);
			filtered.subscribe(upper);
			return input;
		});
		processor.start(output);

		processor.handleMessage(MessageBuilder.withPayload("hello").setHeader("k", "v").build());
		processor.handleMessage(MessageBuilder.withPayload("").build());

		assertThat(sent).hasSize(1);
		assertThat(sent.get(0).getPayload()).isEqualTo("HELLO");
		assertThat(sent.get(0).getHeaders().get("k")).isEqualTo("v");
	}

	@Test
	void runsASpringIntegrationFlowAsASink() {
		List<Object> seen = new ArrayList<>();
		Sink sink = IntegrationModules.sink(() -> {
			DirectChannel input = new DirectChannel();
			input.subscribe(message -> seen.add(message.getPayload()));
			return input;
		});
		sink.start();

		sink.handleMessage(ModuleMessages.of("a"));

		assertThat(seen).containsExactly("a");
	}

	@Test
	void moduleMessagesCarryNoIdAndNoTimestamp() {
		Message<String> message = ModuleMessages.of("payload");

		assertThat(message.getHeaders().getId()).isNull();
		assertThat(message.getHeaders().getTimestamp()).isNull();
		assertThat(message.getHeaders()).isEmpty();
		assertThat(ModuleMessages.of("other").getHeaders()).isSameAs(message.getHeaders());
	}
}
