package io.xd.shell;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;

import org.springframework.shell.core.InputReader;

/**
 * The {@code xd:>} prompt: reads commands at a terminal with line editing, history kept across sessions, and tab
 * completion, until {@code quit}, {@code exit} or end of input (Ctrl-D). Ctrl-C abandons the line being typed.
 * A failing command is reported and the prompt comes back.
 */
public final class InteractiveShell {

	/** The prompt. */
	public static final String PROMPT = "xd:>";

	private final CommandRunner runner;

	private final Path historyFile;

	/**
	 * Creates the interactive shell.
	 * @param runner the commands; its session should be interactive
	 * @param historyFile where the history of commands is kept
	 */
	public InteractiveShell(CommandRunner runner, Path historyFile) {
		this.runner = runner;
		this.historyFile = historyFile;
	}

	/**
	 * Runs the prompt until the user leaves.
	 * @param terminal the terminal to read from and write to
	 * @return the exit status of the shell, always 0
	 */
	public int run(Terminal terminal) {
		// Splits the line into the words the completer sees; quotes group words as they do for the command parser.
		DefaultParser parser = new DefaultParser();
		LineReader reader = LineReaderBuilder.builder()
			.terminal(terminal)
			.appName("xd")
			.parser(parser)
			.completer(new ShellCompleter(this.runner.registry()))
			.variable(LineReader.HISTORY_FILE, this.historyFile)
			.build();
		// '!' occurs in SpEL ("payload != null"): it must not be taken for a history reference.
		reader.setOpt(LineReader.Option.DISABLE_EVENT_EXPANSION);
		reader.unsetOpt(LineReader.Option.INSERT_TAB);
		PrintWriter out = terminal.writer();
		InputReader answers = new InputReader() {
			@Override
			public String readInput(String prompt) {
				// Answers to questions are not commands: keep them out of the history.
				reader.variable(LineReader.DISABLE_HISTORY, true);
				try {
					return reader.readLine(prompt);
				}
				catch (UserInterruptException | EndOfFileException ex) {
					return null;
				}
				finally {
					reader.variable(LineReader.DISABLE_HISTORY, false);
				}
			}
		};
		greet(out);
		while (!this.runner.session().exitRequested()) {
			String line;
			try {
				line = reader.readLine(PROMPT);
			}
			catch (UserInterruptException ex) {
				continue;
			}
			catch (EndOfFileException ex) {
				break;
			}
			String command = line.strip();
			if (!command.isEmpty() && !command.startsWith("#")) {
				this.runner.execute(command, out, answers);
			}
		}
		try {
			reader.getHistory().save();
		}
		catch (IOException ex) {
			out.println("Could not save the command history to " + this.historyFile + ": " + ex.getMessage());
		}
		out.flush();
		return ScriptRunner.SUCCESS;
	}

	private void greet(PrintWriter out) {
		AdminClient admin = this.runner.session().admin();
		out.println("XD shell. Type 'help' for the commands, 'quit' to leave.");
		try {
			admin.status("/");
			out.println("Admin server: " + admin.baseUri());
		}
		catch (AdminUnreachableException ex) {
			out.println(ex.getMessage() + " Target another one with 'admin config server <uri>'.");
		}
		out.flush();
	}

}
