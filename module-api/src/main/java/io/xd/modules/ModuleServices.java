package io.xd.modules;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a container offers its modules beyond their options, by type: the {@link Destinations} a {@code router} sends
 * to, the analytics store the analytics sinks count in. A module asks with {@link ModuleContext#service(Class)}; a
 * module that needs a service it does not find fails to start with a message naming it. Immutable.
 */
public final class ModuleServices {

	/** No services: what modules get outside a container (tests, benchmarks) unless given some. */
	public static final ModuleServices NONE = new ModuleServices(Map.of());

	private final Map<Class<?>, Object> services;

	private ModuleServices(Map<Class<?>, Object> services) {
		this.services = services;
	}

	/** These services and {@code service} as a {@code type}. */
	public <T> ModuleServices with(Class<T> type, T service) {
		Map<Class<?>, Object> more = new LinkedHashMap<>(this.services);
		more.put(Objects.requireNonNull(type, "type"), type.cast(Objects.requireNonNull(service, "service")));
		return new ModuleServices(Map.copyOf(more));
	}

	/** The service of this type, if the container offers one. */
	public <T> Optional<T> find(Class<T> type) {
		return Optional.ofNullable(type.cast(this.services.get(type)));
	}

	@Override
	public String toString() {
		return "ModuleServices" + this.services.keySet().stream().map(Class::getSimpleName).toList();
	}
}
