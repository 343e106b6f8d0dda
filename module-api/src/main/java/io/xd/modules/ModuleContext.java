package io.xd.modules;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.commons.logging.LogFactory;

/**
 * Where a module instance runs: its stream, its label, its position in the stream and its validated options; and how
 * it tells the container that it can no longer work.
 *
 * @param streamName the name of the stream the module belongs to
 * @param label the module's label in the stream (the module name unless the user gave a label)
 * @param index the 0-based position of the module in the stream
 * @param options the module's validated options, defaults included
 * @param dataDirectory the data directory of the container the module runs in ({@code xd.data.dir}); a module that
 * keeps files there by default (the jdbc sink's embedded database) uses a subdirectory named after itself
 * @param failureHandler what {@link #fail(Throwable)} calls: in a container, it marks the module {@code failed} with
 * the reason and undeploys it
 * @param hostAccess what the operator lets the module reach on the host (files, databases, hosts, ports): a module
 * checks every file it opens with it
 * @param services what the container offers the module beyond its options ({@link #service(Class)})
 */
public record ModuleContext(String streamName, String label, int index, ModuleOptions options, Path dataDirectory,
		Consumer<Throwable> failureHandler, HostAccess hostAccess, ModuleServices services) {

	public ModuleContext {
		Objects.requireNonNull(streamName, "streamName");
		Objects.requireNonNull(label, "label");
		Objects.requireNonNull(options, "options");
		Objects.requireNonNull(dataDirectory, "dataDirectory");
		Objects.requireNonNull(failureHandler, "failureHandler");
		Objects.requireNonNull(hostAccess, "hostAccess");
		Objects.requireNonNull(services, "services");
	}

	/** A context without services ({@link ModuleServices#NONE}). */
	public ModuleContext(String streamName, String label, int index, ModuleOptions options, Path dataDirectory,
			Consumer<Throwable> failureHandler, HostAccess hostAccess) {
		this(streamName, label, index, options, dataDirectory, failureHandler, hostAccess, ModuleServices.NONE);
	}

	/** A context with the default host access of its data directory ({@link HostAccess#defaults}). */
	public ModuleContext(String streamName, String label, int index, ModuleOptions options, Path dataDirectory,
			Consumer<Throwable> failureHandler) {
		this(streamName, label, index, options, dataDirectory, failureHandler, HostAccess.defaults(dataDirectory));
	}

	/** A context in this data directory whose failures are only logged. */
	public ModuleContext(String streamName, String label, int index, ModuleOptions options, Path dataDirectory) {
		this(streamName, label, index, options, dataDirectory, logOnly(streamName, label));
	}

	/** A context in XD's default data directory, {@code ~/.xd/data}, whose failures are only logged. */
	public ModuleContext(String streamName, String label, int index, ModuleOptions options) {
		this(streamName, label, index, options, defaultDataDirectory());
	}

	/** XD's default data directory, {@code ~/.xd/data}, as {@code xd.data.dir} defaults to. */
	public static Path defaultDataDirectory() {
		return Path.of(System.getProperty("user.home"), ".xd", "data");
	}

	/**
	 * The service of this type that the container offers the module.
	 * @throws IllegalStateException naming the module and the service when the container offers none
	 */
	public <T> T service(Class<T> type) {
		Optional<T> found = this.services.find(type);
		return found.orElseThrow(() -> new IllegalStateException("Module " + this.label + " of stream "
				+ this.streamName + " needs a " + type.getSimpleName() + ", which this container does not offer"));
	}

	/** A name for threads the module starts: {@code xd-<stream>-<label>-<purpose>}. */
	public String threadName(String purpose) {
		return "xd-" + this.streamName + "-" + this.label + "-" + purpose;
	}

	/**
	 * Reports that the module can no longer work: a thread of its own died, a resource it depends on is gone for
	 * good. The container marks the module {@code failed} with the cause's message (the stream shows {@code failed}
	 * or {@code incomplete}), stops and unbinds it, and keeps its other modules running. Safe to call from any
	 * thread, more than once (the first call counts).
	 */
	public void fail(Throwable cause) {
		this.failureHandler.accept(cause);
	}

	/**
	 * A new daemon thread named {@link #threadName(String) threadName(purpose)}, not started, whose death by any
	 * {@code Throwable} ({@code OutOfMemoryError} included) {@link #fail(Throwable) fails the module}. Modules start
	 * their threads with it, so that a dead thread does not leave a module reported {@code deployed}.
	 */
	public Thread newThread(String purpose, Runnable task) {
		Thread thread = new Thread(task, threadName(purpose));
		thread.setDaemon(true);
		thread.setUncaughtExceptionHandler((dead, cause) -> fail(cause));
		return thread;
	}

	/**
	 * A factory of threads as {@link #newThread(String, Runnable)} makes them, named
	 * {@code xd-<stream>-<label>-<purpose>-<n>}, for the executors of a module. A task of an executor that throws
	 * does not kill its thread (the executor keeps the exception in the task's future): see
	 * {@code ModuleSupport.scheduler} for one that fails the module then.
	 */
	public ThreadFactory threadFactory(String purpose) {
		AtomicInteger count = new AtomicInteger();
		return task -> newThread(purpose + "-" + count.incrementAndGet(), task);
	}

	private static Consumer<Throwable> logOnly(String streamName, String label) {
		return cause -> LogFactory.getLog(ModuleContext.class)
			.error("Module " + label + " of stream " + streamName + " failed", cause);
	}
}
