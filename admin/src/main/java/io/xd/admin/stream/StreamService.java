package io.xd.admin.stream;

import java.time.Duration;
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
import io.xd.core.cluster.StreamRelease;

/**
 * What the REST API does with streams: create, deploy, undeploy, destroy and describe them. Thread-safe; every
 * admin may serve these calls, whether or not it leads.
 */
public final class StreamService {


	/** How recent a module's failure on a message must be for its stream to be degraded, by default. */
	public static final Duration DEFAULT_DEGRADED_WINDOW = Duration.ofMinutes(1);

	private final ClusterStore store;

	private final StreamPlanner planner;

	private final Runnable onDeploymentChange;

	private final BindingKeys bindingKeys;

	private final StreamLimits limits;

	private final Duration degradedWindow;

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
		this(store, planner, onDeploymentChange, bindingKeys, limits, DEFAULT_DEGRADED_WINDOW);
	}

	/**
	 * As above, with the window within which a failure of a module on a message makes its running stream
	 * {@link DeploymentState#DEGRADED}.
	 */
	public StreamService(ClusterStore store, StreamPlanner planner, Runnable onDeploymentChange,
			BindingKeys bindingKeys, StreamLimits limits, Duration degradedWindow) {
		this.degradedWindow = degradedWindow;
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
		if (this.store.streamCount() >= this.limits.maxStreams()) {
			throw AdminException.badRequest("StreamLimitException", "This server keeps at most "
					+ this.limits.maxStreams() + " streams (xd.admin.limits.maxStreams); destroy one first");
		}
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

	/** What a deploy request did. */
	public enum Outcome {

		/** The stream was not deployed; it is now. */
		DEPLOYED,

		/** The stream was deployed with other properties: the modules whose settings changed are replaced. */
		UPDATED,

		/** The stream was already deployed with exactly these properties: nothing changed. */
		UNCHANGED
	}

	/**
	 * Requests the deployment of a stream with the given properties string. Deploying a deployed stream with other
	 * properties is an update; with the same properties, nothing happens (and the outcome says so).
	 */
	public Outcome deploy(String name, String properties) {
		DeploymentProperties parsed = parseProperties(properties);
		return apply(name, parsed, "deploy");
	}

	/**
	 * Changes the properties of a deployed stream: the given {@code module.*} and {@code app.*} keys replace or add to
	 * the current ones, and only the modules whose settings change are restarted, one instance at a time.
	 * @throws AdminException 409 when the stream is not deployed
	 */
	public Outcome update(String name, String properties) {
		DeploymentRequest current = deployment(find(name));
		DeploymentProperties changes = parseProperties(properties);
		return apply(name, DeploymentProperties.of(current.properties()).with(changes.asMap()), "update");
	}

	/**
	 * Runs {@code instances} instances of one module of a deployed stream ({@code module.<label>.count}): instances
	 * are added or removed, the others keep running.
	 */
	public Outcome scale(String name, String label, int instances) {
		StreamRecord stream = find(name);
		StreamPlan plan = this.planner.plan(stream.name(), stream.definition(), this::definitionOf);
		if (!plan.labels().contains(label)) {
			throw new AdminException(404, "NoSuchModuleException", "Stream '" + name + "' has no module labelled '"
					+ label + "'; its labels are " + String.join(", ", new java.util.TreeSet<>(plan.labels())));
		}
		if (instances < 0) {
			throw AdminException.badRequest("IllegalArgumentException", "The instance count must be 0 or more");
		}
		DeploymentRequest current = deployment(stream);
		DeploymentProperties scaled = DeploymentProperties.of(current.properties())
			.with(Map.of("module." + label + ".count", Integer.toString(instances)));
		return apply(name, scaled, "scale " + label + " to " + instances);
	}

	/** Deploys again the properties of an earlier version of the stream's deployment, as a new version. */
	public Outcome rollback(String name, int version) {
		StreamRecord stream = find(name);
		StreamRelease release = release(stream.name(), version);
		return apply(name, DeploymentProperties.of(release.properties()), "rollback to " + version);
	}

	private SecretMasker secrets() {
		return this.planner.secrets();
	}

	/** Every version of the stream's deployment, newest first, the current one with the stream's state. */
	public List<ReleaseInfo> history(String name) {
		StreamRecord stream = find(name);
		List<StreamRelease> releases = this.store.releases(stream.name());
		boolean deployed = this.store.findDeployment(stream.name()).isPresent();
		String current = deployed ? status(stream, new ClusterView(this.store)).label()
				: DeploymentState.UNDEPLOYED.label();
		List<ReleaseInfo> history = new ArrayList<>();
		for (int i = releases.size() - 1; i >= 0; i--) {
			StreamRelease release = releases.get(i);
			history.add(new ReleaseInfo(release.version(), (i == releases.size() - 1) ? current : "superseded",
					java.time.Instant.ofEpochMilli(release.time()).toString(), release.description(),
					secrets().definition(release.definition()),
					secrets().properties(release.definition(), release.properties())));
		}
		return history;
	}

	/** What one version deployed: the definition, the properties, and each module with its options and properties. */
	public Manifest manifest(String name, int version) {
		StreamRecord stream = find(name);
		StreamRelease release = release(stream.name(), version);
		StreamPlan plan = this.planner.plan(stream.name(), release.definition(), this::definitionOf);
		List<Manifest.Module> modules = plan.deployments(DeploymentProperties.of(release.properties()))
			.stream()
			.map(module -> new Manifest.Module(module.label(), module.name(), module.type(),
					secrets().options(module.type(), module.name(), module.options()), module.properties().asMap()))
			.toList();
		return new Manifest(stream.name(), release.version(), secrets().definition(release.definition()),
				secrets().properties(release.definition(), release.properties()), modules);
	}

	/** The stream's current deployment request; 409 when it is not deployed. */
	private DeploymentRequest deployment(StreamRecord stream) {
		return this.store.findDeployment(stream.name())
			.orElseThrow(() -> new AdminException(409, "StreamNotDeployedException",
					"Stream '" + stream.name() + "' is not deployed; deploy it first"));
	}

	private StreamRelease release(String stream, int version) {
		return this.store.releases(stream)
			.stream()
			.filter(release -> release.version() == version)
			.findFirst()
			.orElseThrow(() -> new AdminException(404, "NoSuchReleaseException", "Stream '" + stream
					+ "' has no version " + version + "; see its history"));
	}

	private DeploymentProperties parseProperties(String properties) {
		try {
			return DeploymentProperties.parse(properties);
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("InvalidDeploymentPropertiesException", ex.getMessage());
		}
	}

	/** Checks the properties against the stream and stores them as its deployment request and a new version. */
	private Outcome apply(String name, DeploymentProperties properties, String description) {
		StreamRecord stream = find(name);
		StreamPlan plan = this.planner.plan(stream.name(), stream.definition(), this::definitionOf);
		try {
			properties.validate(plan.labels(), this.bindingKeys);
			this.limits.checkDeployment(properties.asMap());
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("InvalidDeploymentPropertiesException", ex.getMessage());
		}
		this.planner.checkOptionOverrides(plan, properties);
		DeploymentRequest request = new DeploymentRequest(stream.name(), properties.asMap());
		Optional<DeploymentRequest> current = this.store.findDeployment(stream.name());
		Outcome outcome;
		if (current.isEmpty()) {
			if (!this.store.requestDeployment(request)) {
				throw new AdminException(409, "StreamAlreadyDeployedException",
						"Stream '" + name + "' was deployed by another request meanwhile; try again");
			}
			outcome = Outcome.DEPLOYED;
		}
		else if (current.get().properties().equals(request.properties())) {
			return Outcome.UNCHANGED;
		}
		else {
			this.store.replaceDeployment(request);
			outcome = Outcome.UPDATED;
		}
		this.store.addRelease(stream.name(), stream.definition(), request.properties(),
				(outcome == Outcome.UPDATED && description.equals("deploy")) ? "update" : description);
		this.store.pruneReleases(stream.name(), this.limits.maxReleases());
		this.onDeploymentChange.run();
		return outcome;
	}

	/** Withdraws the deployment of a stream; nothing happens when it is not deployed. */
	public void undeploy(String name) {
		find(name);
		this.store.removeDeployment(name);
		this.onDeploymentChange.run();
	}

	/** Withdraws every deployment; returns the names of the streams that were deployed. */
	public List<String> undeployAll() {
		List<String> undeployed = new ArrayList<>();
		this.store.deployments().forEach(request -> {
			this.store.removeDeployment(request.stream());
			undeployed.add(request.stream());
		});
		this.onDeploymentChange.run();
		return undeployed;
	}

	/** Undeploys and deletes a stream, and its history. */
	public void destroy(String name) {
		undeploy(name);
		this.store.deleteStream(name);
		this.store.deleteReleases(name);
	}

	/** Undeploys and deletes every stream; returns their names. */
	public List<String> destroyAll() {
		undeployAll();
		List<String> destroyed = new ArrayList<>();
		this.store.streams().forEach(stream -> {
			this.store.deleteStream(stream.name());
			this.store.deleteReleases(stream.name());
			destroyed.add(stream.name());
		});
		return destroyed;
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
		return new StreamInfo(stream.name(), secrets().definition(stream.definition()), status(stream, view).label());
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
		boolean degraded = false;
		long failuresSince = System.currentTimeMillis() - this.degradedWindow.toMillis();
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
			degraded |= view.failedSince(prefix, failuresSince);
		}
		if (failed) {
			return DeploymentState.FAILED;
		}
		if (waiting) {
			return DeploymentState.DEPLOYING;
		}
		if (!complete) {
			return DeploymentState.INCOMPLETE;
		}
		return degraded ? DeploymentState.DEGRADED : DeploymentState.DEPLOYED;
	}

	/** The stream of that name; a name no stream can have is refused before ZooKeeper is asked. */
	private StreamRecord find(String name) {
		checkName(name);
		return this.store.findStream(name).orElseThrow(() -> AdminException.noSuchStream(name));
	}

	private Optional<String> definitionOf(String name) {
		return this.store.findStream(name).map(StreamRecord::definition);
	}

	private void checkName(String name) {
		int limit = this.limits.maxNameLength();
		if (name.length() > limit) {
			throw AdminException.badRequest("InvalidStreamNameException", "Stream name '" + name.substring(0, limit)
					+ "...' has " + name.length() + " characters; the limit is " + limit
					+ " (xd.admin.limits.maxNameLength)");
		}
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

		/** Whether a running instance of the module failed on a message at or after {@code sinceMillis}. */
		boolean failedSince(String modulePrefix, long sinceMillis) {
			for (Map.Entry<String, Map<String, ModuleStatus>> container : this.runtime.entrySet()) {
				if (!this.containers.containsKey(container.getKey())) {
					continue;
				}
				for (Map.Entry<String, ModuleStatus> module : container.getValue().entrySet()) {
					if (module.getKey().startsWith(modulePrefix) && module.getValue().isDeployed()
							&& module.getValue().failedSince(sinceMillis)) {
						return true;
					}
				}
			}
			return false;
		}
	}
}
