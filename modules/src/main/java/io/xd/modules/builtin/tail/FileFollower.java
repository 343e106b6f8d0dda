package io.xd.modules.builtin.tail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.modules.HostAccess;

/**
 * Follows a file as {@code tail -F} does, on the thread that runs it: sends each line appended (without its
 * {@code \n} or {@code \r\n}) to a consumer, waits for the file when it is missing, and follows it across rotation.
 * A rotation is seen when the path names another file than the one open (its file key, the inode on Unix, differs, or
 * the path is gone): the rest of the old file is read to its end first, its last line even without a newline, then
 * the new file from its beginning, so nothing written before the rotation is lost. A file that shrinks below what was
 * read was truncated: it is read again from its beginning. A line longer than {@code maxLineLength} bytes is cut
 * there, the rest of it skipped with a warning: memory stays bounded whatever the file holds. Every (re)open checks
 * the real path against the operator's file roots, and opens that real path without following a link at its end
 * ({@link #openReal}): a link put in the file's place between the check and the open is refused, not followed.
 * <p>
 * Apache Commons IO's {@code Tailer} would do most of this, but keeps a line in an unbounded buffer and notices a
 * rotation only while the new file is shorter than the old one was.
 */
final class FileFollower implements Runnable {

	private static final Logger logger = LoggerFactory.getLogger(FileFollower.class);

	private final Path path;

	private final HostAccess access;

	private final boolean fromEnd;

	private final int lines;

	private final long delayMillis;

	private final long fileDelayMillis;

	private final int maxLineLength;

	private final Charset charset;

	private final Consumer<String> consumer;

	private final String stream;

	private final ByteBuffer buffer = ByteBuffer.allocate(8192);

	private final byte[] line;

	private int lineLength;

	private boolean skipping;

	private volatile boolean running = true;

	private volatile FileChannel open;

	private volatile Object openKey;

	private volatile long openPosition;

	FileFollower(Path path, HostAccess access, boolean fromEnd, int lines, long delayMillis, long fileDelayMillis,
			int maxLineLength, Charset charset, String stream, Consumer<String> consumer) {
		this.path = path;
		this.access = access;
		this.fromEnd = fromEnd;
		this.lines = lines;
		this.delayMillis = delayMillis;
		this.fileDelayMillis = fileDelayMillis;
		this.maxLineLength = maxLineLength;
		this.charset = charset;
		this.stream = stream;
		this.consumer = consumer;
		this.line = new byte[maxLineLength];
	}

	void stop() {
		this.running = false;
	}

	/**
	 * Opens the file, where it starts, on the calling thread, so that "the end of the file" is its end when the source
	 * starts; a file missing now is read from its beginning once it appears.
	 * @throws IOException when the file cannot be opened, or its real path leaves the file roots
	 */
	void open() throws IOException {
		try {
			FileChannel channel = openReal();
			this.openKey = fileKey();
			this.openPosition = start(channel);
			this.open = channel;
		}
		catch (NoSuchFileException ex) {
			logger.info("Stream '{}': tail waits for {} to exist", this.stream, this.path);
		}
	}

	@Override
	public void run() {
		try {
			while (this.running) {
				FileChannel channel = this.open;
				Object key = this.openKey;
				long position = this.openPosition;
				this.open = null;
				this.openPosition = 0;
				if (channel == null) {
					try {
						channel = openReal();
						key = fileKey();
					}
					catch (NoSuchFileException ex) {
						Thread.sleep(this.fileDelayMillis);
						continue;
					}
				}
				try (FileChannel following = channel) {
					follow(following, key, position);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException ex) {
			if (this.running) {
				throw new IllegalStateException("tail cannot read " + this.path + ": " + ex, ex);
			}
		}
		finally {
			closeOpen();
		}
	}

	/**
	 * Opens the file the path names now, by its real path under the file roots ({@link HostAccess#existingRealPath};
	 * {@link NoSuchFileException} while it is missing), without following a link at its end.
	 */
	private FileChannel openReal() throws IOException {
		return FileChannel.open(this.access.existingRealPath(this.path), StandardOpenOption.READ,
				LinkOption.NOFOLLOW_LINKS);
	}

	/** Closes the file {@link #open()} opened if {@link #run()} never took it. */
	void closeOpen() {
		FileChannel channel = this.open;
		this.open = null;
		if (channel != null) {
			try {
				channel.close();
			}
			catch (IOException ex) {
				// closed either way
			}
		}
	}

	/** Reads the open file until it is rotated (returns) or the follower stops. */
	private void follow(FileChannel channel, Object key, long start) throws IOException, InterruptedException {
		long position = start;
		this.lineLength = 0;
		this.skipping = false;
		while (this.running) {
			long read = readToEnd(channel, position);
			position += read;
			if (read > 0) {
				continue;
			}
			if (isRotated(key)) {
				// whatever the writer added to the old file before it moved on
				position += readToEnd(channel, position);
				if (this.lineLength > 0) {
					emit();
				}
				logger.info("Stream '{}': tail follows the new file {}", this.stream, this.path);
				return;
			}
			if (channel.size() < position) {
				logger.info("Stream '{}': {} was truncated; tail reads it from its beginning", this.stream, this.path);
				position = 0;
				this.lineLength = 0;
				this.skipping = false;
				continue;
			}
			Thread.sleep(this.delayMillis);
		}
	}

	/** Reads from {@code position} to the end of the file as it is now, handing over complete lines; returns bytes read. */
	private long readToEnd(FileChannel channel, long position) throws IOException {
		long total = 0;
		while (this.running) {
			this.buffer.clear();
			int read = channel.read(this.buffer, position + total);
			if (read <= 0) {
				return total;
			}
			total += read;
			for (int i = 0; i < read; i++) {
				accept(this.buffer.get(i));
			}
		}
		return total;
	}

	private void accept(byte b) {
		if (b == '\n') {
			if (!this.skipping) {
				emit();
			}
			this.lineLength = 0;
			this.skipping = false;
		}
		else if (this.skipping) {
			// the rest of a line that was too long
		}
		else if (this.lineLength == this.maxLineLength) {
			logger.warn("Stream '{}': a line of {} is longer than {} bytes; it is cut there", this.stream, this.path,
					this.maxLineLength);
			emit();
			this.lineLength = 0;
			this.skipping = true;
		}
		else {
			this.line[this.lineLength++] = b;
		}
	}

	private void emit() {
		int length = this.lineLength;
		if (length > 0 && this.line[length - 1] == '\r') {
			length--;
		}
		this.lineLength = 0;
		this.consumer.accept(new String(this.line, 0, length, this.charset));
	}

	/** Where to start in the file first opened: its end, less {@code lines} lines, or its beginning. */
	private long start(FileChannel channel) throws IOException {
		long size = channel.size();
		if (!this.fromEnd) {
			return 0;
		}
		if (this.lines == 0 || size == 0) {
			return size;
		}
		// back from the end, past lines + 1 newlines (a newline that ends the file does not start a line)
		long position = size;
		int newlines = 0;
		ByteBuffer back = ByteBuffer.allocate(8192);
		long limit = Math.max(0, size - (long) this.lines * (this.maxLineLength + 2));
		while (position > limit) {
			int chunk = (int) Math.min(back.capacity(), position - limit);
			back.clear().limit(chunk);
			channel.read(back, position - chunk);
			for (int i = chunk - 1; i >= 0; i--) {
				long at = position - chunk + i;
				if (back.get(i) == '\n' && at != size - 1) {
					newlines++;
					if (newlines == this.lines) {
						return at + 1;
					}
				}
			}
			position -= chunk;
		}
		return limit;
	}

	private Object fileKey() {
		try {
			return Files.readAttributes(this.path, BasicFileAttributes.class).fileKey();
		}
		catch (IOException ex) {
			return null;
		}
	}

	/** Whether the path now names another file than the open one, or none. */
	private boolean isRotated(Object key) {
		if (!Files.exists(this.path)) {
			return true;
		}
		Object now = fileKey();
		return key != null && now != null && !Objects.equals(key, now);
	}
}
