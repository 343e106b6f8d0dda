package io.xd.modules;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a module instance runs: its stream, its label, its position in the stream and its validated options.
 *
 * @param streamName the name of the stream the module belongs to
 * @param label the module's label in the stream (the module name unless the user gave a label)
 * @param index the 0-based position of the module in the stream
 * @param options the module's validated options, defaults included
 * @param dataDirectory the data directory of the container the module runs in ({@code xd.data.dir}); a module that
 * keeps files there by default (the jdbc sink's embedded database) uses a subdirectory named after itself
 */
public record ModuleContext(String streamName, String label, int index, ModuleOptions options, Path dataDirectory) {

	public ModuleContext {
		Objects.requireNonNull(streamName, "streamName");
		Objects.requireNonNull(label, "label");
		Objects.requireNonNull(options, "options");
		Objects.requireNonNull(dataDirectory, "dataDirectory");
	}

	/** A context in XD's default data directory, {@code ~/.xd/data}. */
	public ModuleContext(String streamName, String label, int index, ModuleOptions options) {
		this(streamName, label, index, options, defaultDataDirectory());
	}

	/** XD's default data directory, {@code ~/.xd/data}, as {@code xd.data.dir} defaults to. */
	public static Path defaultDataDirectory() {
		return Path.of(System.getProperty("user.home"), ".xd", "data");
	}

	/** A name for threads the module starts: {@code xd-<stream>-<label>-<purpose>}. */
	public String threadName(String purpose) {
		return "xd-" + this.streamName + "-" + this.label + "-" + purpose;
	}
}
