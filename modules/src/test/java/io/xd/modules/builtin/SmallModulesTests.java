package io.xd.modules.builtin;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class SmallModulesTests {

	@Test
	void logSinkLogsPayloadsAsTextAtTheChosenLevel() {
		try (Modules.CapturedLog log = new Modules.CapturedLog("xd.sink.log.teststream")) {
			LogSink sink = Modules.create(new LogSink.Provider(), Map.of("level", "warn"));

			sink.handleMessage(ModuleMessages.of("h\u00e9llo".getBytes(StandardCharsets.UTF_8)));
			sink.handleMessage(ModuleMessages.of(42));

			assertThat(log.lines()).containsExactly("h\u00e9llo", "42");
			assertThat(log.events()).allSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.WARN));
		}
	}

	@Test
	void logSinkRejectsAnUnknownLevel() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new LogSink.Provider(), Map.of("level", "loud")))
			.withMessageContaining("option 'level' expects one of TRACE, DEBUG, INFO, WARN, ERROR, but got 'loud'");
	}

	@Test
	void timeSourceSendsTheFormattedTime() {
		TimeSource source = Modules.create(new TimeSource.Provider(), Map.of("format", "yyyy-MM-dd"));
		Modules.Collecting output = new Modules.Collecting();

		source.start(output);
		await().atMost(5, TimeUnit.SECONDS).until(() -> !output.messages.isEmpty());
		source.stop();

		String payload = (String) output.messages.get(0).getPayload();
		assertThat(LocalDate.parse(payload)).isBetween(LocalDate.now().minusDays(1), LocalDate.now());
	}

	@Test
	void timeSourceRejectsAnInvalidPattern() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> Modules.create(new TimeSource.Provider(), Map.of("format", "yyyy-MM-dd {{")))
			.withMessageContaining("option 'format' must be a java.time.format.DateTimeFormatter pattern");
	}

	@Test
	void bridgePassesTheSameMessageOn() {
		BridgeProcessor bridge = Modules.create(new BridgeProcessor.Provider(), Map.of());
		Modules.Collecting output = new Modules.Collecting();
		bridge.start(output);
		Message<String> message = MessageBuilder.withPayload("x").setHeader("h", 1).build();

		bridge.handleMessage(message);

		assertThat(output.messages).containsExactly(message);
	}
}
