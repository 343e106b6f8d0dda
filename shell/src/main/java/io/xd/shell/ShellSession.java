package io.xd.shell;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.Optional;
import java.util.function.Function;

/**
 * The state one shell keeps between commands: the admin server it targets, whether a person is at the keyboard,
 * and whether the user asked to leave.
 *
 * <p>Commands run one at a time on the shell's thread; this class is not thread-safe.
 */
public final class ShellSession {

	/** The admin server targeted when none is given. */
	public static final URI DEFAULT_ADMIN_URI = URI.create("http://localhost:9393");

	private final HttpClient http;

	private final boolean interactive;

	private final Function<URI, Optional<Credentials>> localCredentials;

	private AdminClient admin;

	private boolean exitRequested;

	/**
	 * Creates a session.
	 * @param adminUri the admin server to target first
	 * @param interactive {@code true} when commands are typed at a terminal, {@code false} for a script or piped
	 * input, where nothing may wait for an answer from the user
	 * @param http the HTTP client to talk to admin servers with
	 */
	public ShellSession(URI adminUri, boolean interactive, HttpClient http) {
		this(adminUri, null, interactive, http, uri -> Optional.empty());
	}

	/**
	 * Creates a session.
	 * @param adminUri the admin server to target first
	 * @param credentials what to authenticate with, or {@code null}
	 * @param interactive {@code true} when commands are typed at a terminal
	 * @param http the HTTP client to talk to admin servers with
	 */
	public ShellSession(URI adminUri, Credentials credentials, boolean interactive, HttpClient http) {
		this(adminUri, credentials, interactive, http, uri -> Credentials.local(uri, System.getenv()));
	}

	private ShellSession(URI adminUri, Credentials credentials, boolean interactive, HttpClient http,
			Function<URI, Optional<Credentials>> localCredentials) {
		this.http = http;
		this.interactive = interactive;
		this.localCredentials = localCredentials;
		this.admin = new AdminClient(http, adminUri, credentials);
	}

	/**
	 * The credentials of the administrator a server on this machine created for itself, when the shell may use them
	 * (see {@link Credentials}).
	 * @param adminUri the server
	 * @return the credentials, if any
	 */
	public Optional<Credentials> localCredentials(URI adminUri) {
		return this.localCredentials.apply(adminUri);
	}

	/**
	 * The client of the targeted admin server.
	 * @return the client
	 */
	public AdminClient admin() {
		return this.admin;
	}

	/**
	 * Targets another admin server.
	 * @param adminUri its URI
	 */
	public void target(URI adminUri) {
		target(adminUri, null);
	}

	/**
	 * Targets another admin server, authenticating with these credentials.
	 * @param adminUri its URI
	 * @param credentials what to authenticate with, or {@code null}
	 */
	public void target(URI adminUri, Credentials credentials) {
		this.admin = new AdminClient(this.http, adminUri, credentials);
	}

	/**
	 * Whether a person is typing the commands.
	 * @return {@code true} in interactive mode
	 */
	public boolean interactive() {
		return this.interactive;
	}

	/**
	 * Asks the shell to stop after the current command.
	 */
	public void requestExit() {
		this.exitRequested = true;
	}

	/**
	 * Whether {@code quit} or {@code exit} was run.
	 * @return {@code true} when the shell should stop
	 */
	public boolean exitRequested() {
		return this.exitRequested;
	}

	/**
	 * Checks and normalizes an admin server URI typed by the user.
	 * @param text such as {@code http://localhost:9393/}
	 * @return the URI without trailing slashes
	 * @throws IllegalArgumentException when it is not an absolute http or https URI with a host
	 */
	public static URI parseAdminUri(String text) {
		String trimmed = text.strip();
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return parseHttpUri(trimmed, text);
	}

	/**
	 * Checks an http or https URI typed by the user, such as the target of {@code http post}.
	 * @param text such as {@code http://localhost:9000/}
	 * @return the URI, as typed
	 * @throws IllegalArgumentException when it is not an absolute http or https URI with a host
	 */
	static URI parseHttpUri(String text) {
		return parseHttpUri(text.strip(), text);
	}

	private static URI parseHttpUri(String trimmed, String text) {
		URI uri;
		try {
			uri = URI.create(trimmed);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Not a valid URI: '" + text + "'");
		}
		if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
				|| uri.getHost() == null) {
			throw new IllegalArgumentException("Not an http or https URI with a host: '" + text + "'");
		}
		return uri;
	}

}
