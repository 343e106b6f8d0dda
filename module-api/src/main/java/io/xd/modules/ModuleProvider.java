package io.xd.modules;

/**
 * Declares one module and creates its instances. Providers are found with {@link java.util.ServiceLoader}: a module
 * jar lists its providers in {@code META-INF/services/io.xd.modules.ModuleProvider}. A provider must have a public
 * no-argument constructor and be cheap to create; it is asked for its metadata without any module being run.
 */
public interface ModuleProvider {

	/** The module's type, name, description and options. Must return equal metadata on every call. */
	ModuleMetadata metadata();

	/**
	 * Creates a module instance. The returned module must be a {@link Source}, {@link Processor} or {@link Sink}
	 * matching {@link ModuleMetadata#type()}; {@code context.options()} were resolved against this provider's
	 * metadata, so values need no further checks. Called once per instance, possibly from several threads at once;
	 * must not start threads or send messages (that is {@code start}'s job). An exception fails this instance's
	 * deployment, which the container reports.
	 */
	Module create(ModuleContext context);

	/**
	 * Checks what the options reach on the host against what the operator allows: every option that names a file, a
	 * folder, a database, a host or a port. The admin calls it when a stream is created or its options change, so a
	 * definition that reaches too far is refused with a 400 before anything runs; the container calls it again before
	 * {@link #create}. A module whose options reach nothing on the host keeps this default, which checks nothing.
	 * @param options the options, resolved against {@link #metadata()}
	 * @param access what the operator allows
	 * @throws ModuleOptionException naming the option and what is allowed
	 */
	default void checkAccess(ModuleOptions options, HostAccess access) {
	}
}
