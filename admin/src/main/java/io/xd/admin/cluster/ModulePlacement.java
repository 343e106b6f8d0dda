package io.xd.admin.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.xd.admin.stream.CriteriaEvaluator;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;

/**
 * The {@link DeploymentSupervisor}'s placement decisions, as pure functions of what the cluster holds: which
 * containers get new instances of a module, and which allocated instances must go. Nothing here reads or writes
 * ZooKeeper.
 */
final class ModulePlacement {

	private ModulePlacement() {
	}

	/**
	 * The instances to add so that {@code module} has its {@code count} (0: one on every matching container), each
	 * on a container that matches its criteria and holds no instance of it yet, least loaded first (ties broken by
	 * container id). Sequence numbers fill the gaps departed instances left, lowest first. Empty when no container
	 * matches or the module already has its count; never removes anything (see {@link #isStale}).
	 * @param module a module of a planned stream, whose properties give count and criteria (any sequence)
	 * @param containers the live containers, by id
	 * @param allocations every container's allocated instances, by module id
	 */
	static List<Placement> newInstances(ModuleDeployment module, Map<String, ContainerAttributes> containers,
			Map<String, Map<String, ModuleDeployment>> allocations) {
		List<String> candidates = candidates(module, containers);
		Set<Integer> sequences = new TreeSet<>();
		List<String> holders = new ArrayList<>();
		allocations.forEach((containerId, byId) -> byId.values().forEach(existing -> {
			if (existing.stream().equals(module.stream()) && existing.label().equals(module.label())) {
				sequences.add(existing.sequence());
				holders.add(containerId);
			}
		}));
		int count = module.properties().count();
		int desired = (count == 0) ? candidates.size() : Math.min(count, candidates.size());
		List<String> free = new ArrayList<>(candidates.stream().filter(id -> !holders.contains(id)).toList());
		free.sort(Comparator.comparingInt((String id) -> allocations.getOrDefault(id, Map.of()).size())
			.thenComparing(Comparator.naturalOrder()));
		List<Placement> placements = new ArrayList<>();
		int sequence = 1;
		for (int i = holders.size(); i < desired && !free.isEmpty(); i++) {
			while (sequences.contains(sequence)) {
				sequence++;
			}
			sequences.add(sequence);
			placements.add(new Placement(free.remove(0), module.withSequence(sequence)));
		}
		return placements;
	}

	/** The ids of the containers that match the module's criteria (every container when it has none). */
	static List<String> candidates(ModuleDeployment module, Map<String, ContainerAttributes> containers) {
		return containers.values()
			.stream()
			.filter(container -> CriteriaEvaluator.matches(module.properties().criteria(), container))
			.map(ContainerAttributes::id)
			.toList();
	}

	/**
	 * Whether an allocated instance should not run as it is: its stream is no longer requested, the stream's plan
	 * has no such module any more (deployed again with other properties or options, or its definition changed), its
	 * sequence is beyond a lowered instance count, or its container no longer matches the module's criteria. A change
	 * of the instance count alone leaves the instances within it untouched.
	 * @param module the allocated instance
	 * @param container the container holding it, or {@code null} when that container is missing
	 * @param requested whether the module's stream is meant to be deployed
	 * @param plan the stream's planned modules (sequence 0), or {@code null} when the stream can no longer be
	 *     planned, in which case what runs is kept
	 */
	static boolean isStale(ModuleDeployment module, ContainerAttributes container, boolean requested,
			List<ModuleDeployment> plan) {
		if (!requested) {
			return true;
		}
		if (plan == null) {
			return false;
		}
		ModuleDeployment wanted = planned(module, plan);
		if (wanted == null || !sameButCount(wanted.withSequence(module.sequence()), module)) {
			return true;
		}
		return beyondCount(wanted, module.sequence())
				|| (container != null && !CriteriaEvaluator.matches(module.properties().criteria(), container));
	}

	/** Whether instance {@code sequence} (1-based) is beyond the planned module's count (0: one per container). */
	static boolean beyondCount(ModuleDeployment wanted, int sequence) {
		int count = wanted.properties().count();
		return count > 0 && sequence > count;
	}

	/**
	 * The planned module an allocated instance is an instance of (same label), or {@code null}; it may differ from
	 * the instance in options or properties (the instance is then {@link #isStale stale} and is replaced by it).
	 */
	static ModuleDeployment planned(ModuleDeployment module, List<ModuleDeployment> plan) {
		return plan.stream().filter(wanted -> wanted.label().equals(module.label())).findFirst().orElse(null);
	}

	/** Whether two instances are the same but for their instance count. */
	private static boolean sameButCount(ModuleDeployment a, ModuleDeployment b) {
		ModuleDeploymentProperties p = b.properties();
		ModuleDeploymentProperties counted = new ModuleDeploymentProperties(a.properties().count(), p.criteria(),
				p.producer(), p.consumer());
		return a.equals(new ModuleDeployment(b.stream(), b.label(), b.name(), b.type(), b.index(), b.sequence(),
				b.options(), counted, b.input(), b.output(), b.tap()));
	}

	/**
	 * A new instance and the container it goes to.
	 *
	 * @param containerId the container to run it
	 * @param instance the module instance, with its sequence number
	 */
	record Placement(String containerId, ModuleDeployment instance) {
	}
}
