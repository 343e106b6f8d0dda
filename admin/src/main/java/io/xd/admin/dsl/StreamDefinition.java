package io.xd.admin.dsl;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of parsing one stream definition.
 *
 * @param name the name written before {@code =}, or {@code null} when the definition has no name prefix
 * @param text the definition exactly as parsed
 * @param modules the modules in stream order, never empty; unmodifiable
 * @param sourceChannel the channel the stream reads from ({@code queue:x > ...} or a tap), or {@code null}
 * @param sinkChannel the channel the stream writes to ({@code ... > topic:x}), or {@code null}
 */
public record StreamDefinition(String name, String text, List<StreamModule> modules, ChannelReference sourceChannel,
		ChannelReference sinkChannel) {

	/**
	 * @throws NullPointerException if {@code text} or {@code modules} (or any module) is null
	 * @throws IllegalArgumentException if {@code modules} is empty or a tap is given as the sink channel
	 */
	public StreamDefinition {
		Objects.requireNonNull(text, "text");
		modules = List.copyOf(modules);
		if (modules.isEmpty()) {
			throw new IllegalArgumentException("A stream has at least one module");
		}
		if (sinkChannel != null && sinkChannel.kind().isTap()) {
			throw new IllegalArgumentException("A tap cannot be a sink channel: " + sinkChannel);
		}
	}

	/** The module whose {@link StreamModule#label() label} is {@code label}; labels are unique within a stream. */
	public Optional<StreamModule> module(String label) {
		for (StreamModule module : this.modules) {
			if (module.label().equals(label)) {
				return Optional.of(module);
			}
		}
		return Optional.empty();
	}
}
