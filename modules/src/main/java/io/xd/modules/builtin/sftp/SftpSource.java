package io.xd.modules.builtin.sftp;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.sshd.sftp.client.SftpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.integration.file.filters.ChainFileListFilter;
import org.springframework.integration.file.filters.FileListFilter;
import org.springframework.integration.file.filters.FileSystemPersistentAcceptOnceFileListFilter;
import org.springframework.integration.file.remote.session.CachingSessionFactory;
import org.springframework.integration.metadata.SimpleMetadataStore;
import org.springframework.integration.sftp.filters.SftpPersistentAcceptOnceFileListFilter;
import org.springframework.integration.sftp.filters.SftpSimplePatternFileListFilter;
import org.springframework.integration.sftp.inbound.SftpInboundFileSynchronizer;
import org.springframework.integration.sftp.inbound.SftpInboundFileSynchronizingMessageSource;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
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
import io.xd.modules.builtin.IntegrationBeans;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code sftp} source: every {@code fixedDelay} seconds, copies the new files of a remote directory whose names
 * match {@code pattern} to {@code localDir} (under the operator's file roots), with Spring Integration SFTP's
 * {@link SftpInboundFileSynchronizer} (Apache MINA SSHD's client), and sends each as its contents ({@code byte[]})
 * or its local path ({@code ref}, a {@code String}: no {@code File} goes on a bus), with the header
 * {@code file_name}. A remote file is copied once (again when its size or time changes), and deleted from the server
 * once copied when {@code deleteRemoteFiles} is set; local copies are kept. Remote files larger than
 * {@code maxFileSize} are left on the server and logged at each poll. A poll that fails (the server away, a refused
 * host key) is logged, and the next poll tries again. See {@link SftpServers} for the server options and path rules.
 */
public final class SftpSource implements Source {

	/** The most files one poll sends. */
	static final int MAX_FILES_PER_POLL = 100;

	static final ModuleOption<String> REMOTE_DIR = SftpServers.remoteDirectory("remoteDir")
		.withDefault(".")
		.withDescription("the remote directory to poll, relative to the login directory or absolute");

	static final ModuleOption<String> LOCAL_DIR = ModuleOption.ofString("localDir")
		.withDescription("the directory remote files are copied to, under the operator's file roots (a relative "
				+ "path resolves under the first root); defaults to sftp/<stream name>");

	static final ModuleOption<Boolean> AUTO_CREATE_LOCAL_DIR = ModuleOption.ofBoolean("autoCreateLocalDir")
		.withDefault(true)
		.withDescription("create localDir when it does not exist");

	static final ModuleOption<String> PATTERN = ModuleOption.ofString("pattern")
		.withDefault("*")
		.withRule(pattern -> SftpServers.isFileName(pattern.replace('*', 'x').replace('?', 'x')),
				"be a simple pattern of file names (* and ?), without a directory")
		.withDescription("the names of the remote files to copy, a simple pattern with * and ?, such as *.csv");

	static final ModuleOption<Boolean> DELETE_REMOTE_FILES = ModuleOption.ofBoolean("deleteRemoteFiles")
		.withDefault(false)
		.withDescription("delete each remote file once it is copied");

	static final ModuleOption<String> MODE = ModuleOption.ofChoice("mode", "contents", "ref")
		.withDefault("contents")
		.withDescription("send each file's bytes, or the absolute path of its local copy as text");

	static final ModuleOption<Integer> FIXED_DELAY = ModuleOption.ofInt("fixedDelay")
		.withDefault(1)
		.withMin(1)
		.withDescription("the seconds between two polls of the remote directory");

	static final ModuleOption<Long> MAX_FILE_SIZE = ModuleOption.ofLong("maxFileSize")
		.withDefault(16L * 1024 * 1024)
		.withMin(1)
		.withMax(1024L * 1024 * 1024)
		.withDescription("the largest remote file copied, in bytes; larger ones are left on the server and logged");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "sftp",
			"Sends the files that appear in a directory of an SFTP server, as contents or local paths", options());

	private static final Logger logger = LoggerFactory.getLogger(SftpSource.class);

	private final ModuleContext context;

	private final Path localDirectory;

	private final CachingSessionFactory<SftpClient.DirEntry> sessions;

	private final SftpInboundFileSynchronizer synchronizer;

	private final SftpInboundFileSynchronizingMessageSource source;

	private final boolean ref;

	private final int delaySeconds;

	private final ConnectorServer server;

	private ScheduledExecutorService scheduler;

	/** Set by stop: a poll interrupted then is not a failure to log (libraries clear the interrupt flag). */
	private volatile boolean stopping;

	SftpSource(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		ConnectorServer server = SftpServers.server(options, context.hostAccess());
		this.localDirectory = context.hostAccess().path(LOCAL_DIR.name(), localDir(options, context.streamName()));
		this.server = server;
		this.sessions = SftpServers.sessions(server, options);
		this.synchronizer = new SftpInboundFileSynchronizer(this.sessions);
		this.synchronizer.setRemoteDirectory(options.get(REMOTE_DIR));
		this.synchronizer.setDeleteRemoteFiles(options.get(DELETE_REMOTE_FILES));
		this.synchronizer.setPreserveTimestamp(true);
		ChainFileListFilter<SftpClient.DirEntry> filter = new ChainFileListFilter<>();
		filter.addFilter(new SftpSimplePatternFileListFilter(options.get(PATTERN)));
		filter.addFilter(new SizeLimit(options.get(MAX_FILE_SIZE)));
		filter.addFilter(new SftpPersistentAcceptOnceFileListFilter(new SimpleMetadataStore(), "sftp:"));
		this.synchronizer.setFilter(filter);
		this.synchronizer.setBeanFactory(IntegrationBeans.minimal());
		this.source = new SftpInboundFileSynchronizingMessageSource(this.synchronizer);
		this.source.setLocalDirectory(this.localDirectory.toFile());
		this.source.setAutoCreateLocalDirectory(options.get(AUTO_CREATE_LOCAL_DIR));
		this.source.setMaxFetchSize(MAX_FILES_PER_POLL);
		// a local copy is sent once, and again when a changed remote file replaces it
		this.source.setLocalFilter(new FileSystemPersistentAcceptOnceFileListFilter(new SimpleMetadataStore(),
				"local:"));
		this.source.setBeanFactory(IntegrationBeans.minimal());
		this.ref = options.get(MODE).equals("ref");
		this.delaySeconds = options.get(FIXED_DELAY);
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(List.of(REMOTE_DIR, LOCAL_DIR, AUTO_CREATE_LOCAL_DIR,
				PATTERN, DELETE_REMOTE_FILES, MODE, FIXED_DELAY, MAX_FILE_SIZE));
		options.addAll(SftpServers.OPTIONS);
		return options;
	}

	private static String localDir(ModuleOptions options, String streamName) {
		String dir = options.get(LOCAL_DIR);
		if (dir != null) {
			return dir;
		}
		if (!SftpServers.isFileName(streamName)) {
			throw new IllegalArgumentException("The stream name '" + streamName + "' is not a directory name: give "
					+ "--localDir");
		}
		return "sftp/" + streamName;
	}

	/** The directory remote files are copied to. */
	public Path localDirectory() {
		return this.localDirectory;
	}

	@Override
	public void start(MessageChannel output) {
		try {
			if (this.context.options().get(AUTO_CREATE_LOCAL_DIR)) {
				Files.createDirectories(this.localDirectory);
			}
			// links may have appeared since the stream was created: the folder must still be under a file root
			this.context.hostAccess().checkRealPath(this.localDirectory);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The sftp source may not use " + this.localDirectory + ": "
					+ ex.getMessage(), ex);
		}
		this.synchronizer.afterPropertiesSet();
		this.source.afterPropertiesSet();
		this.source.start();
		this.scheduler = ModuleSupport.scheduler(this.context, "sftp-poller");
		this.scheduler.scheduleWithFixedDelay(() -> poll(output), 0, this.delaySeconds, TimeUnit.SECONDS);
	}

	private void poll(MessageChannel output) {
		for (int sent = 0; sent < MAX_FILES_PER_POLL && !Thread.currentThread().isInterrupted(); sent++) {
			Message<File> copied;
			try {
				this.server.checkStillAllowed(this.context.hostAccess());
				copied = this.source.receive();
			}
			catch (RuntimeException ex) {
				if (this.stopping) {
					return;
				}
				logger.error("Stream '{}': the sftp source could not poll {}: {}", this.context.streamName(),
						this.server.shown(), ex.getMessage(), ex);
				return;
			}
			if (copied == null) {
				return;
			}
			File file = copied.getPayload();
			try {
				Object payload = this.ref ? file.getAbsolutePath() : Files.readAllBytes(file.toPath());
				output.send(MessageBuilder.withPayload(payload).setHeader("file_name", file.getName()).build());
			}
			catch (IOException | RuntimeException ex) {
				logger.error("Stream '{}': the sftp source could not send its copy {}", this.context.streamName(),
						file, ex);
			}
		}
	}

	@Override
	public void stop() {
		this.stopping = true;
		ModuleSupport.shutdown(this.scheduler);
		this.source.stop();
		this.sessions.destroy();
	}

	/** Passes remote files of at most a size, logging the others. */
	private static final class SizeLimit implements FileListFilter<SftpClient.DirEntry> {

		private final long maxSize;

		SizeLimit(long maxSize) {
			this.maxSize = maxSize;
		}

		@Override
		public List<SftpClient.DirEntry> filterFiles(SftpClient.DirEntry[] files) {
			List<SftpClient.DirEntry> passed = new ArrayList<>(files.length);
			for (SftpClient.DirEntry file : files) {
				if (accept(file)) {
					passed.add(file);
				}
			}
			return passed;
		}

		@Override
		public boolean accept(SftpClient.DirEntry file) {
			long size = file.getAttributes().getSize();
			if (size > this.maxSize) {
				logger.warn("The sftp source leaves {} on the server: its {} bytes exceed maxFileSize {}",
						file.getFilename(), size, this.maxSize);
				return false;
			}
			return true;
		}

		@Override
		public boolean supportsSingleFileFiltering() {
			return true;
		}
	}

	/** Declares and creates the {@code sftp} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, SftpSource::new);
		}

		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			SftpServers.server(options, access);
			String dir = options.get(LOCAL_DIR);
			if (dir != null) {
				access.path(LOCAL_DIR.name(), dir);
			}
		}
	}
}
