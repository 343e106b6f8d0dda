package io.xd.admin.modules;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.admin.AdminException;
import io.xd.admin.cluster.ClusterStore;
import io.xd.admin.dsl.StreamModule;
import io.xd.admin.stream.StreamPlanner;
import io.xd.core.cluster.ClusterJson;
import io.xd.core.cluster.ClusterPaths;
import io.xd.core.cluster.DeploymentRequest;
import io.xd.core.cluster.ModuleRecord;
import io.xd.core.cluster.StreamRecord;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.CustomModule;
import io.xd.modules.internal.ModuleJar;
import io.xd.modules.internal.ModuleJarFetcher;
import io.xd.modules.internal.ModuleJarException;
import io.xd.modules.internal.ModuleRegistry;

/**
 * The admin's custom modules: their jars in a directory (the module repository, {@code <xd.data.dir>/modules}), a
 * {@link ModuleRecord} per module in ZooKeeper, and each module loaded in the {@link ModuleRegistry} so that streams
 * can use it. {@link #start()} loads the stored modules again after a restart, before any stream is planned.
 * <p>
 * No text from a request reaches the file system: a module's file is {@code <type>/<name>.jar}, where the type is
 * one of three words and the name matches {@link ModuleRecord#NAME}; an upload is written to a file of a random name
 * first and moved into place only once it passed every check. Uploads and deletes are serialized.
 */
public final class ModuleRepository implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ModuleRepository.class);

	private static final String INCOMING = ".incoming";

	private final Path root;

	private final ClusterStore store;

	private final ModuleRegistry registry;

	private final StreamPlanner planner;

	private final ModulesProperties properties;

	private final ModuleJarFetcher fetcher = new ModuleJarFetcher();

	private CuratorCache cache;

	public ModuleRepository(Path root, ClusterStore store, ModuleRegistry registry, StreamPlanner planner,
			ModulesProperties properties) {
		this.root = root.toAbsolutePath().normalize();
		this.store = store;
		this.registry = registry;
		this.planner = planner;
		this.properties = properties;
	}

	/**
	 * Creates the repository directory, loads every module ZooKeeper records (fetching a jar this repository lacks
	 * from another admin) and follows the records from then on, so that a module uploaded to or deleted from another
	 * admin is registered or removed here too. A module whose jar cannot be had with the recorded digest is logged
	 * and left out (streams using it fail to deploy with "Could not find module").
	 */
	public void start() throws IOException {
		Files.createDirectories(this.root.resolve(INCOMING));
		this.store.modules().forEach(this::sync);
		this.cache = CuratorCache.build(this.store.client(), ClusterPaths.MODULES);
		this.cache.listenable()
			.addListener(CuratorCacheListener.builder()
				.forCreatesAndChanges((before, node) -> record(node).ifPresent(this::sync))
				.forDeletes(node -> record(node).ifPresent(this::removed))
				.build());
		this.cache.start();
	}

	@Override
	public void close() {
		if (this.cache != null) {
			this.cache.close();
		}
	}

	/** The record a {@code /modules/<type>/<name>} node holds; empty for the type nodes above them. */
	private static Optional<ModuleRecord> record(ChildData node) {
		if (ZKPaths.split(node.getPath()).size() != 3 || node.getData() == null || node.getData().length == 0) {
			return Optional.empty();
		}
		try {
			return Optional.of(ClusterJson.read(node.getData(), ModuleRecord.class));
		}
		catch (RuntimeException ex) {
			logger.error("Ignoring unreadable custom module record {}", node.getPath(), ex);
			return Optional.empty();
		}
	}

	/** Registers the module a record describes, unless it is registered with that digest already. */
	private synchronized void sync(ModuleRecord record) {
		ModuleType type;
		try {
			type = ModuleType.fromLabel(record.type());
			checkName(record.name());
			if (!ModuleRecord.isValidSha256(record.sha256())) {
				throw new IllegalArgumentException("no valid SHA-256");
			}
		}
		catch (IllegalArgumentException | AdminException ex) {
			logger.error("Ignoring custom module record {}:{}: {}", record.type(), record.name(), ex.getMessage());
			return;
		}
		Optional<CustomModule> registered = this.registry.findCustom(type, record.name());
		if (registered.isPresent() && registered.get().sha256().equals(record.sha256())) {
			return;
		}
		Path jar = jar(type, record.name());
		try {
			if (!Files.isRegularFile(jar) || !ModuleJar.sha256(jar).equals(record.sha256())) {
				String from = this.fetcher.fetch(this.store.admins(), type.label(), record.name(), record.sha256(),
						record.size(), jar);
				logger.info("Custom module {}:{} {}", type, record.name(), from);
			}
			this.registry.register(ModuleJar.load(jar, type, record.name(), record.sha256()));
			logger.info("Loaded custom module {}:{} ({})", type, record.name(), record.sha256());
		}
		catch (ModuleJarException | IOException ex) {
			logger.error("Custom module {}:{} is not loaded: {}", type, record.name(), ex.getMessage());
		}
	}

	/** Removes a module another admin deleted. */
	private synchronized void removed(ModuleRecord record) {
		try {
			ModuleType type = ModuleType.fromLabel(record.type());
			checkName(record.name());
			if (this.registry.unregister(type, record.name())) {
				deleteQuietly(jar(type, record.name()));
				logger.info("Removed custom module {}:{}, deleted from ZooKeeper", type, record.name());
			}
		}
		catch (IllegalArgumentException | AdminException ex) {
			// a record this admin never loaded
		}
	}

	/**
	 * Checks, stores and registers a jar as custom module {@code type:name}.
	 * @param body the jar; read to its end or to the size limit
	 * @param length the body's declared length, or -1
	 * @param force replace a custom module of that name
	 * @param source {@code upload} or the coordinates the jar was resolved from
	 * @throws AdminException 400 for a bad name or jar, 409 for a taken name, 413 for a jar over the size limit
	 */
	public synchronized ModuleRecord store(String type, String name, InputStream body, long length, boolean force,
			String source) {
		ModuleType moduleType = parseType(type);
		checkName(name);
		checkNotBuiltIn(moduleType, name);
		if (!force && this.store.findModule(moduleType.label(), name).isPresent()) {
			throw new AdminException(409, "ModuleAlreadyExistsException", "There is already a custom module "
					+ moduleType.label() + ":" + name + "; delete it first or upload with force=true to replace it");
		}
		long max = this.properties.getMaxUploadSize().toBytes();
		if (length > max) {
			throw tooLarge(max);
		}
		Path incoming = this.root.resolve(INCOMING).resolve(UUID.randomUUID() + ".jar");
		try {
			String sha256 = ModuleJar.copy(body, incoming, max);
			ModuleJar.check(incoming, this.properties.jarLimits());
			// a trial load: a provider that fails, a metadata() that throws or a wrong type refuses the upload
			CustomModule trial = ModuleJar.load(incoming, moduleType, name, sha256, this.properties.getLoadTimeout());
			trial.retire();
			Path target = jar(moduleType, name);
			Files.createDirectories(target.getParent());
			Files.move(incoming, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			ModuleRecord record = new ModuleRecord(moduleType.label(), name, sha256, Files.size(target), source);
			CustomModule module = ModuleJar.load(target, moduleType, name, sha256, this.properties.getLoadTimeout());
			this.store.saveModule(record);
			this.registry.register(module);
			logger.info("Stored custom module {}:{} ({} bytes, SHA-256 {}) from {}", moduleType, name, record.size(),
					sha256, source);
			return record;
		}
		catch (ModuleJar.TooLargeException ex) {
			throw tooLarge(max);
		}
		catch (ModuleJarException ex) {
			throw AdminException.badRequest("InvalidModuleException",
					"Module " + moduleType.label() + ":" + name + " refused: " + ex.getMessage());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			deleteQuietly(incoming);
		}
	}

	/**
	 * Deletes custom module {@code type:name}: its record, its jar and its registration. Running instances keep
	 * running until they are undeployed.
	 * @param force delete even when deployed streams use the module
	 * @throws AdminException 404 when there is no such custom module, 400 for a built-in one, 409 when deployed
	 * streams use it and {@code force} is false
	 */
	public synchronized void delete(String type, String name, boolean force) {
		ModuleType moduleType = parseType(type);
		checkName(name);
		if (this.registry.isBuiltIn(moduleType, name)) {
			throw AdminException.badRequest("IllegalArgumentException",
					"Module " + moduleType.label() + ":" + name + " is built in; only custom modules can be deleted");
		}
		find(type, name);
		List<String> users = deployedStreamsUsing(moduleType, name);
		if (!users.isEmpty() && !force) {
			throw new AdminException(409, "ModuleInUseException", "Module " + moduleType.label() + ":" + name
					+ " is used by deployed streams " + String.join(", ", users)
					+ "; undeploy them first or delete with force=true");
		}
		this.store.deleteModule(moduleType.label(), name);
		this.registry.unregister(moduleType, name);
		deleteQuietly(jar(moduleType, name));
		logger.info("Deleted custom module {}:{}", moduleType, name);
	}

	/**
	 * The record of custom module {@code type:name}.
	 * @throws AdminException 400 for a bad type or name, 404 when there is no such custom module
	 */
	public ModuleRecord find(String type, String name) {
		ModuleType moduleType = parseType(type);
		checkName(name);
		return this.store.findModule(moduleType.label(), name)
			.orElseThrow(() -> new AdminException(404, "NoSuchModuleException",
					"There is no custom " + moduleType.label() + " module named '" + name + "'"));
	}

	/** The jar of a stored module, for containers to fetch. */
	public Path jar(ModuleRecord record) {
		return jar(parseType(record.type()), record.name());
	}

	private Path jar(ModuleType type, String name) {
		Path jar = this.root.resolve(type.label()).resolve(name + ".jar").normalize();
		if (!jar.startsWith(this.root)) {
			throw new IllegalStateException("A module path left the repository: " + jar);
		}
		return jar;
	}

	private List<String> deployedStreamsUsing(ModuleType type, String name) {
		List<String> deployed = this.store.deployments().stream().map(DeploymentRequest::stream).toList();
		return this.store.streams()
			.stream()
			.filter(stream -> deployed.contains(stream.name()) && uses(stream, type, name))
			.map(StreamRecord::name)
			.toList();
	}

	private boolean uses(StreamRecord stream, ModuleType type, String name) {
		try {
			for (StreamModule module : this.planner.parse(stream.definition()).modules()) {
				if (module.type() == type && module.name().equals(name)) {
					return true;
				}
			}
			return false;
		}
		catch (AdminException ex) {
			return false;
		}
	}

	private void checkNotBuiltIn(ModuleType type, String name) {
		if (this.registry.isBuiltIn(type, name)) {
			throw new AdminException(409, "ModuleAlreadyExistsException", "There is a built-in module " + type.label()
					+ ":" + name + "; a custom module needs another name");
		}
	}

	/** Checks a module type from a request. */
	public static ModuleType parseType(String type) {
		try {
			return ModuleType.fromLabel(type);
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("IllegalArgumentException", ex.getMessage());
		}
	}

	/**
	 * Checks a module type and name from a request.
	 * @throws AdminException 400 naming what is wrong
	 */
	public static ModuleType check(String type, String name) {
		ModuleType moduleType = parseType(type);
		checkName(name);
		return moduleType;
	}

	private static void checkName(String name) {
		if (!ModuleRecord.isValidName(name)) {
			throw AdminException.badRequest("IllegalArgumentException", "Invalid module name '" + printable(name)
					+ "': a custom module's name is 1 to 64 ASCII letters, digits, '_' or '-', not starting with '-'");
		}
	}

	private static String printable(String name) {
		if (name == null) {
			return "";
		}
		String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
		return shown.replaceAll("\\p{Cntrl}", "?");
	}

	private static AdminException tooLarge(long max) {
		return new AdminException(413, "PayloadTooLargeException",
				"The module jar is larger than " + max + " bytes (xd.modules.maxUploadSize)");
	}

	private static void deleteQuietly(Path file) {
		try {
			Files.deleteIfExists(file);
		}
		catch (IOException ex) {
			logger.warn("Could not delete {}", file, ex);
		}
	}
}
