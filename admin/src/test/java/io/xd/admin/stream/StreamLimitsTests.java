package io.xd.admin.stream;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class StreamLimitsTests {

	private final StreamLimits limits = new StreamLimits(10, 40, 3, 5, 4, 16, 2, 3);

	@Test
	void refusesNamesAndDefinitionsBeyondTheirLengthNamingTheSetting() {
		assertThatNoException().isThrownBy(() -> this.limits.checkText("s234567890", "time | log"));
		assertThatIllegalArgumentException().isThrownBy(() -> this.limits.checkText("s2345678901", "time | log"))
			.withMessageContaining("at most 10 characters (xd.admin.limits.maxNameLength), not 11");
		assertThatIllegalArgumentException().isThrownBy(() -> this.limits.checkText("s", "x".repeat(41)))
			.withMessageContaining("xd.admin.limits.maxDefinitionLength");
	}

	@Test
	void refusesMoreModulesThanAllowed() {
		assertThatNoException().isThrownBy(() -> this.limits.checkModules(3));
		assertThatIllegalArgumentException().isThrownBy(() -> this.limits.checkModules(4))
			.withMessageContaining("at most 3 modules");
	}

	@Test
	void refusesInstancesThreadsAndPartitionsBeyondTheirCaps() {
		assertThatNoException().isThrownBy(() -> this.limits.checkDeployment(Map.of("module.log.count", "5",
				"module.log.consumer.concurrency", "4", "module.time.producer.minPartitionCount", "16")));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.limits.checkDeployment(Map.of("module.*.count", "1000")))
			.withMessageContaining("module.*.count=1000 is more than the 5 allowed (xd.admin.limits.maxInstances)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.limits.checkDeployment(Map.of("module.log.consumer.concurrency", "100000")))
			.withMessageContaining("maxConcurrency");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.limits.checkDeployment(Map.of("module.log.consumer.minPartitionCount", "17")))
			.withMessageContaining("maxPartitions");
	}
}
