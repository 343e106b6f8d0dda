package io.xd.modules.builtin.file;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Checks on the paths users give the file modules: a directory must be a valid path without NUL characters (where it
 * may lie is {@link io.xd.modules.HostAccess}'s to say); a file name must be a plain name, so it cannot leave the
 * directory it is written to.
 */
final class FilePaths {

	private FilePaths() {
	}

	/** Whether {@code text} is a usable directory path: not blank, no NUL, parseable on this platform. */
	static boolean isDirectory(String text) {
		if (text.isBlank() || text.indexOf('\0') >= 0) {
			return false;
		}
		try {
			Path.of(text);
			return true;
		}
		catch (InvalidPathException ex) {
			return false;
		}
	}

	/** Whether {@code text} is a plain file name: no separator, no NUL, not {@code .} or {@code ..}. */
	static boolean isPlainName(String text) {
		return !text.isEmpty() && text.indexOf('/') < 0 && text.indexOf('\\') < 0 && text.indexOf('\0') < 0
				&& !text.equals(".") && !text.equals("..");
	}
}
