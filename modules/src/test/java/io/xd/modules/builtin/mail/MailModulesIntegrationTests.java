package io.xd.modules.builtin.mail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.icegreen.greenmail.store.MailFolder;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Flags;
import jakarta.mail.Message.RecipientType;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The mail sink and source against GreenMail, a real SMTP, SMTPS, IMAP and IMAPS server started on loopback ports
 * for this class; TLS is trusted through the connection's {@code ssl.trust} property, as an operator would for a
 * self-signed certificate.
 */
class MailModulesIntegrationTests {

	private static final String LOOPBACK = "127.0.0.1";

	/** The connection properties an operator sets for GreenMail's self-signed certificate, which names no host. */
	private static final Map<String, String> SELF_SIGNED = Map.of("ssl.trust", LOOPBACK, "ssl.checkserveridentity",
			"false");

	private static GreenMail greenMail;

	@TempDir
	Path data;

	@BeforeAll
	static void startGreenMail() {
		greenMail = new GreenMail(new ServerSetup[] { setup(ServerSetup.PROTOCOL_SMTP),
				setup(ServerSetup.PROTOCOL_SMTPS), setup(ServerSetup.PROTOCOL_IMAP),
				setup(ServerSetup.PROTOCOL_IMAPS) });
		greenMail.start();
	}

	private static ServerSetup setup(String protocol) {
		return new ServerSetup(0, LOOPBACK, protocol).dynamicPort();
	}

	@AfterAll
	static void stopGreenMail() {
		greenMail.stop();
	}

	private HostAccess access(Map<String, Connection> connections) {
		return HostAccess.defaults(this.data).withConnections(connections);
	}

	private static Connection connection(int port, String user, String password, boolean tls,
			Map<String, String> properties) {
		return new Connection(LOOPBACK, port, user, password, tls, properties);
	}

	@Test
	void sinkDeliversAMailThatTheServerHolds() throws Exception {
		greenMail.setUser("alerts@example.com", "alerts", "s3cret");
		HostAccess access = access(Map.of("mail",
				connection(greenMail.getSmtp().getPort(), "alerts", "s3cret", false, Map.of())));
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSink.Provider(), Map.of("to",
				"ops@example.com, oncall@example.com", "from", "alerts@example.com", "subject", "alert", "replyTo",
				"noreply@example.com"), this.data, access)) {
			driver.send("disk full on host-1");
		}

		MimeMessage mail = received("alert");
		assertThat(mail.getRecipients(RecipientType.TO)).extracting(Object::toString)
			.containsExactly("ops@example.com", "oncall@example.com");
		assertThat(mail.getFrom()[0]).hasToString("alerts@example.com");
		assertThat(mail.getReplyTo()[0]).hasToString("noreply@example.com");
		assertThat(GreenMailUtil.getBody(mail).strip()).isEqualTo("disk full on host-1");
	}

	@Test
	void sinkDeliversOverSmtpsWithHeadersFromExpressions() throws Exception {
		HostAccess access = access(Map.of("secure", connection(greenMail.getSmtps().getPort(), null, null, true,
				SELF_SIGNED)));
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSink.Provider(),
				Map.of("connection", "secure", "to", "#{headers['team'] + '@example.com'}", "from",
						"'\"xd@example.com\"'", "subject", "'Alert: ' + payload.substring(0, 4)"),
				this.data, access)) {
			driver.send(MessageBuilder.withPayload("disk full").setHeader("team", "storage").build());
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(MessageBuilder.withPayload("evil")
					.setHeader("team", "storage\r\nBcc: victim")
					.build()))
				.withMessageContaining("line break");
		}

		MimeMessage mail = received("Alert: disk");
		assertThat(mail.getRecipients(RecipientType.TO)[0]).hasToString("storage@example.com");
		assertThat(GreenMailUtil.getBody(mail).strip()).isEqualTo("disk full");
	}

	@Test
	void sinkReachesAnAllowedHostWithoutCredentials() throws Exception {
		HostAccess access = HostAccess.defaults(this.data).withConnectHosts(List.of(LOOPBACK));
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSink.Provider(), Map.of("host", LOOPBACK, "port",
				Integer.toString(greenMail.getSmtp().getPort()), "to", "ops@example.com", "from", "xd@example.com",
				"subject", "relayed"), this.data, access)) {
			driver.send("through an allowed relay");
		}

		assertThat(GreenMailUtil.getBody(received("relayed")).strip()).isEqualTo("through an allowed relay");
	}

	@Test
	void sinkRefusesToSendInTheClearWhenTheConnectionRequiresStarttls() {
		// GreenMail's SMTP offers no STARTTLS: a connection that requires it must not fall back to plain text
		HostAccess access = access(Map.of("mail", connection(greenMail.getSmtp().getPort(), null, null, false,
				Map.of("starttls", "true", "ssl.trust", LOOPBACK))));
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSink.Provider(),
				Map.of("to", "ops@example.com", "subject", "never sent"), this.data, access)) {
			assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> driver.send("secret"))
				.withMessageContaining("STARTTLS");
		}
		assertThat(greenMail.getReceivedMessages()).noneMatch(mail -> subject(mail).equals("never sent"));
	}

	@Test
	void sourceSendsNewMailsAndMarksThemRead() throws Exception {
		GreenMailUser user = greenMail.setUser("reader@example.com", "reader", "pw-reader");
		GreenMailUtil.sendTextEmail("reader@example.com", "boss@example.com", "weekly report", "all good",
				greenMail.getSmtp().getServerSetup());
		HostAccess access = access(Map.of("mail",
				connection(greenMail.getImap().getPort(), "reader", "pw-reader", false, Map.of())));
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSource.Provider(),
				Map.of("markAsRead", "true", "delete", "false", "fixedDelay", "1"), this.data, access)) {
			List<Message<?>> received = driver.awaitReceived(1, Duration.ofSeconds(10));

			assertThat(received.get(0).getPayload().toString().strip()).isEqualTo("all good");
			assertThat(received.get(0).getHeaders()).containsEntry("mail_subject", "weekly report")
				.containsEntry("mail_from", "boss@example.com")
				.containsEntry("mail_to", "reader@example.com");
			MailFolder inbox = greenMail.getManagers().getImapHostManager().getInbox(user);
			await().atMost(Duration.ofSeconds(5))
				.untilAsserted(() -> assertThat(inbox.getMessages()).singleElement()
					.satisfies(stored -> assertThat(stored.getFlags().contains(Flags.Flag.SEEN)).isTrue()));
			Thread.sleep(1500);
			assertThat(driver.received()).hasSize(1);
		}
	}

	@Test
	void sourceDeletesTheMailsItReadsOverImaps() throws Exception {
		GreenMailUser user = greenMail.setUser("archive@example.com", "archive", "pw-archive");
		GreenMailUtil.sendTextEmail("archive@example.com", "a@example.com", "first", "one",
				greenMail.getSmtp().getServerSetup());
		GreenMailUtil.sendTextEmail("archive@example.com", "b@example.com", "second", "two",
				greenMail.getSmtp().getServerSetup());
		HostAccess access = access(Map.of("imaps", connection(greenMail.getImaps().getPort(), "archive",
				"pw-archive", true, SELF_SIGNED)));
		try (ModuleTestDriver driver = ModuleTestDriver.of(new MailSource.Provider(),
				Map.of("connection", "imaps", "fixedDelay", "1"), this.data, access)) {
			driver.awaitReceived(2, Duration.ofSeconds(10));

			assertThat(driver.receivedPayloads()).extracting(payload -> payload.toString().strip())
				.containsExactlyInAnyOrder("one", "two");
			MailFolder inbox = greenMail.getManagers().getImapHostManager().getInbox(user);
			await().atMost(Duration.ofSeconds(5)).until(() -> inbox.getMessageCount() == 0);
		}
	}

	private static MimeMessage received(String subject) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> List.of(greenMail.getReceivedMessages()).stream().anyMatch(mail -> subject(mail).equals(subject)));
		return List.of(greenMail.getReceivedMessages())
			.stream()
			.filter(mail -> subject(mail).equals(subject))
			.findFirst()
			.orElseThrow();
	}

	private static String subject(MimeMessage mail) {
		try {
			return String.valueOf(mail.getSubject());
		}
		catch (jakarta.mail.MessagingException ex) {
			throw new IllegalStateException(ex);
		}
	}
}
