package io.xd.modules.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;

/**
 * The modules available to streams, keyed by type and name. The registry is built once from the providers on the
 * class path and never loads a class named by user input. Immutable and thread-safe.
 */
public final class ModuleRegistry {

	private final Map<String, ModuleProvider> providers;

	/** A registry of exactly the given providers. */
	public ModuleRegistry(Collection<? extends ModuleProvider> providers) {
		Map<String, ModuleProvider> byName = new LinkedHashMap<>();
		for (ModuleProvider provider : providers) {
			ModuleMetadata metadata = provider.metadata();
			ModuleProvider previous = byName.putIfAbsent(metadata.qualifiedName(), provider);
			if (previous != null) {
				throw new IllegalStateException("Two providers declare module " + metadata.qualifiedName() + ": "
						+ previous.getClass().getName() + " and " + provider.getClass().getName());
			}
		}
		this.providers = Map.copyOf(byName);
	}

	/** The registry of every provider listed in {@code META-INF/services} on the given class loader's path. */
	public static ModuleRegistry fromClassPath(ClassLoader classLoader) {
		List<ModuleProvider> found = new ArrayList<>();
		ServiceLoader.load(ModuleProvider.class, classLoader).forEach(found::add);
		return new ModuleRegistry(found);
	}

	/** The registry of the modules on this library's own class path, built-in modules included. */
	public static ModuleRegistry fromClassPath() {
		return fromClassPath(ModuleRegistry.class.getClassLoader());
	}

	public Optional<ModuleProvider> find(ModuleType type, String name) {
		return Optional.ofNullable(this.providers.get(type.label() + ":" + name));
	}

	/** The metadata of every module of the given name, whatever its type. */
	public List<ModuleMetadata> findByName(String name) {
		return all().stream().filter(metadata -> metadata.name().equals(name)).toList();
	}

	/** Every module's metadata, sorted by type then name. */
	public List<ModuleMetadata> all() {
		return this.providers.values()
			.stream()
			.map(ModuleProvider::metadata)
			.sorted(Comparator.comparing(ModuleMetadata::type).thenComparing(ModuleMetadata::name))
			.toList();
	}
}
