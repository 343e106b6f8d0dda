package io.xd.admin.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.xd.admin.cluster.ModulePlacement.Placement;
import io.xd.core.cluster.ContainerAttributes;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;

import static org.assertj.core.api.Assertions.assertThat;

class ModulePlacementTests {

	private final Map<String, ContainerAttributes> containers = new LinkedHashMap<>();

	private final Map<String, Map<String, ModuleDeployment>> allocations = new TreeMap<>();

	@Test
	void placesOneInstanceByDefault() {
		join("c1", "");
		join("c2", "");
		assertThat(place(log(1, null))).containsExactly("c1:1");
	}

	@Test
	void placesUpToCountOnDistinctContainers() {
		join("c1", "");
		join("c2", "");
		join("c3", "");
		assertThat(place(log(2, null))).containsExactly("c1:1", "c2:2");
	}

	@Test
	void countBeyondTheMatchingContainersLeavesTheModuleShort() {
		join("c1", "");
		join("c2", "");
		assertThat(place(log(5, null))).containsExactly("c1:1", "c2:2");
	}

	@Test
	void countZeroPlacesOneOnEveryMatchingContainer() {
		join("c1", "a");
		join("c2", "b");
		join("c3", "a");
		assertThat(place(log(0, "groups.contains('a')"))).containsExactly("c1:1", "c3:2");
	}

	@Test
	void placesOnlyOnContainersMatchingTheCriteria() {
		join("c1", "a");
		join("c2", "b");
		assertThat(place(log(1, "groups.contains('b')"))).containsExactly("c2:1");
		assertThat(ModulePlacement.candidates(log(1, "groups.contains('z')"), this.containers)).isEmpty();
		assertThat(place(log(1, "groups.contains('z')"))).isEmpty();
	}

	@Test
	void prefersTheLeastLoadedContainer() {
		join("c1", "");
		join("c2", "");
		allocate("c1", time(1));
		assertThat(place(log(1, null))).containsExactly("c2:1");
	}

	@Test
	void placesNothingWhenTheModuleHasItsCount() {
		join("c1", "");
		join("c2", "");
		allocate("c1", log(1, null).withSequence(1));
		assertThat(place(log(1, null))).isEmpty();
	}

	@Test
	void redeploysModulesOfDepartedContainerWithTheFreedSequence() {
		join("c1", "");
		join("c2", "");
		join("c3", "");
		// instance 2 ran on a container that left and whose allocations were dropped: 1 and 3 still run
		allocate("c1", log(3, null).withSequence(1));
		allocate("c2", log(3, null).withSequence(3));
		assertThat(place(log(3, null))).containsExactly("c3:2");
	}

	@Test
	void neverPlacesASecondInstanceOnAHolder() {
		join("c1", "");
		allocate("c1", log(2, null).withSequence(1));
		assertThat(place(log(2, null))).isEmpty();
	}

	@Test
	void instancesOfAnotherStreamOrLabelDoNotCount() {
		join("c1", "");
		ModuleDeployment otherStream = new ModuleDeployment("other", "log", "log", "sink", 1, 1, Map.of(),
				null, "other.0", null, null);
		allocate("c1", otherStream);
		assertThat(place(log(1, null))).containsExactly("c1:1");
	}

	@Test
	void anInstanceOfAStreamNoLongerRequestedIsStale() {
		ModuleDeployment running = log(1, null).withSequence(1);
		assertThat(ModulePlacement.isStale(running, container("c1", ""), false, null)).isTrue();
	}

	@Test
	void anInstanceOfAStreamThatCannotBePlannedIsKept() {
		ModuleDeployment running = log(1, null).withSequence(1);
		assertThat(ModulePlacement.isStale(running, container("c1", ""), true, null)).isFalse();
	}

	@Test
	void anInstanceDeployedWithOtherPropertiesIsStaleButAnotherCountAloneLeavesItRunning() {
		ModuleDeployment running = log(1, null).withSequence(1);
		assertThat(ModulePlacement.isStale(running, container("c1", ""), true, List.of(log(1, "groups.contains('a')"))))
			.isTrue();
		assertThat(ModulePlacement.isStale(running, container("c1", ""), true, List.of(log(1, null)))).isFalse();
		// scaling up or down keeps the instances within the new count as they are
		assertThat(ModulePlacement.isStale(running, container("c1", ""), true, List.of(log(3, null)))).isFalse();
		ModuleDeployment second = log(2, null).withSequence(2);
		assertThat(ModulePlacement.isStale(second, container("c1", ""), true, List.of(log(1, null)))).isTrue();
		assertThat(ModulePlacement.isStale(second, container("c1", ""), true, List.of(log(0, null)))).isFalse();
	}

	@Test
	void anInstanceWhoseContainerNoLongerMatchesIsStale() {
		ModuleDeployment running = log(1, "groups.contains('a')").withSequence(1);
		List<ModuleDeployment> plan = List.of(log(1, "groups.contains('a')"));
		assertThat(ModulePlacement.isStale(running, container("c1", "b"), true, plan)).isTrue();
		assertThat(ModulePlacement.isStale(running, container("c1", "a"), true, plan)).isFalse();
		assertThat(ModulePlacement.isStale(running, null, true, plan)).isFalse();
	}

	private List<String> place(ModuleDeployment module) {
		return ModulePlacement.newInstances(module, this.containers, this.allocations)
			.stream()
			.map(ModulePlacementTests::describe)
			.toList();
	}

	private static String describe(Placement placement) {
		return placement.containerId() + ":" + placement.instance().sequence();
	}

	private void join(String id, String groups) {
		this.containers.put(id, container(id, groups));
	}

	private void allocate(String containerId, ModuleDeployment instance) {
		this.allocations.computeIfAbsent(containerId, id -> new TreeMap<>()).put(instance.moduleId(), instance);
	}

	private static ContainerAttributes container(String id, String groups) {
		return new ContainerAttributes(id, "host-" + id, "127.0.0.1", "1", groups, Map.of());
	}

	private static ModuleDeployment log(int count, String criteria) {
		return new ModuleDeployment("s", "log", "log", "sink", 1, 0, Map.of(),
				new ModuleDeploymentProperties(count, criteria, Map.of(), Map.of()), "s.0", null, null);
	}

	private static ModuleDeployment time(int sequence) {
		return new ModuleDeployment("s", "time", "time", "source", 0, sequence, Map.of(), null, null, "s.0", null);
	}
}
