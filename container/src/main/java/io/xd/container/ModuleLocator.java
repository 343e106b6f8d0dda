package io.xd.container;

import java.util.Optional;

import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;

/** Finds the provider of a module the container is told to run. May block (a custom module's jar is fetched). */
@FunctionalInterface
public interface ModuleLocator {

	/**
	 * The provider of {@code type:name}, or empty when there is no such module.
	 * @throws RuntimeException when the module exists but cannot be made available (its jar cannot be fetched or
	 * fails its digest check); the message says why
	 */
	Optional<ModuleProvider> find(ModuleType type, String name);
}
