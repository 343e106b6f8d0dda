package io.xd.core.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ClusterJsonTests {

	private static final ModuleDeploymentProperties PROPERTIES = new ModuleDeploymentProperties(2,
			"groups.contains('a')", Map.of("batchSize", "100"), Map.of("concurrency", "3"));

	private static final ModuleDeployment DEPLOYMENT = new ModuleDeployment("s", "log", "log", "sink", 1, 2,
			Map.of("level", "INFO"), PROPERTIES, "s.0", null, null);

	@Test
	void roundTripsAModuleDeployment() {
		assertThat(ClusterJson.read(ClusterJson.write(DEPLOYMENT), ModuleDeployment.class)).isEqualTo(DEPLOYMENT);
	}

	@Test
	void storesDeploymentPropertiesAsTheirFlatKeys() {
		String json = new String(ClusterJson.write(DEPLOYMENT), StandardCharsets.UTF_8);
		assertThat(json).contains("\"properties\":{\"count\":\"2\",\"criteria\":\"groups.contains('a')\","
				+ "\"producer.batchSize\":\"100\",\"consumer.concurrency\":\"3\"}");
	}

	@Test
	void readsAllocationsWrittenBeforeThePropertiesWereTyped() {
		String earlier = """
				{"stream":"s","label":"log","name":"log","type":"sink","index":1,"sequence":2,
				 "options":{"level":"INFO"},
				 "properties":{"count":"2","criteria":"groups.contains('a')","producer.batchSize":"100",
				               "consumer.concurrency":"3"},
				 "input":"s.0","output":null,"tap":null,
				 "consumerProperties":{"concurrency":"3"},"producerProperties":{"batchSize":"100"}}
				""";
		ModuleDeployment read = ClusterJson.read(earlier.getBytes(StandardCharsets.UTF_8), ModuleDeployment.class);
		assertThat(read).isEqualTo(DEPLOYMENT);
		assertThat(read.consumerProperties()).containsExactly(Map.entry("concurrency", "3"));
	}

	@Test
	void propertiesWithoutACountMeanOneInstance() {
		String earlier = """
				{"stream":"s","label":"log","name":"log","type":"sink","index":1,"sequence":1,"properties":{}}
				""";
		ModuleDeployment read = ClusterJson.read(earlier.getBytes(StandardCharsets.UTF_8), ModuleDeployment.class);
		assertThat(read.properties()).isEqualTo(ModuleDeploymentProperties.DEFAULTS);
		assertThat(read.properties().count()).isEqualTo(1);
	}

	@Test
	void refusesANegativeOrNonNumericCount() {
		assertThatIllegalArgumentException().isThrownBy(() -> ModuleDeploymentProperties.of(Map.of("count", "-1")));
		assertThatIllegalArgumentException().isThrownBy(() -> ModuleDeploymentProperties.of(Map.of("count", "x")));
	}

	@Test
	void writesModuleStatesInLowerCase() {
		ModuleStatus status = ModuleStatus.failed("boom");
		String json = new String(ClusterJson.write(status), StandardCharsets.UTF_8);
		assertThat(json).contains("\"state\":\"failed\"");
		assertThat(ClusterJson.read(json.getBytes(StandardCharsets.UTF_8), ModuleStatus.class)).isEqualTo(status);
	}

	@Test
	void moduleIdsNameStreamTypeLabelAndSequence() {
		assertThat(DEPLOYMENT.moduleId()).isEqualTo("s.sink.log.2");
		assertThat(DEPLOYMENT.moduleId()).startsWith(ModuleId.instancePrefix("s", "sink", "log"));
		assertThat(ModuleId.of("s", "sink", "log2", 1)).doesNotStartWith(ModuleId.instancePrefix("s", "sink", "log"));
	}
}
