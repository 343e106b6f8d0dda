package io.xd.modules.builtin.source;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;

class SyslogParserTests {

	@Test
	void parsesAnRfc5424LineWithStructuredData() {
		Map<String, Object> parts = SyslogParser.parse("<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog"
				+ " - ID47 [exampleSDID@32473 iut=\"3\" eventSource=\"Appli\\\"cation\"][other@1 a=\"\\]\"]"
				+ " \uFEFFAn application event log entry...\r\n");

		assertThat(parts).containsExactly(entry("rfc", "5424"), entry("facility", 20), entry("severity", 5),
				entry("version", 1), entry("timestamp", "2003-10-11T22:14:15.003Z"),
				entry("host", "mymachine.example.com"), entry("app", "evntslog"), entry("msgId", "ID47"),
				entry("structuredData", Map.of("exampleSDID@32473", Map.of("iut", "3", "eventSource", "Appli\"cation"),
						"other@1", Map.of("a", "]"))),
				entry("message", "An application event log entry..."));
	}

	@Test
	void parsesAnRfc5424LineWithNilValuesAndNoMessage() {
		Map<String, Object> parts = SyslogParser.parse("<34>1 - - - - - -");

		assertThat(parts).containsExactly(entry("rfc", "5424"), entry("facility", 4), entry("severity", 2),
				entry("version", 1), entry("structuredData", Map.of()), entry("message", ""));
	}

	@Test
	void parsesAnRfc3164LineWithTagAndPid() {
		Map<String, Object> parts = SyslogParser.parse("<34>Oct  1 22:14:15 mymachine su[123]: 'su root' failed\n");

		assertThat(parts).containsExactly(entry("rfc", "3164"), entry("facility", 4), entry("severity", 2),
				entry("timestamp", "Oct  1 22:14:15"), entry("host", "mymachine"), entry("app", "su"),
				entry("procId", "123"), entry("message", "'su root' failed"));
	}

	@Test
	void keepsTheWholeContentAsMessageWhenAnRfc3164LineHasNoTag() {
		Map<String, Object> parts = SyslogParser.parse("<13>Feb  5 17:32:18 10.0.0.99 Use the BFG!");

		assertThat(parts).containsEntry("host", "10.0.0.99")
			.containsEntry("message", "Use the BFG!")
			.doesNotContainKey("app");
	}

	@Test
	void refusesLinesThatAreNeitherFormatSayingWhy() {
		assertThatIllegalArgumentException().isThrownBy(() -> SyslogParser.parse("hello"))
			.withMessageContaining("<priority>");
		assertThatIllegalArgumentException().isThrownBy(() -> SyslogParser.parse("<999>1 - - - - - -"))
			.withMessageContaining("between 0 and 191");
		assertThatIllegalArgumentException().isThrownBy(() -> SyslogParser.parse("<13>yesterday host app: hi"))
			.withMessageContaining("RFC 3164 timestamp");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SyslogParser.parse("<13>1 2003-10-11T22:14:15Z host app - - [unterminated a=\"1\""))
			.withMessageContaining("expected ']'");
	}
}
