package io.xd.admin.stream;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;

class SecretMaskerTests {

	/** A sink with a marked secret ({@code token}), an option named password, and a plain one. */
	private static final AbstractModuleProvider VAULT = new AbstractModuleProvider(new ModuleMetadata(ModuleType.SINK,
			"vault", "Keeps payloads", List.of(ModuleOption.ofString("token").withSecret(),
					ModuleOption.ofString("password"), ModuleOption.ofString("bucket"))),
			context -> (Sink) message -> {
			}) {
	};

	private final SecretMasker masker = new SecretMasker(new ModuleRegistry(List.of(VAULT,
			new io.xd.modules.builtin.TimeSource.Provider())));

	@Test
	void masksTheValuesOfSecretOptionsWhereverTheyAreWrittenAndKeepsTheRest() {
		assertThat(this.masker.definition("time | vault --token=abc --password='p w|x' --bucket=b1"))
			.isEqualTo("time | vault --token=****** --password=****** --bucket=b1");
		assertThat(this.masker.definition("s = time --fixedDelay=1 | v: vault --bucket=\"--token=x\" --token=\"t\""))
			.isEqualTo("s = time --fixedDelay=1 | v: vault --bucket=\"--token=x\" --token=******");
		assertThat(this.masker.definition("time | unknown --password=p --token=t"))
			.as("a module not known here: options named password only")
			.isEqualTo("time | unknown --password=****** --token=t");
		assertThat(this.masker.definition("not | a | valid --")).isEqualTo("not | a | valid --");
	}

	@Test
	void masksOptionsAndOptionOverridesOfSecretOptions() {
		Map<String, String> options = new LinkedHashMap<>();
		options.put("token", "abc");
		options.put("bucket", "b1");
		assertThat(this.masker.options("sink", "vault", options)).containsEntry("token", "******")
			.containsEntry("bucket", "b1");

		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("app.v.token", "new-token");
		properties.put("app.v.bucket", "b2");
		properties.put("module.v.count", "2");
		assertThat(this.masker.properties("time | v: vault --bucket=b1", properties))
			.containsExactly(Map.entry("app.v.token", "******"), Map.entry("app.v.bucket", "b2"),
					Map.entry("module.v.count", "2"));
	}
}
