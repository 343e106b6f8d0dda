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

	/** Runs {@code commands} (one per line) on the shell's standard input against the admin, as its client is. */
	static ShellRun withInput(AdminApi admin, String commands) {
		return run(admin.shellArguments(), new ByteArrayInputStream(commands.getBytes(StandardCharsets.UTF_8)));
	}

	/** Runs the shell against the admin, as its client is, with these arguments, and nothing on standard input. */
	static ShellRun withArgs(AdminApi admin, String... args) {
		String[] target = admin.shellArguments();
		String[] all = new String[target.length + args.length];
		System.arraycopy(target, 0, all, 0, target.length);
		System.arraycopy(args, 0, all, target.length, args.length);
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
