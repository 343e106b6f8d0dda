package io.xd.server.security;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Properties;
import java.util.Set;

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

	private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

	/** Reads the administrator of this data directory, creating it first when there is none. */
	public static LocalAdministrator obtain(Path dataDirectory) {
		Path file = dataDirectory.resolve(FILE_NAME);
		try {
			Files.createDirectories(dataDirectory);
			if (!Files.exists(file)) {
				create(file);
			}
			return read(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot keep the local administrator's credentials in " + file, ex);
		}
	}

	private static void create(Path file) throws IOException {
		byte[] random = new byte[24];
		new SecureRandom().nextBytes(random);
		Properties credentials = new Properties();
		credentials.setProperty("username", USERNAME);
		credentials.setProperty("password", Base64.getUrlEncoder().withoutPadding().encodeToString(random));
		FileAttribute<?>[] ownerOnly = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
				? new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(OWNER_ONLY) }
				: new FileAttribute<?>[0];
		Path temporary = Files.createTempFile(file.getParent(), FILE_NAME, ".new", ownerOnly);
		try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
			credentials.store(writer, "The XD administrator of this data directory; readable by its owner only");
		}
		try {
			// two processes starting on one data directory: the first one's file stays
			Files.createLink(file, temporary);
		}
		catch (FileAlreadyExistsException ex) {
			// created by the other process meanwhile
		}
		catch (UnsupportedOperationException | IOException ex) {
			Files.move(temporary, file);
		}
		finally {
			Files.deleteIfExists(temporary);
		}
	}

	private static LocalAdministrator read(Path file) throws IOException {
		Properties credentials = new Properties();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			credentials.load(reader);
		}
		String username = credentials.getProperty("username");
		String password = credentials.getProperty("password");
		if (username == null || username.isBlank() || password == null || password.isBlank()) {
			throw new IOException("the file has no username or no password; delete it to have a new one created");
		}
		return new LocalAdministrator(username, password, file);
	}
}
