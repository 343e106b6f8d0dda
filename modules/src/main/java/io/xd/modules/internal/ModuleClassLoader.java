package io.xd.modules.internal;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The class loader of one custom module: its jar first, then a parent that exposes only the module API and the JDK.
 * The module API is what a module author compiles against: the classes of the {@code xd-module-api} artifact
 * ({@code io.xd.modules}, {@code io.xd.modules.expression}, {@code io.xd.modules.testkit}), Spring Messaging, and
 * Spring Integration's core (the API's {@link io.xd.modules.IntegrationModules} hands modules Spring Integration
 * flows). A class is exposed only when it comes from one of those jars: {@code io.xd.modules.internal}, the built-in
 * modules and their drivers (Kafka clients, JDBC drivers, Spring Integration IP...) share package prefixes or a class
 * path with the API but not its jars, and stay invisible. Everything else on XD's own class path (Jackson, Guava, the
 * admin...) is invisible too, so a module brings the versions it needs in its jar without disturbing XD or another
 * module. Resources of XD's class path are invisible as well: a module's {@code META-INF/services} lists only its own
 * providers.
 * <p>
 * Classes are resolved once, when first linked; the hot path of a running module never switches class loaders.
 * Closing the loader (when its module is deleted and no instance runs any more) releases the jar.
 */
public final class ModuleClassLoader extends URLClassLoader {

	static {
		ClassLoader.registerAsParallelCapable();
	}

	/** Package prefixes of XD's class path that a module may see, when the class comes from an API jar. */
	private static final List<String> EXPOSED = List.of("io.xd.modules.", "org.springframework.messaging.",
			"org.springframework.integration.");

	/**
	 * One class of each jar that makes up the module API: the {@code xd-module-api} artifact, Spring Messaging and
	 * Spring Integration's core (absent from a class path without Spring Integration, and then not exposed).
	 */
	private static final List<String> API_JAR_MARKERS = List.of("io.xd.modules.Module",
			"org.springframework.messaging.Message", "org.springframework.integration.core.GenericSelector");

	private static final ClassLoader SPI = new SpiClassLoader(ModuleClassLoader.class.getClassLoader());

	private final String moduleName;

	/**
	 * @param moduleName {@code type:name}, for diagnostics
	 * @param jar the module's jar, already checked with {@link ModuleJar#check}
	 */
	public ModuleClassLoader(String moduleName, Path jar) throws IOException {
		super("module " + moduleName, new URL[] { jar.toUri().toURL() }, SPI);
		this.moduleName = moduleName;
	}

	@Override
	public String toString() {
		return "ModuleClassLoader[" + this.moduleName + "]";
	}

	/** The parent of every module class loader: the JDK's platform classes and the module API's part of XD's. */
	private static final class SpiClassLoader extends ClassLoader {

		static {
			ClassLoader.registerAsParallelCapable();
		}

		private final ClassLoader xd;

		/** Where the module API's jars are on XD's class path (code source locations). */
		private final Set<String> apiLocations;

		SpiClassLoader(ClassLoader xd) {
			super("xd-module-spi", ClassLoader.getPlatformClassLoader());
			this.xd = xd;
			this.apiLocations = API_JAR_MARKERS.stream()
				.map(this::location)
				.flatMap(Optional::stream)
				.collect(Collectors.toUnmodifiableSet());
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (EXPOSED.stream().anyMatch(name::startsWith)) {
				return loadExposed(name).orElseThrow(() -> new ClassNotFoundException(
						name + " (not part of the module API; a custom module ships the libraries it needs in its jar)"));
			}
			return super.loadClass(name, resolve);
		}

		/** The class from XD's class path when it comes from one of the module API's jars. */
		private Optional<Class<?>> loadExposed(String name) {
			try {
				Class<?> type = this.xd.loadClass(name);
				return location(type).filter(this.apiLocations::contains).map(found -> type);
			}
			catch (ClassNotFoundException | LinkageError ex) {
				return Optional.empty();
			}
		}

		private Optional<String> location(String className) {
			try {
				return location(Class.forName(className, false, this.xd));
			}
			catch (ClassNotFoundException | LinkageError ex) {
				return Optional.empty();
			}
		}

		private static Optional<String> location(Class<?> type) {
			CodeSource source = type.getProtectionDomain().getCodeSource();
			return Optional.ofNullable(source).map(CodeSource::getLocation).map(URL::toExternalForm);
		}

		@Override
		protected URL findResource(String name) {
			return null;
		}

		@Override
		protected Enumeration<URL> findResources(String name) {
			return Collections.emptyEnumeration();
		}
	}
}
