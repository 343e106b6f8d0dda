package io.xd.modules;

import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A {@link ModuleProvider} for a module whose metadata is a constant and whose instances come from a constructor
 * that takes the {@link ModuleContext}. {@link java.util.ServiceLoader} needs a public class with a public
 * no-argument constructor, so a module declares its provider as a small subclass:
 * <pre>{@code
 * public static final class Provider extends AbstractModuleProvider {
 *     public Provider() {
 *         super(METADATA, UpperCaseProcessor::new);
 *     }
 * }
 * }</pre>
 * A module whose options name what it reaches on the host (files, servers, databases) passes its check as a third
 * argument, {@code super(METADATA, MySink::new, MySink::check)}, or overrides {@link #checkAccess}.
 */
public abstract class AbstractModuleProvider implements ModuleProvider {

	private final ModuleMetadata metadata;

	private final Function<ModuleContext, ? extends Module> factory;

	private final BiConsumer<ModuleOptions, HostAccess> accessCheck;

	/**
	 * @param metadata what the module is and which options it takes
	 * @param factory makes one instance from its context; called on the container's deploying thread
	 */
	protected AbstractModuleProvider(ModuleMetadata metadata, Function<ModuleContext, ? extends Module> factory) {
		this(metadata, factory, (options, access) -> {
		});
	}

	/**
	 * @param metadata what the module is and which options it takes
	 * @param factory makes one instance from its context; called on the container's deploying thread
	 * @param accessCheck what {@link #checkAccess} does: checks what the options reach against the operator's
	 * {@link HostAccess}, throwing a {@link ModuleOptionException} naming the option
	 */
	protected AbstractModuleProvider(ModuleMetadata metadata, Function<ModuleContext, ? extends Module> factory,
			BiConsumer<ModuleOptions, HostAccess> accessCheck) {
		this.metadata = Objects.requireNonNull(metadata, "metadata");
		this.factory = Objects.requireNonNull(factory, "factory");
		this.accessCheck = Objects.requireNonNull(accessCheck, "accessCheck");
	}

	@Override
	public void checkAccess(ModuleOptions options, HostAccess access) {
		this.accessCheck.accept(options, access);
	}

	@Override
	public final ModuleMetadata metadata() {
		return this.metadata;
	}

	@Override
	public final Module create(ModuleContext context) {
		return this.factory.apply(context);
	}
}
