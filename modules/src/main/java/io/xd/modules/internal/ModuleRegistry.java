package io.xd.modules.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;

import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;

/**
 * The modules available to streams, keyed by type and name: the built-in ones, fixed when the registry is built from
 * the providers on the class path, and the {@linkplain CustomModule custom} ones, registered and unregistered while
 * the server runs, each loaded from its jar in a class loader of its own. The registry never loads a class named by
 * user input. A custom module cannot take the name of a built-in one. Thread-safe.
 */
public final class ModuleRegistry {

	private final Map<String, ModuleProvider> providers;

	private final ConcurrentMap<String, CustomModule> custom = new ConcurrentHashMap<>();

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

	/** The built-in or custom module of that type and name. */
	public Optional<ModuleProvider> find(ModuleType type, String name) {
		String key = key(type, name);
		ModuleProvider builtIn = this.providers.get(key);
		return (builtIn != null) ? Optional.of(builtIn) : Optional.ofNullable(this.custom.get(key));
	}

	/** Whether a built-in module has that type and name. */
	public boolean isBuiltIn(ModuleType type, String name) {
		return this.providers.containsKey(key(type, name));
	}

	/** The custom module of that type and name. */
	public Optional<CustomModule> findCustom(ModuleType type, String name) {
		return Optional.ofNullable(this.custom.get(key(type, name)));
	}

	/**
	 * Adds a custom module, replacing (and {@linkplain CustomModule#retire() retiring}) one of the same type and
	 * name.
	 * @throws IllegalArgumentException when a built-in module has its type and name
	 */
	public void register(CustomModule module) {
		ModuleMetadata metadata = module.metadata();
		if (isBuiltIn(metadata.type(), metadata.name())) {
			throw new IllegalArgumentException("There is a built-in module " + metadata.qualifiedName());
		}
		CustomModule previous = this.custom.put(metadata.qualifiedName(), module);
		if (previous != null && previous != module) {
			previous.retire();
		}
	}

	/** Removes and retires the custom module of that type and name; returns whether there was one. */
	public boolean unregister(ModuleType type, String name) {
		CustomModule removed = this.custom.remove(key(type, name));
		if (removed != null) {
			removed.retire();
		}
		return removed != null;
	}

	private static String key(ModuleType type, String name) {
		return type.label() + ":" + name;
	}

	/** The metadata of every module of the given name, whatever its type. */
	public List<ModuleMetadata> findByName(String name) {
		return all().stream().filter(metadata -> metadata.name().equals(name)).toList();
	}

	/** Every module's metadata, sorted by type then name. */
	public List<ModuleMetadata> all() {
		return Stream.concat(this.providers.values().stream(), this.custom.values().stream())
			.map(ModuleProvider::metadata)
			.sorted(Comparator.comparing(ModuleMetadata::type).thenComparing(ModuleMetadata::name))
			.toList();
	}
}
