package io.xd.container;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.MessageBus;
import io.xd.bus.ProducerBinding;
import io.xd.bus.SendCounter;
import io.xd.core.ChannelNames;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.modules.Destinations;
import io.xd.modules.HostAccess;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleServices;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.Sink;
import io.xd.modules.Source;
import io.xd.modules.TypeConversion;
import io.xd.modules.internal.CustomModule;
import io.xd.modules.internal.ModuleRegistry;

/**
 * Turns a {@link ModuleDeployment} into a running module bound to the message bus, and back.
 * <p>
 * Deploying binds the output first, starts the module, then binds the input, so that no message reaches a module
 * before it has started. Undeploying reverses it: the input is unbound first, so no message arrives while the
 * module stops, and the output last, so that what the module sends while stopping still goes somewhere. A failure
 * half-way releases whatever was bound.
 */
public final class ModuleRunner {

	private static final Logger logger = LoggerFactory.getLogger(ModuleRunner.class);

	private final ModuleLocator modules;

	private final MessageBus bus;

	private final MeterRegistry meterRegistry;

	private final Path dataDirectory;

	private final HostAccess hostAccess;

	private final ModuleServices services;

	/**
	 * A runner whose module meters go nowhere but the modules' own {@link RunningModule#meters()}, in XD's default
	 * data directory.
	 */
	public ModuleRunner(ModuleRegistry registry, MessageBus bus) {
		this(registry, bus, new SimpleMeterRegistry(), ModuleContext.defaultDataDirectory());
	}

	/** A runner whose modules' meters go to {@code meterRegistry} and whose modules keep files in the data directory. */
	public ModuleRunner(ModuleRegistry registry, MessageBus bus, MeterRegistry meterRegistry, Path dataDirectory) {
		this(Objects.requireNonNull(registry, "registry")::find, bus, meterRegistry, dataDirectory);
	}

	/**
	 * A runner that finds modules through {@code modules}, such as a {@link CustomModuleFetcher}, with the default
	 * host access of its data directory.
	 */
	public ModuleRunner(ModuleLocator modules, MessageBus bus, MeterRegistry meterRegistry, Path dataDirectory) {
		this(modules, bus, meterRegistry, dataDirectory, HostAccess.defaults(dataDirectory));
	}

	/**
	 * A runner whose modules reach on the host what {@code hostAccess} allows: each module's options are checked
	 * against it ({@link ModuleProvider#checkAccess}) before the module is created, and the module gets it in its
	 * context for what it opens later.
	 */
	public ModuleRunner(ModuleLocator modules, MessageBus bus, MeterRegistry meterRegistry, Path dataDirectory,
			HostAccess hostAccess) {
		this(modules, bus, meterRegistry, dataDirectory, hostAccess, ModuleServices.NONE);
	}

	/**
	 * A runner that also offers its modules {@code services} (an analytics store); each module gets its own
	 * {@link Destinations} on this runner's bus besides.
	 */
	public ModuleRunner(ModuleLocator modules, MessageBus bus, MeterRegistry meterRegistry, Path dataDirectory,
			HostAccess hostAccess, ModuleServices services) {
		this.services = Objects.requireNonNull(services, "services");
		this.modules = Objects.requireNonNull(modules, "modules");
		this.bus = Objects.requireNonNull(bus, "bus");
		this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
		this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
		this.hostAccess = Objects.requireNonNull(hostAccess, "hostAccess");
	}

	/**
	 * Creates, starts and binds the module.
	 * @throws IllegalArgumentException when the module is unknown here or its options are invalid
	 * @throws RuntimeException what the bus or the module threw while binding or starting; nothing stays bound
	 */
	public RunningModule deploy(ModuleDeployment deployment) {
		return deploy(deployment, cause -> logger.error("Module {} failed", deployment.moduleId(), cause));
	}

	/**
	 * Creates, starts and binds the module; {@code onFailure} hears of it when the module reports later that it can
	 * no longer work ({@link ModuleContext#fail(Throwable)}, or a death of one of its threads).
	 * @throws IllegalArgumentException when the module is unknown here or its options are invalid
	 * @throws RuntimeException what the bus or the module threw while binding or starting; nothing stays bound
	 */
	public RunningModule deploy(ModuleDeployment deployment, Consumer<Throwable> onFailure) {
		ModuleType type = ModuleType.fromLabel(deployment.type());
		ModuleProvider provider = this.modules.find(type, deployment.name())
			.orElseThrow(() -> new IllegalArgumentException(
					"Could not find module with name '" + deployment.name() + "' and type '" + type + "'"));
		CustomModule custom = (provider instanceof CustomModule c) ? c : null;
		if (custom != null && !custom.retain()) {
			throw new IllegalStateException("Module " + type + ":" + deployment.name() + " was deleted meanwhile");
		}
		RunningModule running = new RunningModule(deployment, new ModuleMeters(this.meterRegistry, deployment),
				custom);
		try {
			ModuleOptions options = provider.metadata().resolve(deployment.options());
			this.hostAccess.check(provider, options);
			running.destinations = new BusDestinations(this.bus, deployment.moduleId(), running.meters.meterOutput());
			Module module = provider.create(new ModuleContext(deployment.stream(), deployment.label(),
					deployment.index(), options, this.dataDirectory, onFailure, this.hostAccess,
					this.services.with(Destinations.class, running.destinations)));
			running.meters.meterLatency(module, deployment);
			running.meters.shareInputCounts(module);
			MessageChannel output = null;
			if (deployment.output() != null) {
				ProducerBinding producer = bindOutput(deployment, running.meters.meterOutput());
				running.output = producer;
				output = producer.channel();
				if (options.isGiven(TypeConversion.OUTPUT_TYPE)) {
					output = new PayloadConversion(options.get(TypeConversion.OUTPUT_TYPE), deployment.moduleId(),
							false).converting(output);
				}
				running.outputChannel = output;
			}
			start(module, output, deployment);
			running.module = module;
			if (deployment.input() != null) {
				MessageHandler handler = (MessageHandler) module;
				if (options.isGiven(TypeConversion.INPUT_TYPE)) {
					handler = new PayloadConversion(options.get(TypeConversion.INPUT_TYPE), deployment.moduleId(), true)
						.converting(handler);
				}
				running.input = bindInput(deployment, running.meters.meterInput(handler));
			}
			logger.info("Deployed module {} (input {}, output {})", deployment.moduleId(), deployment.input(),
					deployment.output());
			return running;
		}
		catch (RuntimeException ex) {
			running.undeploy();
			throw ex;
		}
		catch (LinkageError ex) {
			// a custom module missing a class its jar should bundle (one XD does not expose)
			running.undeploy();
			throw new IllegalStateException("Module " + deployment.moduleId() + " cannot be linked: " + ex, ex);
		}
	}

	/**
	 * Lets the modules' inputs hand them messages only while {@code mayHandle} says so (see
	 * {@link MessageBus#fence}).
	 */
	public void fence(BooleanSupplier mayHandle) {
		this.bus.fence(mayHandle);
	}

	private ProducerBinding bindOutput(ModuleDeployment deployment, SendCounter counter) {
		BindingProperties properties = BindingProperties.of(deployment.producerProperties());
		if (ChannelNames.isPublishSubscribe(deployment.output())) {
			return this.bus.bindPubSubProducer(deployment.output(), deployment.tap(), properties, counter);
		}
		return this.bus.bindProducer(deployment.output(), deployment.tap(), properties, counter);
	}

	private Binding bindInput(ModuleDeployment deployment, MessageHandler handler) {
		BindingProperties properties = BindingProperties.of(deployment.consumerProperties())
			.withInstanceCount(instanceCount(deployment));
		if (ChannelNames.isPublishSubscribe(deployment.input())) {
			// each consuming stream is a group of its own: its instances share the messages, other streams get copies
			return this.bus.bindPubSubConsumer(deployment.input(), deployment.stream(), handler, properties);
		}
		return this.bus.bindConsumer(deployment.input(), handler, properties);
	}

	/** The module's {@code count} when the user gave one above 1; 0 (every matching container) counts as 1. */
	private static int instanceCount(ModuleDeployment deployment) {
		return Math.max(1, deployment.properties().count());
	}

	private static void start(Module module, MessageChannel output, ModuleDeployment deployment) {
		if (module instanceof Source source) {
			requireChannel(output, deployment, "an output");
			source.start(output);
		}
		else if (module instanceof Processor processor) {
			requireChannel(output, deployment, "an output");
			processor.start(output);
		}
		else if (module instanceof Sink sink) {
			sink.start();
		}
		else {
			throw new IllegalStateException("Module " + deployment.moduleId() + " is neither a source, a processor nor a sink");
		}
	}

	private static void requireChannel(MessageChannel channel, ModuleDeployment deployment, String what) {
		if (channel == null) {
			throw new IllegalArgumentException("Module " + deployment.moduleId() + " needs " + what + " channel");
		}
	}

	/** A deployed module and its bindings. */
	public static final class RunningModule {

		private final ModuleDeployment deployment;

		private final ModuleMeters meters;

		private Module module;

		private Binding input;

		private Binding output;

		private MessageChannel outputChannel;

		private BusDestinations destinations;

		private final CustomModule custom;

		private boolean undeployed;

		RunningModule(ModuleDeployment deployment, ModuleMeters meters, CustomModule custom) {
			this.deployment = deployment;
			this.meters = meters;
			this.custom = custom;
		}

		/** The module's meters: messages and bytes in and out, errors, handling time. */
		public ModuleMeters meters() {
			return this.meters;
		}

		public ModuleDeployment deployment() {
			return this.deployment;
		}

		/**
		 * The channel the module was started with: its output binding's channel, which counts its sends (or whose
		 * directly bound consumer counts them), or {@code null} for a sink. Sending to it is what the module itself
		 * does (benchmarks drive a source this way, through the same path as its own threads).
		 */
		public MessageChannel outputChannel() {
			return this.outputChannel;
		}

		public Module module() {
			return this.module;
		}

		/** Unbinds the input, stops the module, unbinds the output. Idempotent; logs rather than throws. */
		public synchronized void undeploy() {
			if (this.undeployed) {
				return;
			}
			this.undeployed = true;
			unbind(this.input);
			if (this.module != null) {
				try {
					this.module.stop();
				}
				catch (RuntimeException ex) {
					logger.warn("Module {} failed while stopping", this.deployment.moduleId(), ex);
				}
			}
			unbind(this.output);
			if (this.destinations != null) {
				this.destinations.close();
			}
			this.meters.remove();
			if (this.custom != null) {
				// the last instance of a deleted or replaced custom module releases its class loader
				this.custom.release();
			}
			logger.info("Undeployed module {}", this.deployment.moduleId());
		}

		private void unbind(Binding binding) {
			if (binding == null) {
				return;
			}
			try {
				binding.unbind();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not unbind {} of module {}", binding.name(), this.deployment.moduleId(), ex);
			}
		}
	}
}
