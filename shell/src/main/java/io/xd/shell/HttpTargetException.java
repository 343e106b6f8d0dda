package io.xd.shell;

/**
 * The target of {@code http post} or {@code http get} answered with a status outside 2xx, or could not be reached.
 * The message names the target and fits on one line; the cause, if any, is kept for debugging only.
 */
class HttpTargetException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what happened, for the user
	 * @param cause what the HTTP client reported, or {@code null}
	 */
	HttpTargetException(String message, Throwable cause) {
		super(message, cause);
	}

}
