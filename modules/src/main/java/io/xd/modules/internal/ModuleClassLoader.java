package io.xd.modules.internal;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one custom module: its jar first, then a parent that exposes only the module SPI
 * ({@code io.xd.modules}, without its {@code internal} and {@code builtin} packages), Spring Messaging, Spring
 * Integration (the SPI's {@link io.xd.modules.IntegrationModules} hands modules Spring Integration flows) and the JDK.
 * Everything else on XD's own class path (Jackson, Guava, Kafka, the built-in modules...) is invisible, so a module
 * brings the versions it needs in its jar without disturbing XD or another module. Resources of XD's class path are
 * invisible too: a module's {@code META-INF/services} lists only its own providers.
 * <p>
 * Classes are resolved once, when first linked; the hot path of a running module never switches class loaders.
 * Closing the loader (when its module is deleted and no instance runs any more) releases the jar.
 */
public final class ModuleClassLoader extends URLClassLoader {

	static {
		ClassLoader.registerAsParallelCapable();
	}

	/** Package prefixes of XD's class path that a module sees. */
	private static final List<String> EXPOSED = List.of("io.xd.modules.", "org.springframework.messaging.",
			"org.springframework.integration.");

	/** Parts of the exposed packages that stay hidden: the runtime's internals and the built-in modules. */
	private static final List<String> HIDDEN = List.of("io.xd.modules.internal.", "io.xd.modules.builtin.");

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

	/** Whether a class of this name, loaded by a module, comes from XD's class path. */
	static boolean isExposed(String className) {
		return EXPOSED.stream().anyMatch(className::startsWith) && HIDDEN.stream().noneMatch(className::startsWith);
	}

	@Override
	public String toString() {
		return "ModuleClassLoader[" + this.moduleName + "]";
	}

	/** The parent of every module class loader: the JDK's platform classes and the exposed part of XD's. */
	private static final class SpiClassLoader extends ClassLoader {

		static {
			ClassLoader.registerAsParallelCapable();
		}

		private final ClassLoader xd;

		SpiClassLoader(ClassLoader xd) {
			super("xd-module-spi", ClassLoader.getPlatformClassLoader());
			this.xd = xd;
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (isExposed(name)) {
				return this.xd.loadClass(name);
			}
			return super.loadClass(name, resolve);
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
