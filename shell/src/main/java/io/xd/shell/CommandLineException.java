package io.xd.shell;

/**
 * A command line that cannot be understood: unbalanced quotes, an unknown command or option, a missing value or a
 * missing required option. Its message is meant for the user, as it is.
 */
public class CommandLineException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what is wrong with the command line, for the user
	 */
	public CommandLineException(String message) {
		super(message);
	}

}
