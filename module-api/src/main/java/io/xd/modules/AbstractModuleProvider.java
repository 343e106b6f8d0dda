package io.xd.modules;

import java.util.Objects;
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
 */
public abstract class AbstractModuleProvider implements ModuleProvider {

	private final ModuleMetadata metadata;

	private final Function<ModuleContext, ? extends Module> factory;

	/**
	 * @param metadata what the module is and which options it takes
	 * @param factory makes one instance from its context; called on the container's deploying thread
	 */
	protected AbstractModuleProvider(ModuleMetadata metadata, Function<ModuleContext, ? extends Module> factory) {
		this.metadata = Objects.requireNonNull(metadata, "metadata");
		this.factory = Objects.requireNonNull(factory, "factory");
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
