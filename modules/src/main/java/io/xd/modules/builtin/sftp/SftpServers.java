package io.xd.modules.builtin.sftp;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.sshd.sftp.client.SftpClient;

import org.springframework.core.io.FileSystemResource;
import org.springframework.integration.file.remote.session.CachingSessionFactory;
import org.springframework.integration.sftp.session.DefaultSftpSessionFactory;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.DefaultPort;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;

/**
 * What the {@code sftp} source and sink share: their server options, the SFTP session factory of a server, and the
 * rule for remote paths.
 * <p>
 * <b>Server and credentials.</b> {@code --connection=<name>} (default {@code sftp}) names a server the operator
 * declared: {@code xd.connections.<name>.host}, {@code .port}, {@code .username}, {@code .password}, and properties
 * {@code known-hosts} (the path of an OpenSSH known_hosts file holding the server's key), {@code private-key} (the path
 * of a private key file; the connection's password is then its passphrase) and {@code allow-unknown-keys}
 * ({@code true} accepts any host key: for tests only). Or {@code --host}/{@code --port}/{@code --user}: a host of the
 * operator's {@code xd.modules.connect.allowed-hosts}, reached without a password or key. A definition never carries a
 * password, a key or a passphrase, and never accepts unknown host keys: without a known-hosts file that holds the
 * server's key, or the operator's {@code allow-unknown-keys}, the connection is refused.
 * <p>
 * <b>Remote paths.</b> A remote directory is a path of at most {@value #MAX_PATH_LENGTH} characters, relative to the
 * login directory or absolute, with no {@code ..} segment, no backslash, line break or NUL; a remote file name is
 * one plain name (no {@code /}, not {@code .} or {@code ..}). What the account may reach beyond that is the server's
 * business (a chroot, the account's permissions): the operator declares the account.
 */
final class SftpServers {

	static final int MAX_PATH_LENGTH = 1024;

	static final int TIMEOUT_MILLIS = 30_000;

	static final String KNOWN_HOSTS_PROPERTY = "known-hosts";

	static final String PRIVATE_KEY_PROPERTY = "private-key";

	static final String ALLOW_UNKNOWN_KEYS_PROPERTY = "allow-unknown-keys";

	static final ModuleOption<String> CONNECTION = ConnectorServer.connectionOption("sftp",
			"host, port, username, password, properties.known-hosts, properties.private-key", "host");

	static final ModuleOption<String> HOST = ConnectorServer.hostOption("host", "a password or key");

	static final ModuleOption<Integer> PORT = ConnectorServer.portOption("host", "22");

	static final ModuleOption<String> USER = ModuleOption.ofString("user")
		.withRule(user -> !user.isEmpty() && user.length() <= 256 && user.chars().noneMatch(Character::isISOControl),
				"be a user name without control characters")
		.withDescription("the user with host; a connection names its own");

	static final ModuleOption<String> PASSWORD = ConnectorServer.passwordOption();

	static final ModuleOption<String> PRIVATE_KEY = ModuleOption.ofString("privateKey")
		.withSecret()
		.withDescription("not accepted: the connection names the key file (xd.connections.<name>.properties."
				+ "private-key)");

	static final ModuleOption<String> PASS_PHRASE = ModuleOption.ofString("passPhrase")
		.withSecret()
		.withDescription("not accepted: the key's passphrase is the connection's password");

	static final ModuleOption<Boolean> ALLOW_UNKNOWN_KEYS = ModuleOption.ofBoolean("allowUnknownKeys")
		.withDefault(false)
		.withDescription("true is refused: only the operator accepts unknown host keys "
				+ "(xd.connections.<name>.properties.allow-unknown-keys)");

	/** The server options, in the order {@code module info} shows them. */
	static final List<ModuleOption<?>> OPTIONS = List.of(CONNECTION, HOST, PORT, USER, PASSWORD, PRIVATE_KEY,
			PASS_PHRASE, ALLOW_UNKNOWN_KEYS);

	/** A declared connection, or an allowed host with its own user, reached without a password or key. */
	static final ServerOptions SERVER = ConnectorServer.singleHost("sftp", CONNECTION, HOST, PORT, DefaultPort.of(22))
		.refusing("xd.connections.<name>.username, .password, .properties.private-key", PASSWORD, PRIVATE_KEY,
				PASS_PHRASE)
		.withLiteralOnly(USER);

	private SftpServers() {
	}

	/**
	 * Checks and resolves the server of a definition.
	 * @throws ModuleOptionException for credentials in the definition, unknown host keys asked for, an unknown
	 * connection, a host the operator does not allow, or a user given with a connection
	 */
	static ConnectorServer server(ModuleOptions options, HostAccess access) {
		if (options.get(ALLOW_UNKNOWN_KEYS)) {
			throw new ModuleOptionException("sftp", List.of("option 'allowUnknownKeys' is refused: a definition "
					+ "cannot accept unknown host keys; the operator declares the server's key in a known-hosts file "
					+ "(xd.connections.<name>.properties.known-hosts)"));
		}
		return SERVER.resolve(options, access);
	}

	/** A pool of SFTP sessions to the server, checking its host key as the connection says. */
	static CachingSessionFactory<SftpClient.DirEntry> sessions(ConnectorServer server, ModuleOptions options) {
		Map<String, String> properties = server.properties();
		DefaultSftpSessionFactory factory = new DefaultSftpSessionFactory(false);
		factory.setHost(server.host());
		factory.setPort(server.port());
		factory.setUser((server.username() != null) ? server.username() : options.get(USER));
		factory.setTimeout(TIMEOUT_MILLIS);
		String privateKey = properties.get(PRIVATE_KEY_PROPERTY);
		if (privateKey != null) {
			factory.setPrivateKey(new FileSystemResource(Path.of(privateKey)));
			if (server.password() != null) {
				factory.setPrivateKeyPassphrase(server.password());
			}
		}
		else if (server.password() != null) {
			factory.setPassword(server.password());
		}
		String knownHosts = properties.get(KNOWN_HOSTS_PROPERTY);
		if (knownHosts != null) {
			factory.setKnownHostsResource(new FileSystemResource(Path.of(knownHosts)));
		}
		factory.setAllowUnknownKeys(Boolean.parseBoolean(properties.get(ALLOW_UNKNOWN_KEYS_PROPERTY)));
		CachingSessionFactory<SftpClient.DirEntry> sessions = new CachingSessionFactory<>(factory, 4);
		sessions.setSessionWaitTimeout(TIMEOUT_MILLIS);
		return sessions;
	}

	/** Whether {@code path} is a remote directory a definition may name (see the class comment). */
	static boolean isRemoteDirectory(String path) {
		if (path.isEmpty() || path.length() > MAX_PATH_LENGTH || path.indexOf('\\') >= 0
				|| path.chars().anyMatch(Character::isISOControl)) {
			return false;
		}
		for (String segment : path.split("/")) {
			if (segment.equals("..")) {
				return false;
			}
		}
		return true;
	}

	/** Whether {@code name} is one plain remote file name. */
	static boolean isFileName(String name) {
		return !name.isEmpty() && name.length() <= 255 && !name.equals(".") && !name.equals("..")
				&& name.indexOf('/') < 0 && name.indexOf('\\') < 0 && name.chars().noneMatch(Character::isISOControl);
	}

	/** A remote directory option: the rule of {@link #isRemoteDirectory}. */
	static ModuleOption<String> remoteDirectory(String name) {
		return ModuleOption.ofString(name)
			.withRule(SftpServers::isRemoteDirectory, "be a remote path without '..' segments, backslashes or "
					+ "control characters, at most " + MAX_PATH_LENGTH + " characters");
	}
}
