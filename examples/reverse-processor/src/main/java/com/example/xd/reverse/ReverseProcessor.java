package com.example.xd.reverse;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;

/**
 * Reverses each text payload ({@code byte[]} payloads are read as UTF-8), optionally in upper case:
 * {@code time | reverse --uppercase=true | log}.
 */
public final class ReverseProcessor implements Processor {

	static final ModuleOption<Boolean> UPPERCASE = ModuleOption.ofBoolean("uppercase")
		.withDefault(false)
		.withDescription("whether to upper-case the reversed text");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "reverse",
			"Reverses each text payload", List.of(UPPERCASE));

	private final boolean uppercase;

	private MessageChannel output;

	ReverseProcessor(ModuleContext context) {
		this.uppercase = context.options().get(UPPERCASE);
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		String text = (payload instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: String.valueOf(payload);
		String reversed = new StringBuilder(text).reverse().toString();
		this.output.send(ModuleMessages.of(this.uppercase ? reversed.toUpperCase(Locale.ROOT) : reversed));
	}

	/** Found through META-INF/services/io.xd.modules.ModuleProvider. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, ReverseProcessor::new);
		}
	}
}
