package io.xd.admin.stream;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.xd.core.BindingKeys;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Spring XD's rule for which pipes the admin marks to be bound directly, whatever the transport. */
class DirectBindingRuleTests {

	private final StreamPlan plan = new StreamPlanner(ModuleRegistry.fromClassPath())
		.plan("s", "time | transform --expression=payload | log", name -> Optional.empty());

	private List<String> directEnds(String properties) {
		List<ModuleDeployment> deployments = this.plan.deployments(DeploymentProperties.parse(properties));
		return deployments.stream()
			.flatMap(module -> module.properties()
				.asMap()
				.entrySet()
				.stream()
				.filter(entry -> entry.getKey().endsWith("directBindingAllowed"))
				.map(entry -> module.label() + "." + entry.getKey() + "=" + entry.getValue()))
			.toList();
	}

	@Test
	void everyModuleWithCountZeroBindsEveryPipeDirectly() {
		assertThat(directEnds("module.*.count=0")).containsExactlyInAnyOrder("time.producer.directBindingAllowed=true",
				"transform.consumer.directBindingAllowed=true", "transform.producer.directBindingAllowed=true",
				"log.consumer.directBindingAllowed=true");
	}

	@Test
	void differingCountsOrCriteriaAPartitioningProducerOrTheUsersFalseKeepTheHop() {
		assertThat(directEnds("")).isEmpty();
		assertThat(directEnds("module.time.count=0,module.transform.count=0")).containsExactlyInAnyOrder(
				"time.producer.directBindingAllowed=true", "transform.consumer.directBindingAllowed=true");
		assertThat(directEnds("module.*.count=0,module.log.criteria=groups.contains('b')")).containsExactlyInAnyOrder(
				"time.producer.directBindingAllowed=true", "transform.consumer.directBindingAllowed=true");
		assertThat(directEnds("module.*.count=0,module.time.producer.partitionKeyExpression=payload"))
			.containsExactlyInAnyOrder("transform.producer.directBindingAllowed=true", "log.consumer.directBindingAllowed=true");
		assertThat(directEnds("module.*.count=0,module.transform.producer.directBindingAllowed=false"))
			.containsExactlyInAnyOrder("time.producer.directBindingAllowed=true", "transform.consumer.directBindingAllowed=true",
					"transform.producer.directBindingAllowed=false");
	}

	@Test
	void usersMayOnlyTurnItOff() {
		BindingKeys local = BindingKeys.none("local");
		DeploymentProperties.of(Map.of("module.time.producer.directBindingAllowed", "false"))
			.validate(this.plan.labels(), local);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DeploymentProperties.of(Map.of("module.time.producer.directBindingAllowed", "true"))
				.validate(this.plan.labels(), local))
			.withMessageContaining("may only be false");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DeploymentProperties.of(Map.of("module.log.consumer.directBindingAllowed", "false"))
				.validate(this.plan.labels(), local))
			.withMessageContaining("is XD's to set");
	}
}
