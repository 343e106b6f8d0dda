package io.xd.modules.builtin.sftp;

import java.util.ArrayList;
import java.util.List;

import org.apache.sshd.sftp.client.SftpClient;

import org.springframework.expression.common.LiteralExpression;
import org.springframework.integration.file.remote.session.CachingSessionFactory;
import org.springframework.integration.file.support.FileExistsMode;
import org.springframework.integration.sftp.outbound.SftpMessageHandler;
import org.springframework.integration.sftp.session.SftpRemoteFileTemplate;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.MessagingException;

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
import io.xd.modules.builtin.IntegrationBeans;

/**
 * The {@code sftp} sink: writes each payload ({@code byte[]}, or a {@code String} as UTF-8) as a file in a remote
 * directory, with Spring Integration SFTP's {@link SftpMessageHandler} (Apache MINA SSHD's client) over a pool of
 * sessions. The file is named by the message's {@code file_name} header (as the {@code file} and {@code sftp} sources
 * set it), which must be one plain name, or else {@code <message id>.msg}. It is written under a temporary name
 * ({@code .writing} added), in {@code temporaryRemoteDir} when given, and renamed when complete; {@code mode} says
 * what happens to an existing file. Each file is written before {@code handleMessage} returns; a failure (the server
 * away, a refused host key, {@code FAIL} on an existing file, a name that is not a plain name) is thrown to the bus.
 * See {@link SftpServers} for the server options and path rules.
 */
public final class SftpSink implements Sink {

	static final String FILE_NAME_HEADER = "file_name";

	static final ModuleOption<String> REMOTE_DIR = SftpServers.remoteDirectory("remoteDir")
		.withDefault(".")
		.withDescription("the remote directory to write to, relative to the login directory or absolute");

	static final ModuleOption<String> TEMPORARY_REMOTE_DIR = SftpServers.remoteDirectory("temporaryRemoteDir")
		.withDescription("a remote directory to write files in before they are moved to remoteDir");

	static final ModuleOption<String> MODE = ModuleOption.ofChoice("mode", "REPLACE", "APPEND", "FAIL", "IGNORE")
		.withDefault("REPLACE")
		.withDescription("what to do when the file exists: replace it, append to it, fail the message or skip it");

	static final ModuleOption<Boolean> AUTO_CREATE_DIRECTORY = ModuleOption.ofBoolean("autoCreateDirectory")
		.withDefault(true)
		.withDescription("create the remote directories when they do not exist");

	static final ModuleOption<Boolean> USE_TEMPORARY_FILE_NAME = ModuleOption.ofBoolean("useTemporaryFileName")
		.withDefault(true)
		.withDescription("write under a name ending in .writing, renamed when complete (not with APPEND)");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "sftp",
			"Writes each payload as a file on an SFTP server", options());

	private final CachingSessionFactory<SftpClient.DirEntry> sessions;

	private final SftpMessageHandler handler;

	private final ConnectorServer server;

	private final HostAccess access;

	SftpSink(ModuleContext context) {
		ModuleOptions options = context.options();
		ConnectorServer server = SftpServers.server(options, context.hostAccess());
		this.server = server;
		this.access = context.hostAccess();
		this.sessions = SftpServers.sessions(server, options);
		FileExistsMode mode = FileExistsMode.valueOf(options.get(MODE));
		this.handler = new SftpMessageHandler(new SftpRemoteFileTemplate(this.sessions), mode);
		this.handler.setRemoteDirectoryExpression(new LiteralExpression(options.get(REMOTE_DIR)));
		String temporary = options.get(TEMPORARY_REMOTE_DIR);
		if (temporary != null) {
			this.handler.setTemporaryRemoteDirectoryExpression(new LiteralExpression(temporary));
		}
		this.handler.setAutoCreateDirectory(options.get(AUTO_CREATE_DIRECTORY));
		this.handler.setUseTemporaryFileName(options.get(USE_TEMPORARY_FILE_NAME) && mode != FileExistsMode.APPEND);
		this.handler.setTemporaryFileSuffix(".writing");
		this.handler.setFileNameGenerator(SftpSink::fileName);
		this.handler.setCharset("UTF-8");
		this.handler.setBeanFactory(IntegrationBeans.minimal());
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(List.of(REMOTE_DIR, TEMPORARY_REMOTE_DIR, MODE,
				AUTO_CREATE_DIRECTORY, USE_TEMPORARY_FILE_NAME));
		options.addAll(SftpServers.OPTIONS);
		return options;
	}

	private static String fileName(Message<?> message) {
		Object header = message.getHeaders().get(FILE_NAME_HEADER);
		if (header == null) {
			return message.getHeaders().getId() + ".msg";
		}
		String name = header.toString();
		if (!SftpServers.isFileName(name)) {
			throw new MessageHandlingException(message, "The sftp sink writes files of one plain name: the "
					+ FILE_NAME_HEADER + " header '" + name + "' is not one (no '/', '\\', '.' or '..')");
		}
		return name;
	}

	@Override
	public void start() {
		this.handler.afterPropertiesSet();
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		if (!(payload instanceof byte[]) && !(payload instanceof String)) {
			throw new MessageHandlingException(message, "The sftp sink writes String or byte[] payloads, not "
					+ payload.getClass().getName());
		}
		fileName(message);
		try {
			this.server.checkStillAllowed(this.access);
			this.handler.handleMessage(message);
		}
		catch (MessagingException ex) {
			throw new MessageHandlingException(message, "The sftp sink could not write to " + this.server.shown()
					+ ": " + ex.getMostSpecificCause().getMessage(), ex);
		}
		catch (ModuleOptionException ex) {
			throw new MessageHandlingException(message, "The sftp sink could not write to " + this.server.shown()
					+ ": " + ex.getMessage(), ex);
		}
	}

	@Override
	public void stop() {
		this.sessions.destroy();
	}

	/** Declares and creates the {@code sftp} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, SftpSink::new, SftpServers::server);
		}
	}
}
