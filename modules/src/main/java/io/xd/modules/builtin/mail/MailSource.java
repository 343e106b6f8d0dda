package io.xd.modules.builtin.mail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import jakarta.mail.Address;
import jakarta.mail.FetchProfile;
import jakarta.mail.Folder;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.PasswordAuthentication;
import jakarta.mail.internet.MimeMessage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.integration.mail.inbound.ImapMailReceiver;
import org.springframework.integration.mail.MailHeaders;
import org.springframework.messaging.Message;
import org.springframework.scheduling.concurrent.ConcurrentTaskScheduler;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;
import io.xd.modules.builtin.IntegrationBeans;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code mail} source: polls a folder of an IMAP server (IMAPS as {@code --protocol} or the connection's TLS
 * say) with Spring Integration's {@link ImapMailReceiver}, and sends each new mail's text as a {@code String}, with
 * its subject, sender, recipients and date as headers ({@code mail_subject}, {@code mail_from}, {@code mail_to},
 * {@code mail_cc}, {@code mail_replyTo}, {@code mail_date}, addresses comma-separated). The text is the mail's body
 * when it is text, else its first {@code text/plain} part, else its first text part; a mail without text is sent
 * with an empty payload. A poll takes at most {@code maxMessages} mails; it marks them read ({@code markAsRead}) or
 * deletes them ({@code delete}, Spring XD's default) as it fetches them, before they are sent on. Mails larger than
 * {@code maxMessageSize} are left in the folder, unmarked, and logged at each poll. A poll that fails (the server
 * is away, refuses the login) is logged and the next poll tries again. Only polling is supported (no IMAP IDLE).
 */
public final class MailSource implements Source {

	private static final Pattern FOLDER_NAME = Pattern.compile("[A-Za-z0-9._/-]{1,200}");

	static final ModuleOption<String> CONNECTION = MailServers.connectionOption();

	static final ModuleOption<String> HOST = MailServers.hostOption();

	static final ModuleOption<Integer> PORT = ConnectorServer.portOption("host", "143, or 993 for imaps");

	static final ModuleOption<String> USERNAME = MailServers.usernameOption();

	static final ModuleOption<String> PASSWORD = ConnectorServer.passwordOption();

	static final ModuleOption<String> PROTOCOL = ModuleOption.ofChoice("protocol", "imap", "imaps")
		.withDefault("imap")
		.withDescription("imap, or imaps for TLS from the start (a connection with tls=true always uses imaps)");

	static final ModuleOption<String> FOLDER = ModuleOption.ofString("folder")
		.withDefault("INBOX")
		.withRule(folder -> FOLDER_NAME.matcher(folder).matches(), "be a folder name of letters, digits, . _ / -")
		.withDescription("the folder to poll");

	static final ModuleOption<Boolean> MARK_AS_READ = ModuleOption.ofBoolean("markAsRead")
		.withDefault(false)
		.withDescription("mark the mails fetched as read");

	static final ModuleOption<Boolean> DELETE = ModuleOption.ofBoolean("delete")
		.withDefault(true)
		.withDescription("delete the mails fetched");

	static final ModuleOption<Integer> FIXED_DELAY = ModuleOption.ofInt("fixedDelay")
		.withDefault(60)
		.withMin(1)
		.withDescription("the seconds between two polls");

	static final ModuleOption<Boolean> USE_POLLING = ModuleOption.ofBoolean("usePolling")
		.withDefault(true)
		.withRule(polling -> polling, "be true (only polling is supported, not IMAP IDLE)")
		.withDescription("poll the folder; Spring XD's IMAP IDLE (false) is not supported");

	static final ModuleOption<Integer> MAX_MESSAGES = ModuleOption.ofInt("maxMessages")
		.withDefault(10)
		.withMin(1)
		.withMax(1000)
		.withDescription("the most mails one poll fetches");

	static final ModuleOption<Integer> MAX_MESSAGE_SIZE = ModuleOption.ofInt("maxMessageSize")
		.withDefault(1024 * 1024)
		.withMin(1)
		.withMax(16 * 1024 * 1024)
		.withDescription("the largest mail fetched, in bytes; larger ones are left in the folder and logged");

	static final ModuleOption<String> CHARSET = ModuleOption.ofString("charset")
		.withDefault("UTF-8")
		.withRule(ModuleSupport::isCharset, "name a character set")
		.withDescription("the character set of text parts that declare none");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "mail",
			"Sends the text of the mails that arrive in an IMAP folder",
			List.of(PROTOCOL, FOLDER, MARK_AS_READ, DELETE, FIXED_DELAY, USE_POLLING, MAX_MESSAGES, MAX_MESSAGE_SIZE,
					CHARSET, CONNECTION, HOST, PORT, USERNAME, PASSWORD));

	/** IMAP on port 143, or IMAPS on 993 with --protocol=imaps or a connection that says TLS. */
	static final ServerOptions SERVER = MailServers.serverOptions(CONNECTION, HOST, PORT, USERNAME, PASSWORD,
			(options, tls) -> (tls || options.get(PROTOCOL).equals("imaps")) ? 993 : 143);

	private static final Logger logger = LoggerFactory.getLogger(MailSource.class);

	private final ModuleContext context;

	private final SizeLimitedImapReceiver receiver;

	private final Charset charset;

	private final int delaySeconds;

	private final ConnectorServer server;

	private ScheduledExecutorService scheduler;

	/** Set by stop: a poll interrupted then is not a failure to log (libraries clear the interrupt flag). */
	private volatile boolean stopping;

	MailSource(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		ConnectorServer server = server(options, context.hostAccess());
		String protocol = server.tls() ? "imaps" : options.get(PROTOCOL);
		this.server = server;
		this.charset = Charset.forName(options.get(CHARSET));
		this.delaySeconds = options.get(FIXED_DELAY);
		this.receiver = new SizeLimitedImapReceiver(
				protocol + "://" + server.host() + ":" + server.port() + "/" + options.get(FOLDER),
				options.get(MAX_MESSAGE_SIZE));
		this.receiver.setProtocol(protocol);
		Properties properties = MailServers.properties(protocol, server);
		String user = server.username();
		if (user != null) {
			properties.setProperty("mail." + protocol + ".user", user);
			String password = (server.password() == null) ? "" : server.password();
			this.receiver.setJavaMailAuthenticator(new jakarta.mail.Authenticator() {
				@Override
				protected PasswordAuthentication getPasswordAuthentication() {
					return new PasswordAuthentication(user, password);
				}
			});
		}
		this.receiver.setJavaMailProperties(properties);
		this.receiver.setShouldMarkMessagesAsRead(options.get(MARK_AS_READ));
		this.receiver.setShouldDeleteMessages(options.get(DELETE));
		this.receiver.setMaxFetchSize(options.get(MAX_MESSAGES));
		this.receiver.setSimpleContent(true);
		this.receiver.setBeanFactory(IntegrationBeans.minimal());
	}

	static ConnectorServer server(ModuleOptions options, HostAccess access) {
		return SERVER.resolve(options, access);
	}

	@Override
	public void start(MessageChannel output) {
		this.scheduler = ModuleSupport.scheduler(this.context, "mail-poller");
		// the receiver schedules only for IMAP IDLE, which this source does not use: it gets the poller's thread
		this.receiver.setTaskScheduler(new ConcurrentTaskScheduler(this.scheduler));
		this.receiver.afterPropertiesSet();
		this.scheduler.scheduleWithFixedDelay(() -> poll(output), 0, this.delaySeconds, TimeUnit.SECONDS);
	}

	private void poll(MessageChannel output) {
		Object[] mails;
		try {
			this.server.checkStillAllowed(this.context.hostAccess());
			mails = this.receiver.receive();
		}
		catch (MessagingException | RuntimeException ex) {
			if (this.stopping) {
				return;
			}
			logger.error("Stream '{}': the mail source could not read from {}: {}", this.context.streamName(),
					this.server.shown(), ex.getMessage(), ex);
			return;
		}
		for (Object mail : mails) {
			if (Thread.currentThread().isInterrupted()) {
				return;
			}
			Message<String> message;
			try {
				message = toMessage((MimeMessage) mail, this.charset);
			}
			catch (MessagingException | IOException | RuntimeException ex) {
				logger.error("Stream '{}': the mail source could not read a mail from {}", this.context.streamName(),
						this.server.shown(), ex);
				continue;
			}
			try {
				output.send(message);
			}
			catch (RuntimeException ex) {
				// the mail is already marked or deleted: say which one was lost
				logger.error("Stream '{}': the mail '{}' from {} could not be sent on", this.context.streamName(),
						message.getHeaders().get(MailHeaders.SUBJECT), message.getHeaders().get(MailHeaders.FROM), ex);
			}
		}
	}

	/** A mail as a message: its text as the payload, its subject, addresses and date as headers. */
	static Message<String> toMessage(MimeMessage mail, Charset charset) throws MessagingException, IOException {
		String text = text(mail, charset);
		MessageBuilder<String> builder = MessageBuilder.withPayload((text == null) ? "" : text)
			.setHeader(MessageHeaders.CONTENT_TYPE, "text/plain");
		setIfPresent(builder, MailHeaders.SUBJECT, mail.getSubject());
		setIfPresent(builder, MailHeaders.FROM, addresses(mail.getFrom()));
		setIfPresent(builder, MailHeaders.TO, addresses(mail.getRecipients(jakarta.mail.Message.RecipientType.TO)));
		setIfPresent(builder, MailHeaders.CC, addresses(mail.getRecipients(jakarta.mail.Message.RecipientType.CC)));
		setIfPresent(builder, MailHeaders.REPLY_TO, addresses(mail.getReplyTo()));
		if (mail.getSentDate() != null) {
			builder.setHeader("mail_date", mail.getSentDate().getTime());
		}
		return builder.build();
	}

	private static void setIfPresent(MessageBuilder<String> builder, String header, String value) {
		if (value != null && !value.isEmpty()) {
			builder.setHeader(header, value);
		}
	}

	private static String addresses(Address[] addresses) {
		return (addresses == null) ? null
				: Arrays.stream(addresses).map(Address::toString).collect(Collectors.joining(", "));
	}

	/** The text of a part: itself when it is text, else its first text/plain part, else its first text part. */
	private static String text(Part part, Charset charset) throws MessagingException, IOException {
		if (part.isMimeType("multipart/*") && part.getContent() instanceof Multipart multipart) {
			List<Part> texts = new ArrayList<>();
			for (int i = 0; i < multipart.getCount(); i++) {
				Part child = multipart.getBodyPart(i);
				if (child.isMimeType("text/plain") && !Part.ATTACHMENT.equalsIgnoreCase(child.getDisposition())) {
					return text(child, charset);
				}
				texts.add(child);
			}
			for (Part child : texts) {
				String text = text(child, charset);
				if (text != null) {
					return text;
				}
			}
			return null;
		}
		if (!part.isMimeType("text/*") || Part.ATTACHMENT.equalsIgnoreCase(part.getDisposition())) {
			return null;
		}
		Object content = part.getContent();
		if (content instanceof String text) {
			return text;
		}
		if (content instanceof InputStream stream) {
			try (stream) {
				return new String(stream.readAllBytes(), charset);
			}
		}
		return null;
	}

	@Override
	public void stop() {
		this.stopping = true;
		ModuleSupport.shutdown(this.scheduler);
		this.receiver.destroy();
	}

	/** An IMAP receiver that leaves mails larger than a limit in the folder, unfetched, and logs them. */
	private static final class SizeLimitedImapReceiver extends ImapMailReceiver {

		private final int maxSize;

		SizeLimitedImapReceiver(String url, int maxSize) {
			super(url);
			this.maxSize = maxSize;
		}

		@Override
		protected jakarta.mail.Message[] searchForNewMessages() throws MessagingException {
			jakarta.mail.Message[] found = super.searchForNewMessages();
			if (found.length == 0) {
				return found;
			}
			Folder folder = getFolder();
			FetchProfile sizes = new FetchProfile();
			sizes.add(FetchProfile.Item.SIZE);
			folder.fetch(found, sizes);
			List<jakarta.mail.Message> small = new ArrayList<>(found.length);
			for (jakarta.mail.Message mail : found) {
				if (mail.getSize() > this.maxSize) {
					MailSource.logger.warn("The mail source leaves mail {} of {} in its folder: its {} bytes exceed "
							+ "maxMessageSize {}", mail.getMessageNumber(), folder.getFullName(), mail.getSize(),
							this.maxSize);
				}
				else {
					small.add(mail);
				}
			}
			return small.toArray(jakarta.mail.Message[]::new);
		}
	}

	/** Declares and creates the {@code mail} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, MailSource::new, MailSource::server);
		}
	}
}
