package io.xd.modules.builtin.mail;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

import org.springframework.mail.MailException;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.DefaultPort;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;

/**
 * The {@code mail} sink: sends each payload as the text of a mail over SMTP, to a server the operator declared
 * ({@code --connection}, default {@code mail}; SMTPS or STARTTLS as the connection says, see {@link MailServers}) or
 * to an allowed {@code --host} without credentials. The payload is a {@code String} or UTF-8 bytes of at most
 * {@value #MAX_BODY_BYTES} bytes. The header options are literal text or expressions ({@link MailHeaderValue}); a
 * header that holds a line break is refused, addresses are parsed strictly (at most {@value #MAX_RECIPIENTS}
 * recipients in all), and a message without a {@code to} is refused. Each message is sent before
 * {@code handleMessage} returns; one that the server refuses, or that cannot be built, is thrown to the bus, which
 * retries it or sends it to the error path. Safe to call from several threads (each send opens its own SMTP
 * connection).
 */
public final class MailSink implements Sink {

	/** The largest payload sent. */
	public static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

	/** The most recipients (to, cc and bcc together) of one mail. */
	public static final int MAX_RECIPIENTS = 100;

	static final ModuleOption<String> CONNECTION = MailServers.connectionOption();

	static final ModuleOption<String> HOST = MailServers.hostOption();

	static final ModuleOption<Integer> PORT = ConnectorServer.portOption("host", "25");

	static final ModuleOption<String> USERNAME = MailServers.usernameOption();

	static final ModuleOption<String> PASSWORD = ConnectorServer.passwordOption();

	/** SMTP on port 25, or SMTPS on 465 with a connection that says TLS. */
	static final ServerOptions SERVER = MailServers.serverOptions(CONNECTION, HOST, PORT, USERNAME, PASSWORD,
			DefaultPort.of(25, 465));

	static final ModuleOption<MailHeaderValue> TO = header("to", "the recipients, comma-separated addresses");

	static final ModuleOption<MailHeaderValue> FROM = header("from", "the sender's address; the connection's "
			+ "username when it is an address");

	static final ModuleOption<MailHeaderValue> SUBJECT = header("subject", "the subject");

	static final ModuleOption<MailHeaderValue> CC = header("cc", "the copy recipients, comma-separated addresses");

	static final ModuleOption<MailHeaderValue> BCC = header("bcc", "the blind copy recipients, comma-separated "
			+ "addresses");

	static final ModuleOption<MailHeaderValue> REPLY_TO = header("replyTo", "the address replies go to");

	static final ModuleOption<String> CONTENT_TYPE = ModuleOption.ofChoice("contentType", "text/plain", "text/html")
		.withDefault("text/plain")
		.withDescription("the type of the text (UTF-8)");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "mail",
			"Sends each payload as a mail over SMTP", List.of(TO, FROM, SUBJECT, CC, BCC, REPLY_TO, CONTENT_TYPE,
					CONNECTION, HOST, PORT, USERNAME, PASSWORD));

	private final MailHeaderValue to;

	private final MailHeaderValue from;

	private final MailHeaderValue subject;

	private final MailHeaderValue cc;

	private final MailHeaderValue bcc;

	private final MailHeaderValue replyTo;

	private final boolean html;

	private final String defaultFrom;

	private final ConnectorServer server;

	private final HostAccess access;

	private final JavaMailSenderImpl sender;

	MailSink(ModuleContext context) {
		ModuleOptions options = context.options();
		ConnectorServer server = server(options, context.hostAccess());
		this.to = options.get(TO);
		this.from = options.get(FROM);
		this.subject = options.get(SUBJECT);
		this.cc = options.get(CC);
		this.bcc = options.get(BCC);
		this.replyTo = options.get(REPLY_TO);
		this.html = options.get(CONTENT_TYPE).equals("text/html");
		String user = server.username();
		this.defaultFrom = (user != null && user.contains("@")) ? user : null;
		this.server = server;
		this.access = context.hostAccess();
		String protocol = server.tls() ? "smtps" : "smtp";
		this.sender = new JavaMailSenderImpl();
		this.sender.setProtocol(protocol);
		this.sender.setHost(server.host());
		this.sender.setPort(server.port());
		this.sender.setUsername(user);
		this.sender.setPassword(server.password());
		this.sender.setDefaultEncoding(StandardCharsets.UTF_8.name());
		this.sender.setJavaMailProperties(MailServers.properties(protocol, server));
	}

	private static ModuleOption<MailHeaderValue> header(String name, String description) {
		return ModuleOption.ofType(name, "text or expression", MailHeaderValue.class, MailHeaderValue::parse)
			.withDescription(description + ": literal text, or an expression as #{...} or starting with a quote; "
					+ "no line breaks, at most " + MailHeaderValue.MAX_HEADER_LENGTH + " characters");
	}

	static ConnectorServer server(ModuleOptions options, HostAccess access) {
		return SERVER.resolve(options, access);
	}

	@Override
	public void handleMessage(Message<?> message) {
		MimeMessage mail = this.sender.createMimeMessage();
		try {
			MimeMessageHelper helper = new MimeMessageHelper(mail, StandardCharsets.UTF_8.name());
			InternetAddress[] recipients = addresses(message, this.to, "to");
			if (recipients.length == 0) {
				throw new MessageHandlingException(message, "The mail sink has no recipient: give --to");
			}
			InternetAddress[] copies = addresses(message, this.cc, "cc");
			InternetAddress[] blindCopies = addresses(message, this.bcc, "bcc");
			if (recipients.length + copies.length + blindCopies.length > MAX_RECIPIENTS) {
				throw new MessageHandlingException(message, "The mail sink sends a mail to at most " + MAX_RECIPIENTS
						+ " recipients");
			}
			helper.setTo(recipients);
			helper.setCc(copies);
			helper.setBcc(blindCopies);
			InternetAddress[] sender = addresses(message, this.from, "from");
			if (sender.length > 0) {
				helper.setFrom(sender[0]);
			}
			else if (this.defaultFrom != null) {
				helper.setFrom(this.defaultFrom);
			}
			InternetAddress[] replies = addresses(message, this.replyTo, "replyTo");
			if (replies.length > 0) {
				helper.setReplyTo(replies[0]);
			}
			String text = (this.subject != null) ? this.subject.valueFor(message, "subject") : null;
			if (text != null) {
				helper.setSubject(text);
			}
			helper.setText(body(message), this.html);
		}
		catch (MessagingException ex) {
			throw new MessageHandlingException(message, "The mail sink could not build a mail: " + ex.getMessage(), ex);
		}
		try {
			this.server.checkStillAllowed(this.access);
			this.sender.send(mail);
		}
		catch (MailException | ModuleOptionException ex) {
			throw new MessageHandlingException(message, "The mail sink could not send through "
					+ this.server.shown() + ": " + ex.getMessage(), ex);
		}
	}

	private static InternetAddress[] addresses(Message<?> message, MailHeaderValue value, String header) {
		if (value == null) {
			return new InternetAddress[0];
		}
		String text = value.valueFor(message, header);
		if (text == null || text.isBlank()) {
			return new InternetAddress[0];
		}
		try {
			return InternetAddress.parse(text, true);
		}
		catch (AddressException ex) {
			throw new MessageHandlingException(message, "The mail sink's " + header + " '" + text
					+ "' is not a list of addresses: " + ex.getMessage(), ex);
		}
	}

	private static String body(Message<?> message) {
		Object payload = message.getPayload();
		if (payload instanceof byte[] bytes) {
			if (bytes.length > MAX_BODY_BYTES) {
				throw tooLarge(message, bytes.length);
			}
			return new String(bytes, StandardCharsets.UTF_8);
		}
		if (payload instanceof String text) {
			// a char is at most 3 UTF-8 bytes: count them only when the length does not settle it
			if (text.length() > MAX_BODY_BYTES / 3 && text.getBytes(StandardCharsets.UTF_8).length > MAX_BODY_BYTES) {
				throw tooLarge(message, text.getBytes(StandardCharsets.UTF_8).length);
			}
			return text;
		}
		throw new MessageHandlingException(message, "The mail sink sends String or byte[] payloads, not "
				+ payload.getClass().getName());
	}

	private static MessageHandlingException tooLarge(Message<?> message, int bytes) {
		return new MessageHandlingException(message, "The mail sink sends payloads of at most " + MAX_BODY_BYTES
				+ " bytes, not " + bytes);
	}

	/** Declares and creates the {@code mail} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, MailSink::new, MailSink::server);
		}
	}
}
