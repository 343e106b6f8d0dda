package io.xd.admin;

/**
 * A request the admin refuses, with the HTTP status that says why and a {@code logref} naming the kind of
 * problem, as Spring XD's REST clients expect.
 */
public class AdminException extends RuntimeException {

	private final int status;

	private final String logref;

	public AdminException(int status, String logref, String message) {
		this(status, logref, message, null);
	}

	/** With the fault behind it: a 5xx's cause is logged with its stack trace, never sent to the client. */
	public AdminException(int status, String logref, String message, Throwable cause) {
		super(message, cause);
		this.status = status;
		this.logref = logref;
	}

	public int status() {
		return this.status;
	}

	public String logref() {
		return this.logref;
	}

	/** 404: no stream of that name. */
	public static AdminException noSuchStream(String name) {
		return new AdminException(404, "NoSuchDefinitionException", "There is no stream definition named '" + name + "'");
	}

	/** 409: a stream of that name exists. */
	public static AdminException streamExists(String name) {
		return new AdminException(409, "StreamAlreadyExistsException",
				"There is already a stream named '" + name + "'");
	}

	/** 400: anything wrong with what the user sent. */
	public static AdminException badRequest(String logref, String message) {
		return new AdminException(400, logref, message);
	}
}
