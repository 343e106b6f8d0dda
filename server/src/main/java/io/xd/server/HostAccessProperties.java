package io.xd.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.xd.modules.HostAccess;

/**
 * What stream definitions may reach on the host, as the operator declares it ({@code xd.modules.*}): the admin checks
 * definitions against it when they are created, every container again when it runs their modules. A definition is
 * written by a user with a role, not by the operator; see docs/security.md, "What a stream definition can reach".
 */
@ConfigurationProperties("xd.modules")
public class HostAccessProperties {

	/** Files: where file options may point. */
	private final File file = new File();

	public File getFile() {
		return this.file;
	}

	/** The host access these settings declare, for a server whose data directory is {@code dataDirectory}. */
	public HostAccess toHostAccess(Path dataDirectory) {
		List<Path> roots = this.file.getRoots().isEmpty()
				? List.of(dataDirectory.resolve(HostAccess.DEFAULT_FILE_ROOT))
				: this.file.getRoots().stream().map(root -> root.toAbsolutePath().normalize()).toList();
		return new HostAccess(roots, dataDirectory);
	}

	/** Where file options may point. */
	public static class File {

		/**
		 * The folders that the options of file modules (file source and sink, and every module that opens a path) may
		 * name, each with everything under it; a relative path in a definition resolves under the first. Empty: the
		 * folder files of the data directory. A root may not contain the data directory, nor be under /proc, /sys or
		 * /dev.
		 */
		private List<Path> roots = new ArrayList<>();

		public List<Path> getRoots() {
			return this.roots;
		}

		public void setRoots(List<Path> roots) {
			this.roots = roots;
		}
	}
}
