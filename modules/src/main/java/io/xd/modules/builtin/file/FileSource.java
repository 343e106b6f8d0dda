package io.xd.modules.builtin.file;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.PatternSyntaxException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code file} source: polls a directory for regular files whose names match a glob pattern and sends each one
 * as its contents ({@code byte[]}), as one {@code String} message per line (UTF-8), or as its absolute path
 * ({@code String}: no {@code File} object ever goes on a bus). Files present at start are sent first, oldest first;
 * files that appear later are picked up at the next poll. With {@code preventDuplicates} (the default) a path is
 * sent once for the life of the module; without it, every poll sends every matching file again. Symbolic links
 * are skipped, so a source never reads outside the directory it was pointed at. Each message carries the header
 * {@code file_name}. A file should appear whole (written elsewhere, then moved in), as with Spring XD.
 */
public final class FileSource implements Source {

	static final ModuleOption<String> DIR = ModuleOption.ofString("dir")
		.withRule(FilePaths::isDirectory, "be a directory path")
		.withDescription("the directory to poll, under the operator's file roots (a relative path resolves under the "
				+ "first root); defaults to input/<stream name>");

	static final ModuleOption<String> PATTERN = ModuleOption.ofString("pattern")
		.withDefault("*")
		.withRule(FileSource::isGlob, "be a glob pattern for file names, without a directory")
		.withDescription("a glob that file names must match, such as *.csv");

	static final ModuleOption<String> MODE = ModuleOption.ofChoice("mode", "contents", "lines", "ref")
		.withDefault("contents")
		.withDescription("send each file's bytes, each of its lines as text, or its absolute path as text");

	static final ModuleOption<Boolean> PREVENT_DUPLICATES = ModuleOption.ofBoolean("preventDuplicates")
		.withDefault(true)
		.withDescription("send each file only once; otherwise every poll sends every matching file");

	static final ModuleOption<Integer> FIXED_DELAY = ModuleOption.ofInt("fixedDelay")
		.withDefault(5)
		.withMin(1)
		.withDescription("the seconds between two polls of the directory");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "file",
			"Sends the files that appear in a directory, as contents, lines or paths",
			List.of(DIR, PATTERN, MODE, PREVENT_DUPLICATES, FIXED_DELAY));

	/** The header naming the file a message came from. */
	public static final String FILE_NAME_HEADER = "file_name";

	private static final Logger logger = LoggerFactory.getLogger(FileSource.class);

	private final ModuleContext context;

	private final Path directory;

	private final PathMatcher matcher;

	private final String mode;

	private final boolean preventDuplicates;

	private final int delaySeconds;

	private final Set<Path> seen = new HashSet<>();

	private ScheduledExecutorService scheduler;

	public FileSource(ModuleContext context) {
		this.context = context;
		String dir = context.options().get(DIR);
		if (dir == null) {
			if (!FilePaths.isPlainName(context.streamName())) {
				throw new IllegalArgumentException("The stream name '" + context.streamName()
						+ "' is not a directory name: give --dir");
			}
			dir = defaultDirectory(context.streamName());
		}
		this.directory = context.hostAccess().path(DIR.name(), dir);
		this.matcher = FileSystems.getDefault().getPathMatcher("glob:" + context.options().get(PATTERN));
		this.mode = context.options().get(MODE);
		this.preventDuplicates = context.options().get(PREVENT_DUPLICATES);
		this.delaySeconds = context.options().get(FIXED_DELAY);
	}

	/** The directory this source polls. */
	public Path directory() {
		return this.directory;
	}

	@Override
	public void start(MessageChannel output) {
		try {
			Files.createDirectories(this.directory);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The file source cannot create the directory " + this.directory + ": "
					+ ex, ex);
		}
		if (!Files.isReadable(this.directory)) {
			throw new IllegalStateException("The file source cannot read the directory " + this.directory);
		}
		checkStillUnderRoot();
		this.scheduler = ModuleSupport.scheduler(this.context, "file-poller");
		this.scheduler.scheduleWithFixedDelay(() -> poll(output), 0, this.delaySeconds, TimeUnit.SECONDS);
	}

	private void poll(MessageChannel output) {
		List<Path> files;
		try {
			files = matchingFiles();
		}
		catch (IOException ex) {
			logger.error("Stream '{}': could not list {}", this.context.streamName(), this.directory, ex);
			return;
		}
		for (Path file : files) {
			if (Thread.currentThread().isInterrupted()) {
				return;
			}
			if (this.preventDuplicates && !this.seen.add(file)) {
				continue;
			}
			try {
				send(file, output);
			}
			catch (IOException | RuntimeException ex) {
				logger.error("Stream '{}': could not send the file {}", this.context.streamName(), file, ex);
			}
		}
	}

	/** Links may appear after the stream was created: the directory must still be under a file root. */
	private void checkStillUnderRoot() {
		try {
			this.context.hostAccess().checkRealPath(this.directory);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The file source may not read " + this.directory + ": " + ex.getMessage());
		}
	}

	private static String defaultDirectory(String streamName) {
		return "input/" + streamName;
	}

	private List<Path> matchingFiles() throws IOException {
		checkStillUnderRoot();
		List<Path> files = new ArrayList<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.directory)) {
			for (Path entry : entries) {
				if (this.matcher.matches(entry.getFileName())
						&& Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
					files.add(entry);
				}
			}
		}
		files.sort(Comparator.comparing(FileSource::modified).thenComparing(Comparator.naturalOrder()));
		return files;
	}

	private static long modified(Path file) {
		try {
			return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
				.lastModifiedTime()
				.toMillis();
		}
		catch (IOException ex) {
			return Long.MAX_VALUE;
		}
	}

	/**
	 * Sends a file listed as a regular file. It is opened without following a link at its end: a link to a file
	 * outside the roots put in its place after the listing fails the open instead of being read.
	 */
	private void send(Path file, MessageChannel output) throws IOException {
		String name = file.getFileName().toString();
		switch (this.mode) {
			case "ref" -> output.send(message(file.toString(), name));
			case "lines" -> {
				try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file,
						LinkOption.NOFOLLOW_LINKS), StandardCharsets.UTF_8.newDecoder()))) {
					String line;
					while ((line = reader.readLine()) != null) {
						output.send(message(line, name));
					}
				}
			}
			default -> {
				try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
					output.send(message(in.readAllBytes(), name));
				}
			}
		}
	}

	private static <T> Message<T> message(T payload, String fileName) {
		return MessageBuilder.withPayload(payload).setHeader(FILE_NAME_HEADER, fileName).build();
	}

	@Override
	public void stop() {
		ModuleSupport.shutdown(this.scheduler);
	}

	private static boolean isGlob(String pattern) {
		if (pattern.isEmpty() || pattern.indexOf('/') >= 0 || pattern.indexOf('\\') >= 0
				|| pattern.indexOf('\0') >= 0) {
			return false;
		}
		try {
			FileSystems.getDefault().getPathMatcher("glob:" + pattern);
			return true;
		}
		catch (PatternSyntaxException ex) {
			return false;
		}
	}

	/** Declares and creates the {@code file} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, FileSource::new);
		}

		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			// without dir, the default is a relative folder named after the stream: under the first root
			String dir = options.get(DIR);
			if (dir != null) {
				access.path(DIR.name(), dir);
			}
		}
	}
}
