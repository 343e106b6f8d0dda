package io.xd.modules.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.Source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ModuleTestDriverTests {

	static final ModuleOption<Integer> TIMES = ModuleOption.ofInt("times").withDefault(2).withMin(1);

	@Test
	void resolvesOptionsAndCollectsWhatAProcessorSends() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(repeater(), Map.of("times", "3"))) {
			driver.send("a").send(ModuleMessages.of("b"));

			assertThat(driver.receivedPayloads()).containsExactly("a", "a", "a", "b", "b", "b");
			assertThat(driver.received()).hasSize(6);
		}
	}

	@Test
	void appliesDefaults() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(repeater())) {
			driver.send("x");
			assertThat(driver.receivedPayloads()).containsExactly("x", "x");
		}
	}

	@Test
	void refusesOptionsAsTheRuntimeDoes() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(repeater(), Map.of("times", "0")))
			.withMessage("Invalid options for module processor:repeat: option 'times' must be at least 1, but got '0'");
	}

	@Test
	void surfacesWhatTheModuleThrows() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(repeater())) {
			assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> driver.send("boom"))
				.withMessageContaining("boom refused");
		}
	}

	@Test
	void awaitsWhatASourceSendsFromItsOwnThread() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(threadSource())) {
			assertThat(driver.awaitReceived(3, Duration.ofSeconds(5))).hasSizeGreaterThanOrEqualTo(3);
			assertThatIllegalStateException().isThrownBy(() -> driver.send("x"));
		}
	}

	@Test
	void reportsMessagesThatDidNotArrive() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(repeater())) {
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> driver.awaitReceived(1, Duration.ofMillis(20)))
				.withMessageContaining("but received 0");
		}
	}

	@Test
	void stopsTheModuleOnceWhenClosed() {
		ModuleTestDriver driver = ModuleTestDriver.of(threadSource());
		ThreadSource source = driver.module();
		driver.close();
		driver.close();
		assertThat(source.stops).isEqualTo(1);
	}

	private static ModuleProvider repeater() {
		return provider(new ModuleMetadata(ModuleType.PROCESSOR, "repeat", "Repeats", List.of(TIMES)),
				context -> new Processor() {

					private MessageChannel output;

					@Override
					public void start(MessageChannel output) {
						this.output = output;
					}

					@Override
					public void handleMessage(org.springframework.messaging.Message<?> message) {
						if ("boom".equals(message.getPayload())) {
							throw new MessageHandlingException(message, "boom refused");
						}
						for (int i = 0; i < context.options().get(TIMES); i++) {
							this.output.send(message);
						}
					}
				});
	}

	private static ModuleProvider threadSource() {
		return provider(new ModuleMetadata(ModuleType.SOURCE, "ticks", "Ticks", List.of()), context -> new ThreadSource());
	}

	@Test
	void reportsTheDeathOfAThreadTheModuleMadeAsItsFailure() {
		ModuleProvider dying = provider(new ModuleMetadata(ModuleType.SOURCE, "dying", "Dies", List.of()),
				context -> (Source) output -> context.newThread("worker", () -> {
					throw new OutOfMemoryError("Java heap space");
				}).start());
		try (ModuleTestDriver driver = ModuleTestDriver.of(dying)) {
			org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> driver.failure().isPresent());
			assertThat(driver.failure().get()).isInstanceOf(OutOfMemoryError.class).hasMessage("Java heap space");
		}
	}

	private static ModuleProvider provider(ModuleMetadata metadata, Function<ModuleContext, Module> factory) {
		return new ModuleProvider() {

			@Override
			public ModuleMetadata metadata() {
				return metadata;
			}

			@Override
			public Module create(ModuleContext context) {
				return factory.apply(context);
			}
		};
	}

	static final class ThreadSource implements Source {

		volatile int stops;

		private volatile boolean running = true;

		@Override
		public void start(MessageChannel output) {
			Thread thread = new Thread(() -> {
				while (this.running) {
					output.send(ModuleMessages.of("tick"));
					Thread.onSpinWait();
				}
			});
			thread.setDaemon(true);
			thread.start();
		}

		@Override
		public void stop() {
			this.running = false;
			this.stops++;
		}
	}
}
