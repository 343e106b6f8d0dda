package io.xd.shell;

import java.net.URI;
import java.util.List;

import io.xd.shell.ShellCommand.Invocation;

import org.springframework.shell.core.command.ExitStatus;

/**
 * The {@code admin config ...} commands: which admin server the shell talks to.
 */
final class AdminCommands {

	private static final String GROUP = "Admin Commands";

	private final ShellSession session;

	AdminCommands(ShellSession session) {
		this.session = session;
	}

	List<ShellCommand> commands() {
		return List.of(
				ShellCommand.named("admin config server")
					.group(GROUP)
					.description("Target an admin server")
					.positional("uri", "the admin server, such as http://localhost:9393")
					.optional("username", "the user to authenticate as")
					.optional("password", "the user's password; asked for, without echo, when not given")
					.action(this::server),
				ShellCommand.named("admin config info")
					.group(GROUP)
					.description("Show the admin server the shell targets")
					.action(this::info));
	}

	/**
	 * Targets the server even when it cannot be reached, so that it may be started afterwards; the command still
	 * fails then, which stops a script that would otherwise run every later command against nothing.
	 */
	private ExitStatus server(Invocation invocation) throws Exception {
		URI uri = ShellSession.parseAdminUri(invocation.option("uri"));
		String username = invocation.option("username");
		String password = invocation.option("password");
		Credentials credentials;
		if (username != null) {
			if (password == null) {
				char[] typed = this.session.interactive() ? invocation.readPassword("Password for " + username + ": ")
						: null;
				if (typed == null) {
					throw new IllegalArgumentException("Give --password with --username in a script: there is no one "
							+ "to ask");
				}
				password = new String(typed);
			}
			credentials = new Credentials(username, password);
		}
		else if (password != null) {
			throw new IllegalArgumentException("--password needs --username");
		}
		else {
			credentials = this.session.localCredentials(uri).orElse(null);
		}
		this.session.target(uri, credentials);
		int status;
		try {
			status = this.session.admin().status("/");
		}
		catch (AdminUnreachableException ex) {
			invocation.out().println(ex.getMessage());
			return ExitStatus.EXECUTION_ERROR;
		}
		// The admin server need not serve anything at its root: a 404 from it shows it is there as well as a success.
		if ((status >= 200 && status < 300) || status == 404) {
			invocation.out().println("Successfully targeted " + uri + ((credentials != null)
					? " as user '" + credentials.username() + "'" : ""));
			return ExitStatus.OK;
		}
		if (status == 401) {
			invocation.out().println("XD Admin Server at '" + uri + "' " + ((credentials == null)
					? "asks for credentials: give --username (and --password)"
					: "refused the credentials of user '" + credentials.username() + "'") + ".");
			return ExitStatus.EXECUTION_ERROR;
		}
		invocation.out().println("XD Admin Server at '" + uri + "' answered with HTTP status " + status + ".");
		return ExitStatus.EXECUTION_ERROR;
	}

	private ExitStatus info(Invocation invocation) {
		String username = this.session.admin().username();
		invocation.out().println("Admin server: " + this.session.admin().baseUri()
				+ ((username != null) ? " (user '" + username + "')" : ""));
		return ExitStatus.OK;
	}

}
