package io.xd.admin.stream;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.xd.admin.dsl.StreamDefinition;
import io.xd.core.cluster.ModuleDeployment;

/**
 * A validated stream: its parsed definition and, for each module in stream order, how it is bound (input, output
 * and tap channels). Deployment properties are applied with {@link #deployments(DeploymentProperties)}.
 *
 * @param name the stream name
 * @param definition the parsed definition
 * @param modules one template per module, in stream order, with sequence 0 and no deployment properties
 */
public record StreamPlan(String name, StreamDefinition definition, List<ModuleDeployment> modules) {

	public StreamPlan {
		modules = List.copyOf(modules);
	}

	public Set<String> labels() {
		return this.modules.stream().map(ModuleDeployment::label).collect(Collectors.toSet());
	}

	/**
	 * The modules with the given deployment properties applied (still sequence 0), in stream order: their own
	 * deployment properties, and their options with the {@code app.<label>.<option>} overrides over the definition's.
	 */
	public List<ModuleDeployment> deployments(DeploymentProperties properties) {
		return this.modules.stream()
			.map(module -> new ModuleDeployment(module.stream(), module.label(), module.name(), module.type(),
					module.index(), 0, options(module, properties), properties.module(module.label()),
					module.input(), module.output(), module.tap()))
			.toList();
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
