package io.xd.admin.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.xd.admin.AdminException;
import io.xd.admin.dsl.ChannelReference;
import io.xd.admin.dsl.DslException;
import io.xd.admin.dsl.StreamDefinition;
import io.xd.admin.dsl.StreamModule;
import io.xd.admin.dsl.StreamParser;
import io.xd.core.ChannelNames;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.ModuleRegistry;

/**
 * Checks a stream definition against the modules that exist and the streams it taps, and works out how each
 * module is bound. Every problem is an {@link AdminException} with status 400 and a message a user can act on.
 */
public final class StreamPlanner {

	private final StreamParser parser = new StreamParser();

	private final ModuleRegistry registry;

	private final HostAccess hostAccess;

	private final SecretMasker secrets;

	/** A planner that checks what definitions reach on the host against the default host access. */
	public StreamPlanner(ModuleRegistry registry) {
		this(registry, HostAccess.defaults(ModuleContext.defaultDataDirectory()));
	}

	/** A planner that refuses definitions whose options reach on the host what {@code hostAccess} does not allow. */
	public StreamPlanner(ModuleRegistry registry, HostAccess hostAccess) {
		this.registry = registry;
		this.hostAccess = hostAccess;
		this.secrets = new SecretMasker(registry);
	}

	/** Masks the values of secret options in what the admin answers, with this planner's modules. */
	public SecretMasker secrets() {
		return this.secrets;
	}

	/**
	 * Plans stream {@code name}.
	 * @param streams finds the definition text of another stream, for taps
	 * @throws AdminException 400 for a DSL error (logref {@code StreamDefinitionException}), an unknown module
	 * or option ({@code ModuleNotFoundException}, {@code ModuleOptionException}) or a bad tap
	 */
	public StreamPlan plan(String name, String text, Function<String, Optional<String>> streams) {
		StreamDefinition definition = parse(text);
		if (definition.name() != null && name != null && !definition.name().equals(name)) {
			throw AdminException.badRequest("StreamDefinitionException", "The definition names the stream '"
					+ definition.name() + "', but the request names it '" + name + "'");
		}
		String streamName = (name != null) ? name : definition.name();
		List<StreamModule> modules = definition.modules();
		List<ModuleDeployment> deployments = new ArrayList<>();
		for (StreamModule module : modules) {
			ModuleProvider provider = findModule(module);
			try {
				this.hostAccess.check(provider, provider.metadata().resolve(module.options()));
			}
			catch (ModuleOptionException ex) {
				throw AdminException.badRequest("ModuleOptionException", ex.getMessage());
			}
			int i = module.index();
			String input = (i == 0) ? inputChannel(definition.sourceChannel(), streams)
					: ChannelNames.pipe(streamName, i - 1);
			String output = (i == modules.size() - 1) ? outputChannel(definition.sinkChannel())
					: ChannelNames.pipe(streamName, i);
			String tap = (output != null) ? ChannelNames.streamTap(streamName, module.name(), i) : null;
			deployments.add(new ModuleDeployment(streamName, module.label(), module.name(), module.type().label(), i, 0,
					module.options(), null, input, output, tap));
		}
		return new StreamPlan(streamName, definition, deployments);
	}

	/** Parses without checking modules: for reading stored definitions. */
	/**
	 * Checks the {@code app.<label>.<option>} overrides of deployment properties as the definition's own options are
	 * checked: each module's options with the overrides over them must resolve.
	 * @throws AdminException 400 naming the module and option
	 */
	public void checkOptionOverrides(StreamPlan plan, DeploymentProperties properties) {
		for (ModuleDeployment module : plan.modules()) {
			if (properties.options(module.label()).isEmpty()) {
				continue;
			}
			ModuleProvider provider = this.registry.find(ModuleType.fromLabel(module.type()), module.name())
				.orElseThrow(() -> AdminException.badRequest("ModuleNotFoundException",
						"Could not find module with name '" + module.name() + "' and type '" + module.type() + "'"));
			try {
				this.hostAccess.check(provider, provider.metadata().resolve(StreamPlan.options(module, properties)));
			}
			catch (ModuleOptionException ex) {
				throw AdminException.badRequest("ModuleOptionException", ex.getMessage());
			}
		}
	}

	public StreamDefinition parse(String text) {
		try {
			return this.parser.parse(text);
		}
		catch (DslException ex) {
			throw new DefinitionException(ex);
		}
	}

	private ModuleProvider findModule(StreamModule module) {
		Optional<ModuleProvider> provider = this.registry.find(module.type(), module.name());
		if (provider.isPresent()) {
			return provider.get();
		}
		List<ModuleMetadata> sameName = this.registry.findByName(module.name());
		String hint = sameName.isEmpty() ? ""
				: "; '" + module.name() + "' is a " + sameName.get(0).type() + ", but at position " + module.position()
						+ " the stream needs a " + module.type();
		throw AdminException.badRequest("ModuleNotFoundException", "Could not find module with name '" + module.name()
				+ "' and type '" + module.type() + "'" + hint);
	}

	private String inputChannel(ChannelReference channel, Function<String, Optional<String>> streams) {
		if (channel == null) {
			return null;
		}
		return switch (channel.kind()) {
			case QUEUE -> ChannelNames.QUEUE_PREFIX + channel.name();
			case TOPIC, TAP_TOPIC -> ChannelNames.TOPIC_PREFIX + channel.name();
			case TAP_QUEUE -> throw AdminException.badRequest("StreamDefinitionException",
					"Tapping a queue is not supported ('" + channel + "'): publish to a topic and consume it instead");
			case TAP_STREAM -> streamTap(channel, streams);
		};
	}

	private static String outputChannel(ChannelReference channel) {
		if (channel == null) {
			return null;
		}
		return switch (channel.kind()) {
			case QUEUE -> ChannelNames.QUEUE_PREFIX + channel.name();
			case TOPIC -> ChannelNames.TOPIC_PREFIX + channel.name();
			default -> throw AdminException.badRequest("StreamDefinitionException",
					"'" + channel + "' cannot be written to");
		};
	}

	private String streamTap(ChannelReference channel, Function<String, Optional<String>> streams) {
		String tapped = channel.name();
		String text = streams.apply(tapped)
			.orElseThrow(() -> AdminException.badRequest("StreamDefinitionException",
					"'" + channel + "' taps stream '" + tapped + "', which does not exist"));
		StreamDefinition definition = parse(text);
		StreamModule module;
		if (channel.label() == null) {
			module = definition.modules().get(0);
		}
		else {
			module = definition.module(channel.label())
				.orElseThrow(() -> AdminException.badRequest("StreamDefinitionException",
						"'" + channel + "': stream '" + tapped + "' has no module labelled '" + channel.label()
								+ "'; its labels are "
								+ String.join(", ", definition.modules().stream().map(StreamModule::label).toList())));
		}
		boolean last = module.index() == definition.modules().size() - 1;
		if (last && definition.sinkChannel() == null) {
			throw AdminException.badRequest("StreamDefinitionException", "'" + channel + "': module '" + module.label()
					+ "' of stream '" + tapped + "' is a sink, so it has no output to tap");
		}
		return ChannelNames.streamTap(tapped, module.name(), module.index());
	}

	/** A DSL error, carried with its code and position to the REST layer. */
	public static final class DefinitionException extends AdminException {

		private final transient DslException cause;

		DefinitionException(DslException cause) {
			super(400, "StreamDefinitionException", cause.getMessage());
			this.cause = cause;
		}

		public DslException dslException() {
			return this.cause;
		}
	}
}
