package io.xd.modules.builtin;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleOptionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class TimeSourceOptionsTests {

	@Test
	void fixedDelayIsInTimeUnit() {
		TimeSource source = Modules.create(new TimeSource.Provider(),
				Map.of("fixedDelay", "50", "timeUnit", "milliseconds"));
		Modules.Collecting output = new Modules.Collecting();

		source.start(output);
		await().atMost(3, TimeUnit.SECONDS).until(() -> output.messages.size() >= 5);
		source.stop();
	}

	@Test
	void initialDelayHoldsTheFirstMessageBack() throws InterruptedException {
		TimeSource source = Modules.create(new TimeSource.Provider(), Map.of("initialDelay", "1", "timeUnit", "DAYS"));
		Modules.Collecting output = new Modules.Collecting();

		source.start(output);
		Thread.sleep(300);
		source.stop();

		assertThat(output.messages).isEmpty();
	}

	@Test
	void cronSendsAtTheNamedTimes() {
		TimeSource source = Modules.create(new TimeSource.Provider(),
				Map.of("cron", "* * * * * *", "fixedDelay", "1", "timeUnit", "DAYS"));
		Modules.Collecting output = new Modules.Collecting();

		source.start(output);
		await().atMost(5, TimeUnit.SECONDS).until(() -> output.messages.size() >= 2);
		source.stop();
	}

	@Test
	void rejectsAnInvalidCronExpressionAndTimeUnit() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new TimeSource.Provider(), Map.of("cron", "every minute")))
			.withMessageContaining("option 'cron' must be a cron expression");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new TimeSource.Provider(), Map.of("timeUnit", "fortnights")))
			.withMessageContaining("option 'timeUnit' expects one of NANOSECONDS");
	}
}
