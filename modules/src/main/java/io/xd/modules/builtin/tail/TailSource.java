package io.xd.modules.builtin.tail;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code tail} source: follows a file under the operator's file roots and sends each line appended to it as a
 * {@code String}, across rotation (the file renamed or removed and a new one created) and truncation
 * ({@link FileFollower}). It starts at the end of the file, less the last {@code lines} lines, or at its beginning
 * with {@code fromEnd} false. A line the stream fails on is logged, and the source goes on with the next.
 */
public final class TailSource implements Source {

	static final ModuleOption<String> NAME = ModuleOption.ofString("name")
		.withDescription("the file to follow, under the operator's file roots (a relative path resolves under the first); "
				+ "defaults to a file named after the stream");

	static final ModuleOption<Integer> LINES = ModuleOption.ofInt("lines")
		.withDefault(0)
		.withMin(0)
		.withMax(10000)
		.withDescription("how many of the file's last lines to send first, when starting from its end");

	static final ModuleOption<Boolean> FROM_END = ModuleOption.ofBoolean("fromEnd")
		.withDefault(true)
		.withDescription("whether to start at the end of the file (less lines); false sends the whole file first");

	static final ModuleOption<Long> DELAY = ModuleOption.ofLong("delay")
		.withDefault(1000L)
		.withMin(10)
		.withMax(3_600_000)
		.withDescription("the milliseconds between looks for new lines once the end of the file is reached");

	static final ModuleOption<Long> FILE_DELAY = ModuleOption.ofLong("fileDelay")
		.withDefault(5000L)
		.withMin(10)
		.withMax(3_600_000)
		.withDescription("the milliseconds between looks for the file while it does not exist");

	static final ModuleOption<Integer> MAX_LINE_LENGTH = ModuleOption.ofInt("maxLineLength")
		.withDefault(65536)
		.withMin(1)
		.withMax(16 * 1024 * 1024)
		.withDescription("the longest line sent, in bytes; a longer one is cut there, with a warning");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(ModuleSupport::isCharset, "be a charset the JVM knows")
		.withDescription("the charset that decodes the lines");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "tail",
			"Sends each line appended to a file, following it across rotation",
			List.of(NAME, LINES, FROM_END, DELAY, FILE_DELAY, MAX_LINE_LENGTH, CHARSET));

	private static final Logger logger = LoggerFactory.getLogger(TailSource.class);

	private final ModuleContext context;

	private final Path path;

	private FileFollower follower;

	private Thread thread;

	TailSource(ModuleContext context) {
		this.context = context;
		this.path = context.hostAccess().path(NAME.name(), name(context.options(), context.streamName()));
	}

	private static String name(ModuleOptions options, String streamName) {
		return (options.get(NAME) != null) ? options.get(NAME) : streamName;
	}

	/** The file this source follows. */
	public Path path() {
		return this.path;
	}

	@Override
	public void start(MessageChannel output) {
		ModuleOptions options = this.context.options();
		this.follower = new FileFollower(this.path, this.context.hostAccess(), options.get(FROM_END),
				options.get(LINES), options.get(DELAY), options.get(FILE_DELAY), options.get(MAX_LINE_LENGTH),
				Charset.forName(options.get(CHARSET)), this.context.streamName(), line -> send(output, line));
		try {
			this.follower.open();
		}
		catch (IOException ex) {
			throw new IllegalStateException("tail cannot read " + this.path + ": " + ex.getMessage(), ex);
		}
		this.thread = this.context.newThread("tail", this.follower);
		this.thread.start();
	}

	private void send(MessageChannel output, String line) {
		try {
			output.send(ModuleMessages.of(line));
		}
		catch (RuntimeException ex) {
			logger.error("Stream '{}': the tail source could not deliver a line of {}; going on with the next",
					this.context.streamName(), this.path, ex);
		}
	}

	@Override
	public void stop() {
		if (this.follower != null) {
			this.follower.stop();
			this.thread.interrupt();
			try {
				this.thread.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.follower.closeOpen();
		}
	}

	/** Declares and creates the {@code tail} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, TailSource::new);
		}

		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			// without name, the default is a file named after the stream under the first root: checked at create
			if (options.get(NAME) != null) {
				access.path(NAME.name(), options.get(NAME));
			}
		}
	}
}
