package io.xd.admin.modules;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.supplier.RepositorySystemSupplier;

import io.xd.admin.AdminException;

/**
 * Resolves a module jar named by Maven coordinates, {@code maven://groupId:artifactId[:extension[:classifier]]:version},
 * with Maven Resolver against the repositories of {@code xd.modules.maven.*} (Maven Central unless configured), into
 * a local repository of the admin's. Only the artifact itself is fetched, not its dependencies: a module jar
 * bundles what it needs. Coordinates are checked word by word; neither a path nor a repository comes from the user.
 */
public final class MavenModuleResolver implements AutoCloseable {

	/** The scheme of a module URI. */
	public static final String SCHEME = "maven://";

	private static final Pattern COORDINATE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}");

	private final RepositorySystem system;

	private final Path localRepository;

	private final List<RemoteRepository> remotes = new ArrayList<>();

	private final boolean offline;

	/**
	 * @param localRepository where resolved artifacts are kept
	 * @param remotes repository ids and URLs, in the order they are tried
	 * @param offline use only what the local repository holds
	 */
	public MavenModuleResolver(Path localRepository, Map<String, String> remotes, boolean offline) {
		this.system = new RepositorySystemSupplier().get();
		this.localRepository = localRepository;
		this.offline = offline;
		RepositoryPolicy policy = new RepositoryPolicy(true, RepositoryPolicy.UPDATE_POLICY_DAILY,
				RepositoryPolicy.CHECKSUM_POLICY_FAIL);
		remotes.forEach((id, url) -> this.remotes.add(new RemoteRepository.Builder(id, "default", url).setPolicy(policy)
			.build()));
	}

	/**
	 * The local file of the artifact a {@code maven://} URI names, resolved (downloaded) if needed.
	 * @throws AdminException 400 when the URI is not valid Maven coordinates or the artifact cannot be resolved
	 */
	public Path resolve(String uri) {
		DefaultArtifact artifact = new DefaultArtifact(coordinates(uri));
		DefaultRepositorySystemSession session = MavenRepositorySystemUtils.newSession();
		session.setOffline(this.offline);
		session.setLocalRepositoryManager(
				this.system.newLocalRepositoryManager(session, new LocalRepository(this.localRepository.toFile())));
		try {
			ArtifactResult result = this.system.resolveArtifact(session,
					new ArtifactRequest(artifact, this.remotes, null));
			return result.getArtifact().getFile().toPath();
		}
		catch (ArtifactResolutionException ex) {
			throw AdminException.badRequest("ModuleResolutionException",
					"Could not resolve " + uri + ": " + ex.getMessage());
		}
	}

	/** {@code g:a[:e[:c]]:v} from a {@code maven://} URI, each part checked. */
	static String coordinates(String uri) {
		if (uri == null || !uri.startsWith(SCHEME)) {
			throw AdminException.badRequest("IllegalArgumentException",
					"A module URI is maven://groupId:artifactId[:extension[:classifier]]:version");
		}
		String coordinates = uri.substring(SCHEME.length());
		String[] parts = coordinates.split(":", -1);
		boolean valid = parts.length >= 3 && parts.length <= 5;
		for (String part : parts) {
			valid &= COORDINATE.matcher(part).matches() && !part.contains("..");
		}
		if (!valid) {
			throw AdminException.badRequest("IllegalArgumentException", "Invalid Maven coordinates in '"
					+ (uri.length() > 300 ? uri.substring(0, 300) + "..." : uri)
					+ "': expected maven://groupId:artifactId[:extension[:classifier]]:version, each part letters, "
					+ "digits, '.', '_' or '-'");
		}
		return coordinates;
	}

	@Override
	public void close() {
		this.system.shutdown();
	}
}
