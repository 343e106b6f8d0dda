package io.xd.shell;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The entry point of the XD shell: {@code java -jar xd-shell.jar [--uri <admin>] [--cmdfile <file>]}.
 *
 * <p>With {@code --cmdfile} the commands of the file are run; when standard input is not a terminal the commands
 * are read from it; otherwise the interactive {@code xd:>} prompt starts. The process exits with 0 when every
 * command succeeded, 1 when a command of a script failed, and 2 when the shell's own arguments are wrong.
 */
public final class XdShell {

	/** The exit status for wrong arguments to the shell itself. */
	public static final int USAGE_ERROR = 2;

	private static final String USAGE = """
			Usage: xd-shell [--uri <admin server>] [--username <name> [--password <password>]] [--cmdfile <file>]
			  --uri       the admin server to talk to (default: %s)
			  --username  the user to authenticate as; the password is asked for when --password is not given.
			              Without it, a server on this machine is reached as the administrator it created, read
			              from $XD_DATA_DIR/credentials.properties (default ~/.xd/data)
			  --password  the user's password
			  --cmdfile   run the commands of this file, one per line, then exit
			Without --cmdfile, commands are read from standard input when it is not a terminal.""";

	private XdShell() {
	}

	/**
	 * Runs the shell and exits the JVM with its exit status.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		System.exit(run(args, System.in, System.out, standardInputIsTerminal()));
	}

	/**
	 * Runs the shell.
	 * @param args the command line arguments
	 * @param stdin the commands to run when there is no {@code --cmdfile} and no terminal
	 * @param stdout where the transcript and messages go
	 * @param terminal whether a person is at a terminal; {@code true} starts the interactive prompt when there is no
	 * {@code --cmdfile}
	 * @return the exit status
	 */
	public static int run(String[] args, InputStream stdin, PrintStream stdout, boolean terminal) {
		PrintWriter out = new PrintWriter(stdout, false);
		try {
			Arguments arguments;
			try {
				arguments = Arguments.parse(args);
			}
			catch (IllegalArgumentException ex) {
				out.println(ex.getMessage());
				out.println(usage());
				return USAGE_ERROR;
			}
			if (arguments.help()) {
				out.println(usage());
				return ScriptRunner.SUCCESS;
			}
			boolean interactive = arguments.cmdfile() == null && terminal;
			Credentials credentials;
			if (arguments.username() != null) {
				String password = arguments.password();
				if (password == null) {
					Console console = System.console();
					char[] typed = (console != null) ? console.readPassword("Password for %s: ", arguments.username())
							: null;
					if (typed == null) {
						out.println("Give --password with --username: there is no terminal to ask for it");
						return USAGE_ERROR;
					}
					password = new String(typed);
				}
				credentials = new Credentials(arguments.username(), password);
			}
			else {
				credentials = Credentials.local(arguments.uri(), System.getenv()).orElse(null);
			}
			CommandRunner runner = new CommandRunner(
					new ShellSession(arguments.uri(), credentials, interactive, AdminClient.newHttpClient()));
			if (arguments.cmdfile() != null) {
				return runFile(runner, arguments.cmdfile(), out);
			}
			if (!interactive) {
				return runScript(runner, new InputStreamReader(stdin, Charset.defaultCharset()), out);
			}
			return runInteractive(runner);
		}
		finally {
			out.flush();
		}
	}

	private static int runFile(CommandRunner runner, Path file, PrintWriter out) {
		if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
			out.println("Cannot read the command file '" + file + "'");
			return ScriptRunner.FAILURE;
		}
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			return runScript(runner, reader, out);
		}
		catch (IOException ex) {
			out.println("Cannot read the command file '" + file + "': " + ex.getMessage());
			return ScriptRunner.FAILURE;
		}
	}

	private static int runScript(CommandRunner runner, Reader script, PrintWriter out) {
		try {
			return new ScriptRunner(runner).run(new BufferedReader(script), out);
		}
		catch (IOException ex) {
			out.println("Cannot read the commands: " + ex.getMessage());
			return ScriptRunner.FAILURE;
		}
	}

	private static int runInteractive(CommandRunner runner) {
		Path history = Path.of(System.getProperty("user.home"), ".xd_shell_history");
		try (Terminal terminal = TerminalBuilder.builder().system(true).name("xd").build()) {
			return new InteractiveShell(runner, history).run(terminal);
		}
		catch (IOException ex) {
			System.err.println("Cannot open the terminal: " + ex.getMessage());
			return ScriptRunner.FAILURE;
		}
	}

	private static String usage() {
		return USAGE.formatted(ShellSession.DEFAULT_ADMIN_URI);
	}

	/**
	 * Whether standard input (and output) is a terminal. Before Java 22 a console exists only then; from Java 22 on
	 * a console may exist without a terminal, and {@code Console.isTerminal()} tells.
	 */
	private static boolean standardInputIsTerminal() {
		Console console = System.console();
		if (console == null) {
			return false;
		}
		try {
			Method isTerminal = Console.class.getMethod("isTerminal");
			return (Boolean) isTerminal.invoke(console);
		}
		catch (NoSuchMethodException ex) {
			return true;
		}
		catch (ReflectiveOperationException ex) {
			return false;
		}
	}

	/**
	 * The shell's own command line arguments.
	 *
	 * @param uri the admin server
	 * @param username the user to authenticate as, or {@code null}
	 * @param password the user's password, or {@code null}
	 * @param cmdfile the script to run, or {@code null}
	 * @param help whether the usage was asked for
	 */
	record Arguments(URI uri, String username, String password, Path cmdfile, boolean help) {

		@Override
		public String toString() {
			return "Arguments[uri=" + this.uri + ", username=" + this.username + ", cmdfile=" + this.cmdfile + "]";
		}

		static Arguments parse(String[] args) {
			URI uri = ShellSession.DEFAULT_ADMIN_URI;
			String username = null;
			String password = null;
			Path cmdfile = null;
			boolean help = false;
			for (int i = 0; i < args.length; i++) {
				String arg = args[i];
				String value = null;
				int equals = arg.indexOf('=');
				if (arg.startsWith("--") && equals > 0) {
					value = arg.substring(equals + 1);
					arg = arg.substring(0, equals);
				}
				switch (arg) {
					case "--help", "-h" -> help = true;
					case "--uri", "--cmdfile", "--username", "--password" -> {
						if (value == null) {
							if (i + 1 >= args.length) {
								throw new IllegalArgumentException("Missing value for " + arg);
							}
							value = args[++i];
						}
						switch (arg) {
							case "--uri" -> uri = ShellSession.parseAdminUri(value);
							case "--username" -> username = value;
							case "--password" -> password = value;
							default -> cmdfile = Path.of(value);
						}
					}
					default -> throw new IllegalArgumentException("Unknown argument: " + args[i]);
				}
			}
			if (password != null && username == null) {
				throw new IllegalArgumentException("--password needs --username");
			}
			return new Arguments(uri, username, password, cmdfile, help);
		}

	}

}
