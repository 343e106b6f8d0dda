package io.xd.modules.internal;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleMetadata;

import static org.assertj.core.api.Assertions.assertThat;

class StorageModuleRegistryTests {

	@Test
	void findsTheStorageAndConnectorModules() {
		assertThat(ModuleRegistry.fromClassPath().all()).extracting(ModuleMetadata::qualifiedName)
			.contains("source:file", "sink:file", "sink:jdbc", "sink:counter", "source:kafka", "sink:kafka",
					"processor:http-client");
	}
}
