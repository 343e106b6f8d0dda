package io.xd.modules.builtin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ModuleSupportTests {

	@Test
	void aSchedulerTaskThatThrowsFailsTheModule() {
		AbstractModuleProvider ticking = new AbstractModuleProvider(
				new ModuleMetadata(ModuleType.SOURCE, "ticking", "Ticks", List.of()),
				context -> (Source) output -> ModuleSupport.scheduler(context, "tick")
					.scheduleWithFixedDelay(() -> {
						throw new IllegalStateException("tick failed");
					}, 0, 10, TimeUnit.MILLISECONDS)) {
		};
		try (ModuleTestDriver driver = ModuleTestDriver.of(ticking)) {
			await().atMost(Duration.ofSeconds(5)).until(() -> driver.failure().isPresent());
			assertThat(driver.failure().get()).hasMessage("tick failed");
		}
	}
}
