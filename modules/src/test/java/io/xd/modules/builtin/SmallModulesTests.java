package io.xd.modules.builtin;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.ModuleOptionException;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SmallModulesTests {

	@Test
	void logSinkLogsPayloadsAsTextAtTheChosenLevel() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.log.teststream")) {
			try (ModuleTestDriver sink = ModuleTestDriver.of(new LogSink.Provider(), Map.of("level", "warn"))) {
				sink.send("h\u00e9llo".getBytes(StandardCharsets.UTF_8)).send(42);
			}

			assertThat(log.lines()).containsExactly("h\u00e9llo", "42");
			assertThat(log.events()).allSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.WARN));
		}
	}

	@Test
	void logSinkRejectsAnUnknownLevel() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new LogSink.Provider(), Map.of("level", "loud")))
			.withMessageContaining("option 'level' expects one of TRACE, DEBUG, INFO, WARN, ERROR, but got 'loud'");
	}

	@Test
	void timeSourceSendsTheFormattedTime() {
		String payload;
		try (ModuleTestDriver source = ModuleTestDriver.of(new TimeSource.Provider(), Map.of("format", "yyyy-MM-dd"))) {
			payload = (String) source.awaitReceived(1, Duration.ofSeconds(5)).get(0).getPayload();
		}

		assertThat(LocalDate.parse(payload)).isBetween(LocalDate.now().minusDays(1), LocalDate.now());
	}

	@Test
	void timeSourceRejectsAnInvalidPattern() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new TimeSource.Provider(), Map.of("format", "yyyy-MM-dd {{")))
			.withMessageContaining("option 'format' must be a java.time.format.DateTimeFormatter pattern");
	}

	@Test
	void bridgePassesTheSameMessageOn() {
		ModuleTestDriver bridge = ModuleTestDriver.of(new BridgeProcessor.Provider());
		Message<String> message = MessageBuilder.withPayload("x").setHeader("h", 1).build();

		bridge.send(message);

		assertThat(bridge.received()).containsExactly(message);
	}

	@Test
	void logSinkLogsTheValueOfItsExpression() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.log.teststream")) {
			try (ModuleTestDriver sink = ModuleTestDriver.of(new LogSink.Provider(),
					Map.of("expression", "payload.toUpperCase() + ' from ' + headers['who']"))) {
				sink.send(MessageBuilder.withPayload("hi").setHeader("who", "me").build());
			}

			assertThat(log.lines()).containsExactly("HI from me");
		}
	}

	@Test
	void logSinkRefusesAForbiddenExpression() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new LogSink.Provider(), Map.of("expression", "@bean")))
			.withMessageContaining("sink:log: option 'expression'")
			.withMessageContaining("bean references");
	}
}
