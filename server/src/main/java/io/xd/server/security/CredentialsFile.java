package io.xd.server.security;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Properties;
import java.util.Set;

/**
 * A user name and a random password that a server generates for itself and keeps in a Java properties file
 * ({@code username}, {@code password}) that only the server's user can read ({@code rw-------}). A server
 * restarted on the same data directory, or a second process sharing it, reads the same file.
 *
 * @param username the user name
 * @param password the password, in clear: the file is the secret
 * @param file where it is kept
 */
public record CredentialsFile(String username, String password, Path file) {

	private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

	private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");

	private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

	/**
	 * Reads the credentials kept in {@code file}, creating it first, with {@code username} and a random password of
	 * 32 URL-safe characters, when there is none.
	 * @param comment the first line of a new file, saying whose credentials these are
	 * @throws IOException when the file cannot be made or read, or holds no user name or password
	 */
	public static CredentialsFile obtain(Path file, String username, String comment) throws IOException {
		createOwnerOnlyDirectories(file.getParent());
		if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
			create(file, username, comment);
		}
		checkOwnedByThisUser(file);
		return read(file);
	}

	/**
	 * Creates a directory and its missing parents readable by the server's user only ({@code rwx------}) where the
	 * file system has POSIX permissions; an existing directory is left as it is.
	 */
	public static void createOwnerOnlyDirectories(Path directory) throws IOException {
		if (Files.isDirectory(directory)) {
			return;
		}
		if (POSIX) {
			Path parent = directory.toAbsolutePath().getParent();
			if (parent != null) {
				createOwnerOnlyDirectories(parent);
			}
			try {
				Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
				// the umask may have taken permissions away, never added any; set them exactly
				Files.setPosixFilePermissions(directory, OWNER_ONLY_DIRECTORY);
			}
			catch (FileAlreadyExistsException ex) {
				// made by another process meanwhile
			}
		}
		else {
			Files.createDirectories(directory);
		}
	}

	/**
	 * Refuses a credentials file that is a symbolic link, or that another user owns: whoever wrote it would choose the
	 * password the server accepts, or read it.
	 */
	private static void checkOwnedByThisUser(Path file) throws IOException {
		if (Files.isSymbolicLink(file)) {
			throw new IOException(file + " is a symbolic link; a credentials file must be a plain file of the server's "
					+ "user");
		}
		if (!POSIX) {
			return;
		}
		UserPrincipal owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS);
		UserPrincipal self = processOwner(file.getParent());
		if (!owner.equals(self)) {
			throw new IOException(file + " belongs to " + owner.getName() + ", not to the server's user "
					+ self.getName() + "; a credentials file must be the server's own (delete it to have a new one "
					+ "created)");
		}
	}

	/** The user this process runs as, as the file system names it: the owner of a file it creates. */
	private static UserPrincipal processOwner(Path directory) throws IOException {
		Path probe = Files.createTempFile(directory, ".owner", ".probe");
		try {
			return Files.getOwner(probe);
		}
		finally {
			Files.deleteIfExists(probe);
		}
	}

	private static void create(Path file, String username, String comment) throws IOException {
		byte[] random = new byte[24];
		new SecureRandom().nextBytes(random);
		Properties credentials = new Properties();
		credentials.setProperty("username", username);
		credentials.setProperty("password", Base64.getUrlEncoder().withoutPadding().encodeToString(random));
		FileAttribute<?>[] ownerOnly = POSIX ? new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(OWNER_ONLY) }
				: new FileAttribute<?>[0];
		Path temporary = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".new", ownerOnly);
		try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
			credentials.store(writer, comment);
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

	private static CredentialsFile read(Path file) throws IOException {
		Properties credentials = new Properties();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			credentials.load(reader);
		}
		String username = credentials.getProperty("username");
		String password = credentials.getProperty("password");
		if (username == null || username.isBlank() || password == null || password.isBlank()) {
			throw new IOException("the file has no username or no password; delete it to have a new one created");
		}
		return new CredentialsFile(username, password, file);
	}

	@Override
	public String toString() {
		return "CredentialsFile[username=" + this.username + ", password=[hidden], file=" + this.file + "]";
	}
}
