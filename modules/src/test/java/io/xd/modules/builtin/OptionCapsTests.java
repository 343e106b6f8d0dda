package io.xd.modules.builtin;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Every option that sizes a buffer, a batch, a group or a wait has a documented maximum, refused above it. */
class OptionCapsTests {

	private static final ModuleRegistry REGISTRY = ModuleRegistry.fromClassPath();

	@ParameterizedTest
	@CsvSource({ "SOURCE, tcp, bufferSize, 16777216", "SOURCE, http, maxContentLength, 67108864",
			"PROCESSOR, aggregator, count, 100000", "PROCESSOR, http-client, maxResponseSize, 16777216",
			"SOURCE, load-generator, producers, 256", "SOURCE, load-generator, messageSize, 67108864",
			"SINK, tcp, bufferSize, 16777216", "SOURCE, jdbc, maxRowsPerPoll, 100000",
			"SOURCE, tail, maxLineLength, 16777216", "SOURCE, tail, lines, 10000",
			"SOURCE, mail, maxMessages, 1000", "SOURCE, mail, maxMessageSize, 16777216",
			"SOURCE, sftp, maxFileSize, 1073741824" })
	void refusesAValueAboveTheCapNamingIt(ModuleType type, String module, String option, long cap) {
		ModuleProvider provider = REGISTRY.find(type, module).orElseThrow();

		assertThat(provider.metadata().resolve(Map.of(option, Long.toString(cap)))).isNotNull();
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> provider.metadata().resolve(Map.of(option, Long.toString(cap + 1))))
			.withMessageContaining("option '" + option + "'")
			.withMessageContaining(Long.toString(cap));
	}
}
