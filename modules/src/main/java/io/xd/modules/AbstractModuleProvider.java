package io.xd.modules;

import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link ModuleProvider} made of a module's metadata and its constructor, for the common case of a module class
 * that takes its {@link ModuleContext}. {@link java.util.ServiceLoader} needs a class of its own per module, with a
 * public no-argument constructor, so a provider is still a (small) class:
 *
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
	 * @param metadata what {@link #metadata()} returns
	 * @param factory creates an instance from its context; see {@link ModuleProvider#create} for what it may do
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
