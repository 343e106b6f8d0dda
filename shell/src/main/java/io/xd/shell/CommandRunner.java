package io.xd.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.springframework.shell.core.InputReader;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.CommandExecutionException;
import org.springframework.shell.core.command.CommandExecutor;
import org.springframework.shell.core.command.CommandNotFoundException;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.core.command.ExitStatus;
import org.springframework.shell.core.command.ParsedInput;

/**
 * Runs one command line at a time against the XD commands, in either mode of the shell.
 *
 * <p>The line is parsed by {@link ShellCommandParser} and run by Spring Shell's {@link CommandExecutor}. Every failure
 * is reported on the command's output as {@code Command failed: <message>}, the message printed as it is, line
 * breaks included, and without a stack trace: the user can act on the admin server's message or on the connection
 * error, not on a trace. Not thread-safe: one command at a time.
 */
public final class CommandRunner {

	/** What every failure report starts with. */
	public static final String FAILURE_PREFIX = "Command failed: ";

	private final ShellSession session;

	private final CommandRegistry registry;

	private final ShellCommandParser parser;

	private final CommandExecutor executor;

	/**
	 * Creates a runner with all the XD commands.
	 * @param session the state the commands share
	 */
	public CommandRunner(ShellSession session) {
		this.session = session;
		this.registry = new CommandRegistry();
		List<ShellCommand> commands = new ArrayList<>();
		commands.addAll(new StreamCommands(session).commands());
		commands.addAll(new RuntimeCommands(session).commands());
		commands.addAll(new ModuleCommands(session).commands());
		commands.addAll(new AuditCommands(session).commands());
		commands.addAll(new AnalyticsCommands(session).commands());
		commands.addAll(new AdminCommands(session).commands());
		commands.addAll(new HttpCommands(session).commands());
		commands.addAll(new BuiltInCommands(session, this.registry).commands());
		commands.forEach(this.registry::registerCommand);
		this.parser = new ShellCommandParser(this.registry);
		this.executor = new CommandExecutor(this.registry);
	}

	/**
	 * The session the commands share.
	 * @return the session
	 */
	public ShellSession session() {
		return this.session;
	}

	/**
	 * The registered commands, for help and completion.
	 * @return the registry
	 */
	public CommandRegistry registry() {
		return this.registry;
	}

	/**
	 * Runs one command line.
	 * @param line a non-blank command line
	 * @param out where the command and any failure report write; flushed before returning
	 * @param in where a command may read an answer from the user (interactive mode only)
	 * @return {@code true} when the command succeeded
	 */
	public boolean execute(String line, PrintWriter out, InputReader in) {
		try {
			ParsedInput parsed = this.parser.parse(line);
			ExitStatus status = this.executor.execute(new CommandContext(parsed, this.registry, out, in));
			return status.code() == ExitStatus.OK.code();
		}
		catch (CommandExecutionException ex) {
			out.println(FAILURE_PREFIX + describe((ex.getCause() != null) ? ex.getCause() : ex));
			return false;
		}
		catch (CommandNotFoundException ex) {
			out.println(FAILURE_PREFIX + "Unknown command '" + ex.getCommandName() + "'");
			return false;
		}
		catch (RuntimeException ex) {
			out.println(FAILURE_PREFIX + describe(ex));
			return false;
		}
		finally {
			out.flush();
		}
	}

	/**
	 * The message of an expected failure as it is; for anything else, which is a bug, the type too.
	 */
	private static String describe(Throwable failure) {
		String message = failure.getMessage();
		boolean expected = failure instanceof AdminException || failure instanceof AdminUnreachableException
				|| failure instanceof HttpTargetException || failure instanceof CommandLineException
				|| failure instanceof IllegalArgumentException
				|| failure instanceof IOException;
		if (expected && message != null && !message.isBlank()) {
			return message;
		}
		return (message == null || message.isBlank()) ? failure.getClass().getName()
				: failure.getClass().getSimpleName() + ": " + message;
	}

}
