package io.xd.shell;

import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A user name and password for an admin server's HTTP Basic authentication.
 *
 * @param username the user name
 * @param password the password
 */
public record Credentials(String username, String password) {

	/** Where a server keeps the administrator it created for itself, under its data directory. */
	static final String LOCAL_FILE_NAME = "credentials.properties";

	@Override
	public String toString() {
		return "Credentials[" + this.username + "]";
	}

	/** The value of the {@code Authorization} header. */
	String authorization() {
		return "Basic " + Base64.getEncoder()
			.encodeToString((this.username + ":" + this.password).getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * The local administrator's credentials, when the admin server is on this machine (a loopback address) and its
	 * data directory holds them: {@code $XD_DATA_DIR} when set, else {@code ~/.xd/data}, as the server's
	 * {@code xd.data.dir} defaults. The file is readable by its owner only: only the user who runs the server finds it.
	 */
	static Optional<Credentials> local(URI admin, Map<String, String> environment) {
		if (!isLoopback(admin.getHost())) {
			return Optional.empty();
		}
		String configured = environment.get("XD_DATA_DIR");
		Path dataDirectory = (configured != null && !configured.isBlank()) ? Path.of(configured)
				: Path.of(System.getProperty("user.home"), ".xd", "data");
		Path file = dataDirectory.resolve(LOCAL_FILE_NAME);
		if (!Files.isReadable(file)) {
			return Optional.empty();
		}
		Properties properties = new Properties();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			properties.load(reader);
		}
		catch (IOException ex) {
			return Optional.empty();
		}
		String username = properties.getProperty("username");
		String password = properties.getProperty("password");
		return (username == null || password == null) ? Optional.empty()
				: Optional.of(new Credentials(username, password));
	}

	private static boolean isLoopback(String host) {
		if (host == null) {
			return false;
		}
		if (host.equalsIgnoreCase("localhost")) {
			return true;
		}
		try {
			String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
			// only literal addresses are checked: no DNS lookup for a name
			return literal.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')
					&& InetAddress.getByName(literal).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}
}
