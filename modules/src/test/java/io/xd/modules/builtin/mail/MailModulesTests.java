package io.xd.modules.builtin.mail;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleProvider;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The mail sink's and source's options and refusals, without a server. */
class MailModulesTests {

	@TempDir
	Path data;

	private HostAccess access() {
		return HostAccess.defaults(this.data)
			.withConnections(Map.of("mail", new Connection("mail.example.com", 0, "alerts@example.com", "s3cret",
					true, Map.of())))
			.withConnectHosts(List.of("relay.example.com"));
	}

	private void check(ModuleProvider provider, Map<String, String> options) {
		access().check(provider, provider.metadata().resolve(options));
	}

	@Test
	void refusesCredentialsInTheDefinitionPointingToTheConnection() {
		for (ModuleProvider provider : List.of(new MailSink.Provider(), new MailSource.Provider())) {
			assertThatExceptionOfType(ModuleOptionException.class)
				.isThrownBy(() -> check(provider, Map.of("password", "pw", "username", "u")))
				.withMessageContaining("option 'password' is refused")
				.withMessageContaining("option 'username' is refused")
				.withMessageContaining("xd.connections.<name>");
		}
	}

	@Test
	void refusesAHostTheOperatorDoesNotAllowAndAcceptsOneItDoes() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MailSink.Provider(), Map.of("host", "smtp.attacker.example")))
			.withMessageContaining("option 'host'")
			.withMessageContaining("xd.modules.connect.allowed-hosts");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MailSource.Provider(), Map.of("host", "10.0.0.1", "protocol", "imaps")))
			.withMessageContaining("10.0.0.1:993");
	}

	@Test
	void refusesAnUnknownConnectionAHostBesideAConnectionAndAPortWithAConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MailSink.Provider(), Map.of("connection", "other")))
			.withMessageContaining("no connection of that name")
			.withMessageContaining("declared: mail");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MailSink.Provider(), Map.of("connection", "mail", "host",
					"relay.example.com")))
			.withMessageContaining("refused together");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MailSource.Provider(), Map.of("port", "2525")))
			.withMessageContaining("option 'port' is refused with a connection");
	}

	@Test
	void refusesALineBreakInALiteralHeaderAndAForbiddenExpression() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MailSink.Provider().metadata().resolve(Map.of("subject", "alert\r\nBcc: x@y.z")))
			.withMessageContaining("option 'subject'")
			.withMessageContaining("line break");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MailSink.Provider().metadata()
				.resolve(Map.of("to", "#{T(java.lang.Runtime).getRuntime().exec('id')}")))
			.withMessageContaining("option 'to'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MailSink.Provider().metadata()
				.resolve(Map.of("subject", "x".repeat(MailHeaderValue.MAX_OPTION_LENGTH + 1))))
			.withMessageContaining("longer than");
	}

	@Test
	void headerValuesAreLiteralTextOrExpressionsWhoseValuesAreChecked() {
		var message = MessageBuilder.withPayload("disk full").setHeader("team", "storage").build();

		assertThat(MailHeaderValue.parse("ops@example.com").valueFor(message, "to")).isEqualTo("ops@example.com");
		assertThat(MailHeaderValue.parse("payload").valueFor(message, "subject")).isEqualTo("payload");
		assertThat(MailHeaderValue.parse("#{payload.toUpperCase()}").valueFor(message, "subject"))
			.isEqualTo("DISK FULL");
		assertThat(MailHeaderValue.parse("'\"xd@example.com\"'").valueFor(message, "from"))
			.isEqualTo("\"xd@example.com\"");
		assertThat(MailHeaderValue.parse("'Alert: ' + headers['team']").valueFor(message, "subject"))
			.isEqualTo("Alert: storage");
		var injected = MessageBuilder.withPayload("x\nBcc: victim@example.com").build();
		assertThatExceptionOfType(MessageHandlingException.class)
			.isThrownBy(() -> MailHeaderValue.parse("#{payload}").valueFor(injected, "subject"))
			.withMessageContaining("line break");
	}

	@Test
	void sinkRefusesAMailWithoutRecipientsOrWithBadAddressesBeforeConnecting() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSink.Provider(),
				Map.of("to", "#{headers['to']}"), this.data, access())) {
			assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> driver.send("text"))
				.withMessageContaining("no recipient");
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(MessageBuilder.withPayload("text").setHeader("to", "not an address")
					.build()))
				.withMessageContaining("not a list of addresses");
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(MessageBuilder.withPayload(42).setHeader("to", "a@example.com")
					.build()))
				.withMessageContaining("String or byte[]");
		}
	}

	@Test
	void sourceRefusesImapIdleAndTakesSpringXdsDefaults() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new MailSource.Provider().metadata().resolve(Map.of("usePolling", "false")))
			.withMessageContaining("only polling is supported");
		var options = new MailSource.Provider().metadata().resolve(Map.of());
		assertThat(options.get(MailSource.FOLDER)).isEqualTo("INBOX");
		assertThat(options.get(MailSource.DELETE)).isTrue();
		assertThat(options.get(MailSource.MARK_AS_READ)).isFalse();
		assertThat(options.get(MailSource.PROTOCOL)).isEqualTo("imap");
	}
}
