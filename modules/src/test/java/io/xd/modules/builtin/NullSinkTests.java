package io.xd.modules.builtin;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleType;
import io.xd.modules.internal.ModuleRegistry;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;

class NullSinkTests {

	@Test
	void discardsEveryMessageAndTakesNoOptionsOfItsOwn() {
		var provider = ModuleRegistry.fromClassPath().find(ModuleType.SINK, "null").orElseThrow();
		try (ModuleTestDriver driver = ModuleTestDriver.of(provider)) {
			driver.send("a").send(new byte[] { 1 });
			assertThat(driver.received()).isEmpty();
		}
		assertThat(provider.metadata().options()).extracting(option -> option.name()).containsExactly("inputType");
	}
}
