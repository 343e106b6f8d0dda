package io.xd.modules.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Fetches a custom module's jar from an admin's REST API ({@code GET <admin>/modules/{type}/{name}/jar}), for a
 * container that runs the module or an admin whose own repository lacks it. The jar must have the expected SHA-256
 * and size; it is written beside its target under a random name and moved into place only then. Thread-safe.
 */
public final class ModuleJarFetcher {

	/** The request header that carries an admin's token. */
	public static final String TOKEN_HEADER = "X-XD-Module-Token";

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.followRedirects(HttpClient.Redirect.NEVER)
		.build();

	/**
	 * Tries each admin in turn until one serves the jar with the expected digest.
	 * @param admins the admins' tokens by their base URLs, such as {@code http://10.0.0.5:9393}
	 * @param type the module type's label, already validated
	 * @param name the module name, already validated
	 * @param size the jar's size: a longer body is refused
	 * @param target where to put the jar
	 * @return a sentence naming the admin that served the jar
	 * @throws IOException naming what each admin did wrong, or that there was none to ask
	 */
	public String fetch(Map<String, String> admins, String type, String name, String sha256, long size, Path target)
			throws IOException {
		List<String> failures = new ArrayList<>();
		Files.createDirectories(target.getParent());
		for (Map.Entry<String, String> entry : admins.entrySet()) {
			String admin = entry.getKey();
			Path incoming = target.resolveSibling(".incoming-" + UUID.randomUUID() + ".jar");
			try {
				URI uri = URI.create(admin + "/modules/" + type + "/" + name + "/jar");
				String digest = download(uri, entry.getValue(), incoming, size);
				if (!digest.equals(sha256)) {
					failures.add(admin + " served a jar with SHA-256 " + digest + ", expected " + sha256);
					continue;
				}
				Files.move(incoming, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
				return "fetched from " + admin;
			}
			catch (IOException | RuntimeException ex) {
				failures.add(admin + ": " + ex.getMessage());
			}
			finally {
				Files.deleteIfExists(incoming);
			}
		}
		throw new IOException("Could not fetch the jar of module " + type + ":" + name + ": "
				+ (failures.isEmpty() ? "no admin is published in ZooKeeper" : String.join("; ", failures)));
	}

	private String download(URI uri, String token, Path target, long size) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(uri)
			.timeout(Duration.ofMinutes(2))
			.header(TOKEN_HEADER, (token == null) ? "" : token)
			.GET()
			.build();
		try {
			HttpResponse<InputStream> response = this.http.send(request, HttpResponse.BodyHandlers.ofInputStream());
			try (InputStream body = response.body()) {
				if (response.statusCode() != 200) {
					throw new IOException("HTTP " + response.statusCode() + " from " + uri);
				}
				return ModuleJar.copy(body, target, size);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while fetching " + uri, ex);
		}
	}
}
