package io.xd.container;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.core.cluster.AdminAddress;
import io.xd.core.cluster.ClusterJson;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.ModuleRecord;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.CustomModule;
import io.xd.modules.internal.ModuleJar;
import io.xd.modules.internal.ModuleJarFetcher;
import io.xd.modules.internal.ModuleRegistry;

/**
 * Finds built-in modules in the registry and custom modules through ZooKeeper: the module's {@link ModuleRecord}
 * gives the jar's SHA-256; a registered module with that digest is used as it is (in singlenode the admin
 * registered it already), else the jar comes from the local cache ({@code <cache>/<sha256>.jar}) or is fetched from
 * an admin over HTTP ({@code GET /modules/{type}/{name}/jar}), checked against the digest, cached and loaded in a
 * class loader of its own. A re-uploaded module (another digest) is fetched again. Fetches are serialized.
 */
public final class CustomModuleFetcher implements ModuleLocator {

	private static final Logger logger = LoggerFactory.getLogger(CustomModuleFetcher.class);

	private final CuratorFramework client;

	private final ModuleRegistry registry;

	private final Path cache;

	private final ModuleJarFetcher jars = new ModuleJarFetcher();

	/**
	 * @param cache the directory of fetched jars, created when needed
	 */
	public CustomModuleFetcher(CuratorFramework client, ModuleRegistry registry, Path cache) {
		this.client = client;
		this.registry = registry;
		this.cache = cache.toAbsolutePath().normalize();
	}

	@Override
	public synchronized Optional<ModuleProvider> find(ModuleType type, String name) {
		if (this.registry.isBuiltIn(type, name) || !ModuleRecord.isValidName(name)) {
			return this.registry.find(type, name);
		}
		Optional<ModuleRecord> record = record(type, name);
		if (record.isEmpty()) {
			return Optional.empty();
		}
		String sha256 = record.get().sha256();
		if (!ModuleRecord.isValidSha256(sha256)) {
			throw new IllegalStateException("The record of module " + type + ":" + name + " has no valid SHA-256");
		}
		Optional<CustomModule> registered = this.registry.findCustom(type, name);
		if (registered.isPresent() && registered.get().sha256().equals(sha256)) {
			return Optional.of(registered.get());
		}
		try {
			Path jar = cachedOrFetched(record.get());
			CustomModule module = ModuleJar.load(jar, type, name, sha256);
			this.registry.register(module);
			return Optional.of(module);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex.getMessage(), ex);
		}
	}

	private Optional<ModuleRecord> record(ModuleType type, String name) {
		try {
			byte[] data = this.client.getData().forPath(ClusterPaths.module(type.label(), name));
			return Optional.of(ClusterJson.read(data, ModuleRecord.class));
		}
		catch (KeeperException.NoNodeException ex) {
			return Optional.empty();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read module " + type + ":" + name + " from ZooKeeper", ex);
		}
	}

	private Path cachedOrFetched(ModuleRecord record) throws IOException {
		Path cached = this.cache.resolve(record.sha256() + ".jar");
		if (Files.isRegularFile(cached) && ModuleJar.sha256(cached).equals(record.sha256())) {
			return cached;
		}
		String from = this.jars.fetch(admins(), record.type(), record.name(), record.sha256(), record.size(),
				cached);
		logger.info("Fetched module {}:{} ({} bytes) {}", record.type(), record.name(), record.size(), from);
		return cached;
	}

	/** The admins' module jar tokens by their REST addresses. */
	private Map<String, String> admins() {
		Map<String, String> admins = new LinkedHashMap<>();
		try {
			for (String id : this.client.getChildren().forPath(ClusterPaths.ADMINS)) {
				try {
					AdminAddress address = ClusterJson.read(this.client.getData().forPath(ClusterPaths.admin(id)),
							AdminAddress.class);
					admins.put(address.url(), address.token());
				}
				catch (KeeperException.NoNodeException ex) {
					// that admin left meanwhile
				}
			}
		}
		catch (KeeperException.NoNodeException ex) {
			return admins;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read the admins' addresses from ZooKeeper", ex);
		}
		return admins;
	}
}
