package io.xd.core.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AllocationTests {

	private static final ModuleDeployment DEPLOYMENT = new ModuleDeployment("s", "log", "log", "sink", 1, 2,
			Map.of("level", "INFO"), ModuleDeploymentProperties.DEFAULTS, "s.0", null, null);

	@Test
	void roundTripsTheModuleAndTheRegistrationItIsFor() {
		Allocation allocation = new Allocation(DEPLOYMENT, 0x1000a2b3c4d0001L);

		assertThat(Allocation.of(allocation.toBytes())).isEqualTo(allocation);
	}

	@Test
	void isReadAsItsModuleDeploymentByReadersOfTheDeploymentAlone() {
		byte[] data = new Allocation(DEPLOYMENT, 7).toBytes();

		assertThat(ClusterJson.read(data, ModuleDeployment.class)).isEqualTo(DEPLOYMENT);
		assertThat(new String(data, StandardCharsets.UTF_8)).contains("\"containerSession\":7");
	}

	@Test
	void anAllocationWrittenWithoutARegistrationIsForNone() {
		assertThat(Allocation.of(ClusterJson.write(DEPLOYMENT))).isEqualTo(new Allocation(DEPLOYMENT, 0));
	}
}
