package io.xd.modules;

/**
 * A running piece of a stream: a {@link Source}, a {@link Processor} or a {@link Sink}.
 * <p>
 * Lifecycle: the runtime creates the module through its {@link ModuleProvider}, binds its input (if any) to the
 * message bus, calls {@code start} exactly once, and later calls {@link #stop()} exactly once. Between the two,
 * messages may arrive on any thread the bus uses, and on several threads at once (a direct binding delivers on
 * the producer's thread; a source with several producer threads therefore calls a sink concurrently). After
 * {@code stop} returns, the module sends nothing more.
 */
public interface Module {

	/**
	 * Stops the module: a source stops producing and waits for its threads to end; a sink releases what it holds
	 * and may log a summary. Must not throw for a module that was never started. The default does nothing.
	 */
	default void stop() {
	}
}
