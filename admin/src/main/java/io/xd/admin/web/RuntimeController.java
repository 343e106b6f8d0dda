package io.xd.admin.web;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.cluster.ClusterStore;
import io.xd.admin.stream.SecretMasker;
import io.xd.admin.stream.StreamPlanner;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.DeploymentState;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleStatus;

/**
 * The cluster as it runs: live containers and the module instances allocated to them, with each instance's
 * status as its container reported it.
 */
@RestController
public class RuntimeController {


	private final ClusterStore store;

	private final SecretMasker secrets;

	public RuntimeController(ClusterStore store, StreamPlanner planner) {
		this.secrets = planner.secrets();
		this.store = store;
	}

	@GetMapping("/runtime/containers")
	public PageResponse<ContainerInfo> containers(@RequestParam(defaultValue = "0") int page,
			@RequestParam(defaultValue = "20") int size) {
		Map<String, Map<String, ModuleDeployment>> allocations = this.store.allocations();
		Map<String, Map<String, ModuleStatus>> runtime = this.store.runtime();
		List<ContainerInfo> containers = new ArrayList<>();
		this.store.containers().forEach((id, attributes) -> {
			List<String> modules = new ArrayList<>(allocations.getOrDefault(id, Map.of()).keySet());
			Map<String, Object> rates = new TreeMap<>();
			runtime.getOrDefault(id, Map.of()).forEach((module, status) -> {
				if (status.messageRate() != null) {
					rates.put(module, status.messageRate());
				}
			});
			containers.add(new ContainerInfo(id, attributes.groups(), modules.size(), modules, rates,
					attributes.asMap()));
		});
		return PageResponse.of(containers, page, size);
	}

	@GetMapping("/runtime/modules")
	public PageResponse<ModuleInfo> modules(@RequestParam(required = false) String containerId,
			@RequestParam(required = false) String moduleId, @RequestParam(defaultValue = "0") int page,
			@RequestParam(defaultValue = "20") int size) {
		Map<String, ContainerAttributes> containers = this.store.containers();
		Map<String, Map<String, ModuleStatus>> runtime = this.store.runtime();
		List<ModuleInfo> modules = new ArrayList<>();
		this.store.allocations().forEach((container, byId) -> {
			if (!containers.containsKey(container) || (containerId != null && !containerId.equals(container))) {
				return;
			}
			byId.forEach((id, module) -> {
				if (moduleId != null && !moduleId.equals(id)) {
					return;
				}
				ModuleStatus status = runtime.getOrDefault(container, Map.of()).get(id);
				DeploymentState state = (status == null) ? DeploymentState.DEPLOYING : status.state();
				ModuleStatus.LastError last = (status == null) ? null : status.lastError();
				modules.add(new ModuleInfo(id, module.name(), module.stream(), module.type(), container,
						this.secrets.options(module.type(), module.name(), module.options()), module.properties().asMap(),
						state.label(),
						(status == null) ? null : status.error(), (status == null) ? null : status.messageRate(),
						(status == null) ? null : Instant.ofEpochMilli(status.since()).toString(),
						(status == null) ? 0 : status.errors(), (status == null) ? null : status.errorRate(),
						(status == null) ? 0 : status.deadLetters(),
						(last == null) ? null : new LastError(Instant.ofEpochMilli(last.time()).toString(), last.reason())));
			});
		});
		return PageResponse.of(modules, page, size);
	}


	/**
	 * A live container.
	 *
	 * @param containerId its id
	 * @param groups its groups, comma-separated
	 * @param deploymentSize how many module instances are allocated to it
	 * @param deployedModules the ids of those instances
	 * @param messageRates messages per second of each deployed module instance, by module id, as the container last
	 *     measured them
	 * @param attributes every attribute: id, host, ip, pid, groups and custom ones
	 */
	public record ContainerInfo(String containerId, String groups, int deploymentSize, List<String> deployedModules,
			Map<String, Object> messageRates, Map<String, String> attributes) {
	}

	/**
	 * A module instance.
	 *
	 * @param moduleId {@code <stream>.<type>.<label>.<sequence>}
	 * @param name the module name
	 * @param unitName the stream name
	 * @param moduleType source, processor or sink
	 * @param containerId where it runs
	 * @param moduleOptions the options given in the definition
	 * @param deploymentProperties its deployment properties
	 * @param deploymentStatus deploying, deployed or failed
	 * @param error why it failed, if it did
	 * @param messageRate messages per second the instance handled (a source: sent) over the container's last
	 *     measuring interval (5 s), or null before the first
	 * @param since when the instance reached its status (ISO-8601): for a deployed one, when it started
	 * @param errors messages whose handling threw in the instance since it started (each attempt of a message the bus
	 *     delivers again counts), as the container last reported
	 * @param errorRate those failures per second over the container's last measuring interval, or null before the
	 *     first
	 * @param deadLetters messages the bus gave up on after the instance failed on them: published to the Kafka
	 *     dead-letter topic, or to {@code topic:xd.errors} on the local bus
	 * @param lastError the latest of those failures, or null while there was none
	 */
	public record ModuleInfo(String moduleId, String name, String unitName, String moduleType, String containerId,
			Map<String, String> moduleOptions, Map<String, String> deploymentProperties, String deploymentStatus,
			String error, Double messageRate, String since, long errors, Double errorRate, long deadLetters,
			LastError lastError) {
	}

	/**
	 * A module instance's latest failure on a message.
	 *
	 * @param time when (ISO-8601)
	 * @param reason the first line of the exception's message, at most 300 characters; the container's log has the
	 *     whole exception
	 */
	public record LastError(String time, String reason) {
	}
}
