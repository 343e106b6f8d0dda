package io.xd.shell;

import java.net.URI;
import java.net.http.HttpTimeoutException;

/**
 * No answer could be had from the admin server: the connection was refused or timed out, or the host is unknown.
 * The message names the server and fits on one line; the cause is kept for debugging only.
 */
public class AdminUnreachableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final URI uri;

	/**
	 * Creates the exception.
	 * @param uri the admin server that could not be reached
	 * @param cause what the HTTP client reported
	 */
	public AdminUnreachableException(URI uri, Exception cause) {
		super(describe(uri, cause), cause);
		this.uri = uri;
	}

	/**
	 * The admin server that could not be reached.
	 * @return its URI
	 */
	public URI uri() {
		return this.uri;
	}

	private static String describe(URI uri, Exception cause) {
		if (cause instanceof HttpTimeoutException) {
			return "Timed out waiting for XD Admin Server at '" + uri + "'.";
		}
		return "Unable to contact XD Admin Server at '" + uri + "'.";
	}

}
