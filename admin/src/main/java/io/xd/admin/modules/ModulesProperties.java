package io.xd.admin.modules;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import io.xd.modules.internal.JarLimits;

/**
 * Limits on custom module jars ({@code xd.modules.*}), checked when a jar is uploaded or registered.
 */
@ConfigurationProperties("xd.modules")
public class ModulesProperties {

	/** The largest jar accepted. */
	private DataSize maxUploadSize = DataSize.ofMegabytes(64);

	/** The most bytes a jar's entries may expand to together; more is refused as a possible zip bomb. */
	private DataSize maxExpandedSize = DataSize.ofMegabytes(512);

	/** The most entries a jar may hold. */
	private int maxEntries = JarLimits.DEFAULT.maxEntries();

	/** The highest expansion ratio of an entry over 1 MB expanded; more is refused as a possible zip bomb. */
	private int maxExpansionRatio = JarLimits.DEFAULT.maxRatio();

	/** How long a module jar's provider may take to load and describe itself when it is checked. */
	private Duration loadTimeout = Duration.ofSeconds(10);

	/** Where {@code module register --uri maven://...} resolves module jars. */
	private final Maven maven = new Maven();

	public Duration getLoadTimeout() {
		return this.loadTimeout;
	}

	public void setLoadTimeout(Duration loadTimeout) {
		this.loadTimeout = loadTimeout;
	}

	public Maven getMaven() {
		return this.maven;
	}

	/** The limits as the jar checks take them. */
	public JarLimits jarLimits() {
		return new JarLimits(this.maxEntries, this.maxExpandedSize.toBytes(), this.maxExpansionRatio);
	}

	public DataSize getMaxUploadSize() {
		return this.maxUploadSize;
	}

	public void setMaxUploadSize(DataSize maxUploadSize) {
		this.maxUploadSize = maxUploadSize;
	}

	public DataSize getMaxExpandedSize() {
		return this.maxExpandedSize;
	}

	public void setMaxExpandedSize(DataSize maxExpandedSize) {
		this.maxExpandedSize = maxExpandedSize;
	}

	public int getMaxEntries() {
		return this.maxEntries;
	}

	public void setMaxEntries(int maxEntries) {
		this.maxEntries = maxEntries;
	}

	public int getMaxExpansionRatio() {
		return this.maxExpansionRatio;
	}

	public void setMaxExpansionRatio(int maxExpansionRatio) {
		this.maxExpansionRatio = maxExpansionRatio;
	}

	/** Maven repositories for modules registered by coordinates ({@code xd.modules.maven.*}). */
	public static class Maven {

		/** The local repository of resolved module jars; {@code <xd.data.dir>/maven-repository} when not set. */
		private Path localRepository;

		/**
		 * Remote repositories by id, each with its {@code url}, tried in order; Maven Central when none is set.
		 */
		private Map<String, Repository> remoteRepositories = new LinkedHashMap<>();

		/** Resolve from the local repository only. */
		private boolean offline;

		/** The remote repositories' URLs by id, Maven Central when none is configured. */
		public Map<String, String> remoteUrls() {
			Map<String, String> urls = new LinkedHashMap<>();
			this.remoteRepositories.forEach((id, repository) -> urls.put(id, repository.getUrl()));
			if (urls.isEmpty()) {
				urls.put("central", "https://repo.maven.apache.org/maven2");
			}
			return urls;
		}

		public Path getLocalRepository() {
			return this.localRepository;
		}

		public void setLocalRepository(Path localRepository) {
			this.localRepository = localRepository;
		}

		public Map<String, Repository> getRemoteRepositories() {
			return this.remoteRepositories;
		}

		public void setRemoteRepositories(Map<String, Repository> remoteRepositories) {
			this.remoteRepositories = remoteRepositories;
		}

		public boolean isOffline() {
			return this.offline;
		}

		public void setOffline(boolean offline) {
			this.offline = offline;
		}
	}

	/** A remote Maven repository. */
	public static class Repository {

		/** Its URL, such as https://repo.maven.apache.org/maven2 or file:///srv/maven. */
		private String url;

		public String getUrl() {
			return this.url;
		}

		public void setUrl(String url) {
			this.url = url;
		}
	}
}
