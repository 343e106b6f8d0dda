package io.xd.admin.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.xd.core.BindingKeys;
import io.xd.admin.AdminException;
import io.xd.admin.cluster.ClusterStore;
import io.xd.admin.dsl.StreamDefinition;
import io.xd.admin.dsl.StreamModule;
import io.xd.admin.dsl.StreamParser;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.DeploymentRequest;
import io.xd.core.cluster.DeploymentState;
import io.xd.core.cluster.ModuleDeploymentProperties;
import io.xd.core.cluster.ModuleId;
import io.xd.core.cluster.ModuleStatus;
import io.xd.core.cluster.StreamRecord;

/**
 * What the REST API does with streams: create, deploy, undeploy, destroy and describe them. Thread-safe; every
 * admin may serve these calls, whether or not it leads.
 */
public final class StreamService {

	private final ClusterStore store;

	private final StreamPlanner planner;

	private final Runnable onDeploymentChange;

	private final BindingKeys bindingKeys;

	private final StreamLimits limits;

	/**
	 * @param onDeploymentChange called after a deployment is requested or withdrawn (wakes the supervisor)
	 * @param bindingKeys the binding properties the transport's message bus accepts, as the bus declares them
	 */
	public StreamService(ClusterStore store, StreamPlanner planner, Runnable onDeploymentChange,
			BindingKeys bindingKeys) {
		this(store, planner, onDeploymentChange, bindingKeys, StreamLimits.DEFAULTS);
	}

	/** As above, with the caps on what one stream may ask for. */
	public StreamService(ClusterStore store, StreamPlanner planner, Runnable onDeploymentChange,
			BindingKeys bindingKeys, StreamLimits limits) {
		this.store = store;
		this.planner = planner;
		this.onDeploymentChange = onDeploymentChange;
		this.bindingKeys = bindingKeys;
		this.limits = limits;
	}

	/** Checks and stores a new stream, and deploys it when asked. */
	public StreamInfo create(String name, String definition, boolean deploy) {
		if (definition == null || definition.isBlank()) {
			throw AdminException.badRequest("StreamDefinitionException", "A stream definition is required");
		}
		try {
			this.limits.checkText(name, definition);
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("StreamLimitException", ex.getMessage());
		}
		String streamName = (name == null || name.isBlank()) ? this.planner.parse(definition).name() : name.trim();
		if (streamName == null) {
			throw AdminException.badRequest("StreamDefinitionException",
					"A stream name is required: pass 'name', or start the definition with 'name ='");
		}
		checkName(streamName);
		StreamPlan plan = this.planner.plan(streamName, definition, this::definitionOf);
		try {
			this.limits.checkModules(plan.definition().modules().size());
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("StreamLimitException", ex.getMessage());
		}
		for (StreamModule module : plan.definition().modules()) {
			if (module.name().equals(streamName)) {
				throw AdminException.badRequest("StreamDefinitionException",
						"The stream name '" + streamName + "' is also the name of one of its modules; choose another");
			}
		}
		this.store.createStream(new StreamRecord(streamName, definition.trim()));
		if (deploy) {
			deploy(streamName, null);
		}
		return info(streamName);
	}

	/** Requests the deployment of a stream with the given properties string. */
	public void deploy(String name, String properties) {
		StreamRecord stream = find(name);
		StreamPlan plan = this.planner.plan(stream.name(), stream.definition(), this::definitionOf);
		DeploymentProperties parsed;
		try {
			parsed = DeploymentProperties.parse(properties);
			parsed.validate(plan.labels(), this.bindingKeys);
			this.limits.checkDeployment(parsed.asMap());
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("InvalidDeploymentPropertiesException", ex.getMessage());
		}
		if (!this.store.requestDeployment(new DeploymentRequest(name, parsed.asMap()))) {
			throw new AdminException(409, "StreamAlreadyDeployedException",
					"Stream '" + name + "' is already deployed; undeploy it first");
		}
		this.onDeploymentChange.run();
	}

	/** Withdraws the deployment of a stream; nothing happens when it is not deployed. */
	public void undeploy(String name) {
		find(name);
		this.store.removeDeployment(name);
		this.onDeploymentChange.run();
	}

	public void undeployAll() {
		this.store.deployments().forEach(request -> this.store.removeDeployment(request.stream()));
		this.onDeploymentChange.run();
	}

	/** Undeploys and deletes a stream. */
	public void destroy(String name) {
		undeploy(name);
		this.store.deleteStream(name);
	}

	public void destroyAll() {
		undeployAll();
		this.store.streams().forEach(stream -> this.store.deleteStream(stream.name()));
	}

	public StreamInfo info(String name) {
		return describe(find(name), new ClusterView(this.store));
	}

	public List<StreamInfo> list() {
		ClusterView view = new ClusterView(this.store);
		List<StreamInfo> streams = new ArrayList<>();
		for (StreamRecord stream : this.store.streams()) {
			streams.add(describe(stream, view));
		}
		return streams;
	}

	private StreamInfo describe(StreamRecord stream, ClusterView view) {
		return new StreamInfo(stream.name(), stream.definition(), status(stream, view).label());
	}

	private DeploymentState status(StreamRecord stream, ClusterView view) {
		Optional<DeploymentRequest> request = this.store.findDeployment(stream.name());
		if (request.isEmpty()) {
			return DeploymentState.UNDEPLOYED;
		}
		DeploymentProperties properties = DeploymentProperties.of(request.get().properties());
		StreamDefinition definition;
		try {
			definition = this.planner.parse(stream.definition());
		}
		catch (RuntimeException ex) {
			return DeploymentState.FAILED;
		}
		boolean complete = true;
		boolean failed = false;
		boolean waiting = false;
		for (StreamModule module : definition.modules()) {
			String prefix = ModuleId.instancePrefix(stream.name(), module.type().label(), module.label());
			ModuleDeploymentProperties resolved = properties.module(module.label());
			long matching = view.containers.values()
				.stream()
				.filter(container -> CriteriaEvaluator.matches(resolved.criteria(), container))
				.count();
			int count = resolved.count();
			long expected = (count == 0) ? Math.max(1, matching) : count;
			long deployed = view.count(prefix, true);
			long failures = view.count(prefix, false);
			if (deployed == 0) {
				if (failures > 0 || matching == 0) {
					failed = true;
				}
				else {
					waiting = true;
				}
			}
			complete &= deployed >= expected;
		}
		if (failed) {
			return DeploymentState.FAILED;
		}
		if (waiting) {
			return DeploymentState.DEPLOYING;
		}
		return complete ? DeploymentState.DEPLOYED : DeploymentState.INCOMPLETE;
	}

	private StreamRecord find(String name) {
		return this.store.findStream(name).orElseThrow(() -> AdminException.noSuchStream(name));
	}

	private Optional<String> definitionOf(String name) {
		return this.store.findStream(name).map(StreamRecord::definition);
	}

	private static void checkName(String name) {
		if (StreamParser.invalidStreamNameIndex(name) >= 0) {
			throw AdminException.badRequest("InvalidStreamNameException", "Stream name '" + name
					+ "' is not valid: it must start with a letter, '_' or '$' and contain only letters, digits, "
					+ "'_', '$' or '-'");
		}
	}

	/**
	 * A stream as the REST API shows it.
	 *
	 * @param name the stream name
	 * @param definition the DSL text
	 * @param status a {@link DeploymentState#label()}: undeployed, deploying, deployed, incomplete or failed
	 */
	public record StreamInfo(String name, String definition, String status) {
	}

	/** One consistent read of containers and module reports, shared while describing several streams. */
	private static final class ClusterView {

		final Map<String, ContainerAttributes> containers;

		final Map<String, Map<String, ModuleStatus>> runtime;

		ClusterView(ClusterStore store) {
			this.containers = store.containers();
			this.runtime = store.runtime();
		}

		long count(String modulePrefix, boolean deployed) {
			long count = 0;
			for (Map.Entry<String, Map<String, ModuleStatus>> container : this.runtime.entrySet()) {
				if (!this.containers.containsKey(container.getKey())) {
					continue;
				}
				for (Map.Entry<String, ModuleStatus> module : container.getValue().entrySet()) {
					if (module.getKey().startsWith(modulePrefix) && module.getValue().isDeployed() == deployed) {
						count++;
					}
				}
			}
			return count;
		}
	}
}
