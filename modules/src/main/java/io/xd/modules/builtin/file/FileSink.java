package io.xd.modules.builtin.file;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code file} sink: writes each payload to the file {@code <dir>/<name>.<suffix>}, as a line of text or, with
 * {@code binary}, as raw bytes. The file is opened at start (the module fails there, with the reason, when the
 * directory cannot be created or written, or when {@code mode=FAIL} finds the file already there), flushed after
 * every message so a reader sees each line at once, and closed at stop. Messages from several threads are written
 * one at a time, whole.
 */
public final class FileSink implements Sink {

	static final ModuleOption<String> DIR = ModuleOption.ofString("dir")
		.withDefault("output")
		.withRule(FilePaths::isDirectory, "be a directory path")
		.withDescription("the directory to write the file in, under the operator's file roots (a relative path "
				+ "resolves under the first root); created if missing");

	static final ModuleOption<String> NAME = ModuleOption.ofString("name")
		.withRule(FilePaths::isPlainName, "be a file name without a directory")
		.withDescription("the file name without its suffix; defaults to the stream name");

	static final ModuleOption<String> SUFFIX = ModuleOption.ofString("suffix")
		.withDefault("out")
		.withRule(text -> text.isEmpty() || FilePaths.isPlainName(text), "be a file name suffix")
		.withDescription("the file name's extension, after a dot; empty for none");

	static final ModuleOption<String> MODE = ModuleOption.ofChoice("mode", "APPEND", "REPLACE", "FAIL")
		.withDefault("APPEND")
		.withDescription("what to do when the file exists: add to it, start it afresh, or fail the deployment");

	static final ModuleOption<Boolean> BINARY = ModuleOption.ofBoolean("binary")
		.withDefault(false)
		.withDescription("write payload bytes as they are, with no line separator after each message");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(ModuleSupport::isCharset, "be a character set this JVM supports")
		.withDescription("the character set text payloads are encoded in");

	static final ModuleOption<String> COMPRESSION = ModuleOption.ofChoice("compression", "none", "gzip")
		.withDefault("none")
		.withDescription("gzip compresses the file and adds .gz to its name");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "file",
			"Writes each payload to a file, one line per message unless binary",
			List.of(DIR, NAME, SUFFIX, MODE, BINARY, CHARSET, COMPRESSION));

	private final Path file;

	private final HostAccess access;

	private final String mode;

	private final boolean binary;

	private final Charset charset;

	private final byte[] lineSeparator;

	private final boolean gzip;

	private OutputStream out;

	public FileSink(ModuleContext context) {
		String name = context.options().get(NAME);
		if (name == null) {
			name = context.streamName();
			if (!FilePaths.isPlainName(name)) {
				throw new IllegalArgumentException("The stream name '" + name + "' is not a file name: give --name");
			}
		}
		String suffix = context.options().get(SUFFIX);
		this.gzip = context.options().get(COMPRESSION).equals("gzip");
		String fileName = name + (suffix.isEmpty() ? "" : "." + suffix) + (this.gzip ? ".gz" : "");
		this.file = context.hostAccess().path(DIR.name(), context.options().get(DIR)).resolve(fileName);
		this.access = context.hostAccess();
		this.mode = context.options().get(MODE);
		this.binary = context.options().get(BINARY);
		this.charset = Charset.forName(context.options().get(CHARSET));
		this.lineSeparator = System.lineSeparator().getBytes(this.charset);
	}

	/** The file this sink writes. */
	public Path file() {
		return this.file;
	}

	@Override
	public synchronized void start() {
		Path directory = this.file.getParent();
		try {
			Files.createDirectories(directory);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The file sink cannot create the directory " + directory + ": " + ex, ex);
		}
		try {
			// links may have appeared since the stream was created: the directory must still be under a file root
			this.access.checkRealPath(directory);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The file sink may not write in " + directory + ": " + ex.getMessage());
		}
		if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
			throw new IllegalStateException("The file sink cannot write in the directory " + directory
					+ ": it is not a writable directory");
		}
		try {
			OutputStream stream = Files.newOutputStream(this.file, openOptions());
			this.out = this.gzip ? new GZIPOutputStream(stream, 8192, true) : new BufferedOutputStream(stream);
		}
		catch (FileAlreadyExistsException ex) {
			throw new IllegalStateException("The file sink's file " + this.file + " already exists and mode is FAIL",
					ex);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The file sink cannot open " + this.file + ": " + ex, ex);
		}
	}

	/** How the file is opened: never through a symbolic link, which the sink did not create. */
	private OpenOption[] openOptions() {
		return switch (this.mode) {
			case "REPLACE" -> new OpenOption[] { StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
					StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS };
			case "FAIL" -> new OpenOption[] { StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
					LinkOption.NOFOLLOW_LINKS };
			default -> new OpenOption[] { StandardOpenOption.CREATE, StandardOpenOption.APPEND,
					LinkOption.NOFOLLOW_LINKS };
		};
	}

	@Override
	public void handleMessage(Message<?> message) {
		byte[] bytes = bytes(message.getPayload());
		synchronized (this) {
			if (this.out == null) {
				throw new MessagingException(message, "The file sink for " + this.file + " is not open");
			}
			try {
				this.out.write(bytes);
				if (!this.binary) {
					this.out.write(this.lineSeparator);
				}
				this.out.flush();
			}
			catch (IOException ex) {
				throw new MessagingException(message, "The file sink could not write to " + this.file, ex);
			}
		}
	}

	private byte[] bytes(Object payload) {
		if (payload instanceof byte[] bytes) {
			return bytes;
		}
		return String.valueOf(payload).getBytes(this.charset);
	}

	@Override
	public synchronized void stop() {
		if (this.out != null) {
			try {
				this.out.close();
			}
			catch (IOException ex) {
				throw new UncheckedIOException("The file sink could not close " + this.file, ex);
			}
			finally {
				this.out = null;
			}
		}
	}

	/** Declares and creates the {@code file} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, FileSink::new);
		}

		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			access.path(DIR.name(), options.get(DIR));
		}
	}
}
