package io.xd.modules.builtin;

import java.util.List;

import org.springframework.messaging.Message;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;

/**
 * The {@code null} sink: discards every message. Like any sink it counts what it receives in the container's meters
 * ({@code xd.module.messages.in}), so a stream {@code ... | null} is the base stream for taps, or a way to measure a
 * pipeline without an end.
 */
public final class NullSink implements Sink {

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "null", "Discards every message",
			List.of());

	@Override
	public void handleMessage(Message<?> message) {
		// discarded: the container's input meter has counted it
	}

	/** Declares and creates the {@code null} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, context -> new NullSink());
		}
	}
}
