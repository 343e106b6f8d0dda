package io.xd.modules;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What the operator lets stream definitions reach on the host. A stream definition is untrusted input, written by a
 * user who holds a role, not by the operator: a module option that names a file, a folder, a database, a host or a
 * port reaches only what the operator declared here. Modules check their options with it twice: when a stream is
 * created (the admin calls {@link ModuleProvider#checkAccess}, and a refusal is a 400 naming the option and what is
 * allowed), and when they open what the option names (on the container, where links and files may have changed since).
 * <p>
 * <b>Files.</b> Paths are allowed under the file roots only ({@code xd.modules.file.roots}; by default the folder
 * {@code files} of the data directory). A relative path resolves under the first root. A path that leaves every root
 * (through {@code ..}, an absolute path, or a symbolic link, checked on the real path), or that lies on a special file
 * system ({@code /proc}, {@code /sys}, {@code /dev}), is refused. A root never contains the data directory, so the
 * server's own files (credentials, the stream store) are out of every definition's reach.
 * <p>
 * Instances are immutable and thread-safe.
 */
public final class HostAccess {

	/** File systems no root may be on: they expose the host's processes, devices and kernel. */
	public static final List<Path> SPECIAL_FILE_SYSTEMS = List.of(Path.of("/proc"), Path.of("/sys"), Path.of("/dev"));

	/** The folder of the data directory that is the file root when the operator names none. */
	public static final String DEFAULT_FILE_ROOT = "files";

	private final List<Path> fileRoots;

	/**
	 * @param fileRoots the folders file options may name, absolute; the first is where relative paths resolve
	 * @param dataDirectory the server's data directory, which no root may contain
	 * @throws IllegalArgumentException for a relative root, one on a special file system, or one that contains the
	 * data directory
	 */
	public HostAccess(List<Path> fileRoots, Path dataDirectory) {
		Objects.requireNonNull(fileRoots, "fileRoots");
		Path data = dataDirectory.toAbsolutePath().normalize();
		this.fileRoots = fileRoots.stream().map(root -> checkedRoot(root, data)).toList();
	}

	/** The defaults: one file root, the folder {@value #DEFAULT_FILE_ROOT} of the data directory. */
	public static HostAccess defaults(Path dataDirectory) {
		return new HostAccess(List.of(dataDirectory.resolve(DEFAULT_FILE_ROOT)), dataDirectory);
	}

	private static Path checkedRoot(Path root, Path dataDirectory) {
		if (!root.isAbsolute()) {
			throw new IllegalArgumentException("The file root '" + root + "' is not an absolute path");
		}
		Path normalized = root.normalize();
		if (onSpecialFileSystem(normalized)) {
			throw new IllegalArgumentException("The file root '" + root + "' is on a special file system "
					+ SPECIAL_FILE_SYSTEMS);
		}
		if (dataDirectory.startsWith(normalized)) {
			throw new IllegalArgumentException("The file root '" + root + "' contains the data directory "
					+ dataDirectory + ", whose files (credentials, the stream store) no stream may reach");
		}
		return normalized;
	}

	/** The folders file options may name; relative paths resolve under the first. */
	public List<Path> fileRoots() {
		return this.fileRoots;
	}

	/**
	 * The absolute path that a file option names, checked: under a root once normalised, not on a special file
	 * system, and, where it exists already, with a real path (links followed) under a root's real path.
	 * @param option the option's name, for the message
	 * @param text the option's value; a relative path resolves under the first root
	 * @throws ModuleOptionException naming the option and the roots
	 */
	public Path path(String option, String text) {
		if (this.fileRoots.isEmpty()) {
			throw refused(option, text, "no file roots are declared (xd.modules.file.roots)");
		}
		Path given;
		try {
			given = (text.indexOf('\0') >= 0) ? null : Path.of(text);
		}
		catch (InvalidPathException ex) {
			given = null;
		}
		if (given == null) {
			throw refused(option, text, "it is not a path");
		}
		Path resolved = this.fileRoots.get(0).resolve(given).normalize();
		if (!isUnderRoot(resolved) || onSpecialFileSystem(resolved)) {
			throw refused(option, text, "it is not under a file root");
		}
		try {
			checkRealPath(resolved);
		}
		catch (IOException ex) {
			throw refused(option, text, "a symbolic link on its way leads out of the file roots");
		}
		return resolved;
	}

	/**
	 * Checks, when a module opens it, that a path lies under a root on disk: the real path of the path, or of its
	 * nearest existing parent, links followed, is under the real path of a root. Call it right before opening: it
	 * sees links made after the stream was created.
	 * @return the path
	 * @throws AccessDeniedException when the real path leads out of the file roots
	 * @throws IOException when the file system cannot tell
	 */
	public Path checkRealPath(Path path) throws IOException {
		Path absolute = path.toAbsolutePath().normalize();
		Path existing = absolute;
		while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
			existing = existing.getParent();
		}
		if (existing == null) {
			throw new AccessDeniedException(path.toString(), null, "not under a file root");
		}
		Path real = existing.toRealPath();
		for (Path root : this.fileRoots) {
			if (!absolute.startsWith(root)) {
				continue;
			}
			if (!existing.startsWith(root)) {
				// the root does not exist yet, so nothing under it does: no link can lead out
				return path;
			}
			if (real.startsWith(realPathOf(root)) && !onSpecialFileSystem(real)) {
				return path;
			}
		}
		throw new AccessDeniedException(path.toString(), null,
				"its real path " + real + " is not under a file root " + this.fileRoots);
	}

	private boolean isUnderRoot(Path normalized) {
		return this.fileRoots.stream().anyMatch(normalized::startsWith);
	}

	/** A root's real path when it exists, else the root itself (nothing exists under it yet). */
	private static Path realPathOf(Path root) throws IOException {
		return Files.exists(root) ? root.toRealPath() : root;
	}

	private static boolean onSpecialFileSystem(Path path) {
		return SPECIAL_FILE_SYSTEMS.stream().anyMatch(path::startsWith);
	}

	private ModuleOptionException refused(String option, String text, String reason) {
		String shown = (text.length() > 200) ? text.substring(0, 200) + "..." : text;
		return new ModuleOptionException("option '" + option + "'", List.of("'" + shown.replace('\0', '?')
				+ "' is refused: " + reason + "; file options may name paths under " + this.fileRoots
				+ " only (the operator's xd.modules.file.roots)"));
	}

	@Override
	public String toString() {
		return "HostAccess[fileRoots=" + this.fileRoots + "]";
	}
}
