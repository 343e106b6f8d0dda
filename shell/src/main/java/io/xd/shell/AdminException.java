package io.xd.shell;

/**
 * The admin server refused a request: it answered with an HTTP status of 400 or more. The message is the server's
 * own explanation, line breaks kept (a stream definition error points at the faulty position with a caret on the
 * line below the definition).
 */
public class AdminException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final int status;

	/**
	 * Creates the exception.
	 * @param status the HTTP status of the answer
	 * @param message the server's explanation, for the user
	 */
	public AdminException(int status, String message) {
		super(message);
		this.status = status;
	}

	/**
	 * The HTTP status the admin server answered with.
	 * @return the status, such as 400 or 404
	 */
	public int status() {
		return this.status;
	}

}
