package io.xd.server.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The administrator a server creates for itself when no users are configured: user {@value #USERNAME} with a random
 * password, kept in {@code <xd.data.dir>/}{@value #FILE_NAME} (a Java properties file with {@code username} and
 * {@code password}) that only the server's user can read. A server restarted on the same data directory, or a second
 * process sharing it, reads the same file; the shell and the bin/ scripts read it to talk to a local server.
 *
 * @param username the user name
 * @param password the password, in clear: the file is the secret
 * @param file where it is kept
 */
public record LocalAdministrator(String username, String password, Path file) {

	/** The administrator's user name. */
	public static final String USERNAME = "admin";

	/** The file name under the data directory. */
	public static final String FILE_NAME = "credentials.properties";

	/** Reads the administrator of this data directory, creating it first when there is none. */
	public static LocalAdministrator obtain(Path dataDirectory) {
		Path file = dataDirectory.resolve(FILE_NAME);
		try {
			CredentialsFile credentials = CredentialsFile.obtain(file, USERNAME,
					"The XD administrator of this data directory; readable by its owner only");
			return new LocalAdministrator(credentials.username(), credentials.password(), file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot keep the local administrator's credentials in " + file, ex);
		}
	}

	@Override
	public String toString() {
		return "LocalAdministrator[username=" + this.username + ", password=[hidden], file=" + this.file + "]";
	}
}
