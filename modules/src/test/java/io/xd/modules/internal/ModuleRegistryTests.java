package io.xd.modules.internal;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleType;

import static org.assertj.core.api.Assertions.assertThat;

class ModuleRegistryTests {

	private final ModuleRegistry registry = ModuleRegistry.fromClassPath();

	@Test
	void findsTheBuiltInModulesByTypeAndName() {
		assertThat(this.registry.all()).extracting(ModuleMetadata::qualifiedName)
			.containsSubsequence("source:load-generator", "source:time", "processor:bridge", "sink:log",
					"sink:throughput");
		assertThat(this.registry.all()).extracting(ModuleMetadata::qualifiedName)
			.containsSubsequence("source:http", "source:syslog-tcp", "source:syslog-udp", "source:tcp");
		assertThat(this.registry.find(ModuleType.SINK, "throughput")).isPresent();
		assertThat(this.registry.find(ModuleType.SOURCE, "throughput")).isEmpty();
		assertThat(this.registry.findByName("log")).extracting(ModuleMetadata::type).containsExactly(ModuleType.SINK);
	}

	@Test
	void documentsEveryOptionOfTheBuiltInModules() {
		assertThat(this.registry.all()).allSatisfy(metadata -> {
			assertThat(metadata.description()).isNotBlank();
			assertThat(metadata.options()).allSatisfy(option -> assertThat(option.description()).isNotBlank());
		});
	}

	@Test
	void findsTheExpressionProcessors() {
		assertThat(this.registry.all()).extracting(ModuleMetadata::qualifiedName)
			.contains("processor:transform", "processor:filter", "processor:splitter", "processor:header-enricher",
					"processor:aggregator", "processor:json-path");
	}
}
