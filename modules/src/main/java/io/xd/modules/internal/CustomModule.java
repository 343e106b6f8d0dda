package io.xd.modules.internal;

import java.io.IOException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.xd.modules.Module;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleProvider;

/**
 * A module loaded from a user's jar (see {@link ModuleJar#load}): its provider, under the name it was registered
 * with, its class loader and the jar's SHA-256. The runtime counts the instances it runs ({@link #retain()},
 * {@link #release()}); once the module is {@linkplain #retire() retired} (deleted or replaced) and its last
 * instance is gone, the class loader is closed. Thread-safe.
 */
public final class CustomModule implements ModuleProvider {

	private static final Logger logger = LoggerFactory.getLogger(CustomModule.class);

	private final ModuleMetadata metadata;

	private final ModuleProvider provider;

	private final ModuleClassLoader classLoader;

	private final String sha256;

	private int instances;

	private boolean retired;

	private boolean closed;

	CustomModule(ModuleMetadata metadata, ModuleProvider provider, ModuleClassLoader classLoader, String sha256) {
		this.metadata = metadata;
		this.provider = provider;
		this.classLoader = classLoader;
		this.sha256 = sha256;
	}

	@Override
	public ModuleMetadata metadata() {
		return this.metadata;
	}

	/**
	 * Creates an instance with the module's class loader as the thread's context class loader, for libraries
	 * that look classes up through it while they initialize.
	 */
	@Override
	public Module create(ModuleContext context) {
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(this.classLoader);
		try {
			return this.provider.create(context);
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

	/** The module's own check, with its class loader as the thread's context class loader, as {@link #create}. */
	@Override
	public void checkAccess(ModuleOptions options, HostAccess access) {
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(this.classLoader);
		try {
			this.provider.checkAccess(options, access);
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

	/** The hex SHA-256 of the module's jar. */
	public String sha256() {
		return this.sha256;
	}

	public ClassLoader classLoader() {
		return this.classLoader;
	}

	/** Counts an instance that runs; false when the class loader is closed already (the caller must not run it). */
	public synchronized boolean retain() {
		if (this.closed) {
			return false;
		}
		this.instances++;
		return true;
	}

	/** Counts an instance that stopped; closes the class loader after the last one of a retired module. */
	public synchronized void release() {
		this.instances = Math.max(0, this.instances - 1);
		closeIfUnused();
	}

	/** Marks the module deleted or replaced: its class loader closes once no instance runs. */
	public synchronized void retire() {
		this.retired = true;
		closeIfUnused();
	}

	/** Whether the class loader was closed. */
	public synchronized boolean isClosed() {
		return this.closed;
	}

	private void closeIfUnused() {
		if (!this.retired || this.instances > 0 || this.closed) {
			return;
		}
		this.closed = true;
		try {
			this.classLoader.close();
		}
		catch (IOException ex) {
			logger.warn("Could not close the class loader of module {}", this.metadata.qualifiedName(), ex);
		}
	}
}
