package io.xd.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;

import org.springframework.shell.core.InputReader;

/**
 * Runs commands read from a file or from standard input, one per line, without a person to answer questions.
 *
 * <p>Blank lines and lines starting with {@code #} are skipped. Each command is echoed as {@code xd:> <command>}
 * before its output, so that the transcript reads like an interactive session. The first command that fails stops
 * the script; {@code quit} or {@code exit} ends it successfully.
 */
public final class ScriptRunner {

	/** What each command is echoed after. */
	public static final String ECHO_PREFIX = "xd:> ";

	/** The exit status of a script whose commands all succeeded. */
	public static final int SUCCESS = 0;

	/** The exit status of a script stopped by a failing command. */
	public static final int FAILURE = 1;

	// Commands only read from the user in interactive mode; reaching this would be a bug, reported as a failure.
	private static final InputReader NO_INPUT = new InputReader() {
	};

	private final CommandRunner runner;

	/**
	 * Creates a script runner.
	 * @param runner the commands to run the lines with; its session should not be interactive
	 */
	public ScriptRunner(CommandRunner runner) {
		this.runner = runner;
	}

	/**
	 * Runs the commands of a script until the end, a failure, or {@code quit}.
	 * @param script the lines to run; not closed
	 * @param out the transcript: each command echoed, then its output
	 * @return {@link #SUCCESS} or {@link #FAILURE}
	 * @throws IOException when the script cannot be read
	 */
	public int run(BufferedReader script, PrintWriter out) throws IOException {
		String line;
		while ((line = script.readLine()) != null) {
			String command = line.strip();
			if (command.isEmpty() || command.startsWith("#")) {
				continue;
			}
			out.println(ECHO_PREFIX + command);
			out.flush();
			if (!this.runner.execute(command, out, NO_INPUT)) {
				return FAILURE;
			}
			if (this.runner.session().exitRequested()) {
				break;
			}
		}
		return SUCCESS;
	}

}
