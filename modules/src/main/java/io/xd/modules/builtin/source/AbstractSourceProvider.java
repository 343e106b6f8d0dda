package io.xd.modules.builtin.source;

import java.util.function.Function;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleProvider;
import io.xd.modules.Source;

/** The provider of one source of this package: its constant metadata and its constructor. */
abstract class AbstractSourceProvider implements ModuleProvider {

	private final ModuleMetadata metadata;

	private final Function<ModuleContext, Source> factory;

	AbstractSourceProvider(ModuleMetadata metadata, Function<ModuleContext, Source> factory) {
		this.metadata = metadata;
		this.factory = factory;
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
