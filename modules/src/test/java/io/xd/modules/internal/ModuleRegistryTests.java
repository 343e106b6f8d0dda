package io.xd.modules.internal;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

	@Test
	void registersReplacesAndUnregistersCustomModulesBesideTheBuiltInOnes(@TempDir Path dir) {
		ModuleRegistry registry = ModuleRegistry.fromClassPath();
		CustomModule first = custom(dir, "1", "suffix", "aaa");
		CustomModule second = custom(dir, "2", "suffix", "bbb");

		registry.register(first);
		assertThat(registry.find(ModuleType.PROCESSOR, "suffix")).containsSame(first);
		assertThat(registry.findByName("suffix")).extracting(ModuleMetadata::type).containsExactly(ModuleType.PROCESSOR);
		assertThat(registry.isBuiltIn(ModuleType.PROCESSOR, "suffix")).isFalse();
		registry.register(second);

		assertThat(registry.findCustom(ModuleType.PROCESSOR, "suffix")).containsSame(second);
		assertThat(first.isClosed()).as("the replaced module's class loader is closed").isTrue();
		assertThat(registry.unregister(ModuleType.PROCESSOR, "suffix")).isTrue();
		assertThat(registry.find(ModuleType.PROCESSOR, "suffix")).isEmpty();
		assertThat(second.isClosed()).isTrue();
	}

	@Test
	void refusesACustomModuleNamedAsABuiltInOne(@TempDir Path dir) {
		ModuleRegistry registry = ModuleRegistry.fromClassPath();
		CustomModule transform = custom(dir, "1", "transform", "aaa");

		assertThatThrownBy(() -> registry.register(transform)).isInstanceOf(IllegalArgumentException.class)
			.hasMessage("There is a built-in module processor:transform");
	}

	private static CustomModule custom(Path dir, String version, String name, String sha256) {
		Path jar = TestJars.suffixProcessor(version).writeTo(dir.resolve(name + version + ".jar"));
		return ModuleJar.load(jar, ModuleType.PROCESSOR, name, sha256);
	}
}
