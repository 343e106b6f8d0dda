package io.xd.modules;

import java.util.Objects;

/**
 * Where a module instance runs: its stream, its label, its position in the stream and its validated options.
 *
 * @param streamName the name of the stream the module belongs to
 * @param label the module's label in the stream (the module name unless the user gave a label)
 * @param index the 0-based position of the module in the stream
 * @param options the module's validated options, defaults included
 */
public record ModuleContext(String streamName, String label, int index, ModuleOptions options) {

	public ModuleContext {
		Objects.requireNonNull(streamName, "streamName");
		Objects.requireNonNull(label, "label");
		Objects.requireNonNull(options, "options");
	}

	/** A name for threads the module starts: {@code xd-<stream>-<label>-<purpose>}. */
	public String threadName(String purpose) {
		return "xd-" + this.streamName + "-" + this.label + "-" + purpose;
	}
}
