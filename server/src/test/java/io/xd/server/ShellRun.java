package io.xd.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import io.xd.shell.XdShell;

/**
 * One run of the XD shell in this JVM, non-interactive, as a script or a CI job runs it: its exit status and
 * everything it printed.
 *
 * @param exitStatus what the shell process would exit with
 * @param output standard output and error, as printed
 */
record ShellRun(int exitStatus, String output) {

	/** Runs {@code commands} (one per line) on the shell's standard input against the admin at {@code uri}. */
	static ShellRun withInput(String uri, String commands) {
		return run(new String[] { "--uri", uri }, new ByteArrayInputStream(commands.getBytes(StandardCharsets.UTF_8)));
	}

	/** Runs the shell with these arguments after {@code --uri uri}, and nothing on standard input. */
	static ShellRun withArgs(String uri, String... args) {
		String[] all = new String[args.length + 2];
		all[0] = "--uri";
		all[1] = uri;
		System.arraycopy(args, 0, all, 2, args.length);
		return run(all, new ByteArrayInputStream(new byte[0]));
	}

	private static ShellRun run(String[] args, InputStream stdin) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		int status;
		try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
			status = XdShell.run(args, stdin, out, false);
		}
		return new ShellRun(status, bytes.toString(StandardCharsets.UTF_8));
	}
}
