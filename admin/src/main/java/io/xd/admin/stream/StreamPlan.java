package io.xd.admin.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import io.xd.admin.dsl.StreamDefinition;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;

/**
 * A validated stream: its parsed definition and, for each module in stream order, how it is bound (input, output
 * and tap channels). Deployment properties are applied with {@link #deployments(DeploymentProperties)}.
 *
 * @param name the stream name
 * @param definition the parsed definition
 * @param modules one template per module, in stream order, with sequence 0 and no deployment properties
 */
public record StreamPlan(String name, StreamDefinition definition, List<ModuleDeployment> modules) {

	private static final String DIRECT = ModuleDeploymentProperties.DIRECT_BINDING_ALLOWED;

	public StreamPlan {
		modules = List.copyOf(modules);
	}

	public Set<String> labels() {
		return this.modules.stream().map(ModuleDeployment::label).collect(Collectors.toSet());
	}

	/**
	 * The modules with the given deployment properties applied (still sequence 0), in stream order: their own
	 * deployment properties, and their options with the {@code app.<label>.<option>} overrides over the definition's.
	 * Each pipe whose two modules are placed together in every container gets
	 * {@code directBindingAllowed=true} on both ends ({@link #bindsDirectly}).
	 */
	public List<ModuleDeployment> deployments(DeploymentProperties properties) {
		List<ModuleDeploymentProperties> placed = new ArrayList<>();
		for (ModuleDeployment module : this.modules) {
			placed.add(properties.module(module.label()));
		}
		for (int i = 0; i < placed.size() - 1; i++) {
			if (bindsDirectly(placed.get(i), placed.get(i + 1))) {
				placed.set(i, with(placed.get(i), true));
				placed.set(i + 1, with(placed.get(i + 1), false));
			}
		}
		List<ModuleDeployment> deployments = new ArrayList<>();
		for (int i = 0; i < this.modules.size(); i++) {
			ModuleDeployment module = this.modules.get(i);
			deployments.add(new ModuleDeployment(module.stream(), module.label(), module.name(), module.type(),
					module.index(), 0, options(module, properties), placed.get(i), module.input(), module.output(),
					module.tap()));
		}
		return List.copyOf(deployments);
	}

	/**
	 * Spring XD's rule for binding a pipe directly: both modules deploy to every matching container ({@code count=0})
	 * with the same criteria, so each container that runs the producer runs its consumer too; the producer does not
	 * partition (its messages must reach the consumer instance its key picks); and the user did not set
	 * {@code producer.directBindingAllowed=false}. A tap of the producer still goes through the transport.
	 */
	static boolean bindsDirectly(ModuleDeploymentProperties producer, ModuleDeploymentProperties consumer) {
		return producer.count() == 0 && consumer.count() == 0
				&& Objects.equals(producer.criteria(), consumer.criteria())
				&& !producer.producer().containsKey(DeploymentProperties.PARTITION_KEY_EXPRESSION)
				&& !"false".equalsIgnoreCase(String.valueOf(producer.producer().get(DIRECT)).trim());
	}

	private static ModuleDeploymentProperties with(ModuleDeploymentProperties properties, boolean producerSide) {
		Map<String, String> side = new LinkedHashMap<>(producerSide ? properties.producer() : properties.consumer());
		side.put(DIRECT, "true");
		return producerSide
				? new ModuleDeploymentProperties(properties.count(), properties.criteria(), side, properties.consumer())
				: new ModuleDeploymentProperties(properties.count(), properties.criteria(), properties.producer(), side);
	}

	/** A module's options: the definition's, with the deployment's overrides over them. */
	static Map<String, String> options(ModuleDeployment module, DeploymentProperties properties) {
		Map<String, String> overrides = properties.options(module.label());
		if (overrides.isEmpty()) {
			return module.options();
		}
		Map<String, String> options = new LinkedHashMap<>(module.options());
		options.putAll(overrides);
		return options;
	}
}
