package io.xd.modules.builtin;

import java.util.List;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;

/**
 * The {@code bridge} processor: passes every message on unchanged, headers included. It is also the module that
 * {@code queue:a > topic:b} deploys.
 */
public final class BridgeProcessor implements Processor {

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "bridge",
			"Passes messages through unchanged", List.of());

	private MessageChannel output;

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		this.output.send(message);
	}

	/** Declares and creates the {@code bridge} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, context -> new BridgeProcessor());
		}
	}
}
