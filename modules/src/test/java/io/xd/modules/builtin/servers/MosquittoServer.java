package io.xd.modules.builtin.servers;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A {@code mosquitto} MQTT broker (Debian package {@code mosquitto}) with two listeners on 127.0.0.1: {@link #port()}
 * lets anyone in, {@link #securePort()} only the users of a password file made with {@code mosquitto_passwd}. No
 * persistence, everything in a temporary folder.
 */
public final class MosquittoServer extends TestServer {

	private final int port;

	private final int securePort;

	private MosquittoServer(Map<String, String> users) {
		super("mosquitto");
		this.port = freePort();
		this.securePort = freePort();
		Path passwords = write("passwd", "");
		String passwd = executable("mosquitto", "mosquitto_passwd", "/usr/bin/mosquitto_passwd").toString();
		users.forEach((user, password) -> run(List.of(passwd, "-b", passwords.toString(), user, password), Map.of()));
		// as root, mosquitto would switch to the user mosquitto, who may not read this folder
		String config = "user " + System.getProperty("user.name") + "\n" + "per_listener_settings true\n"
				+ "persistence false\n" + "log_dest stdout\n" + "listener " + this.port + " 127.0.0.1\n"
				+ "allow_anonymous true\n" + "listener " + this.securePort + " 127.0.0.1\n" + "allow_anonymous false\n"
				+ "password_file " + passwords + "\n";
		Path file = write("mosquitto.conf", config);
		launch(List.of(executable("mosquitto", "mosquitto", "/usr/sbin/mosquitto").toString(), "-c", file.toString()),
				Map.of(), this.port, Duration.ofSeconds(20));
		awaitListening(this.securePort, Duration.ofSeconds(10));
	}

	/** Starts a broker whose secure listener lets these users in, by name and password. */
	public static MosquittoServer start(Map<String, String> users) {
		return new MosquittoServer(users);
	}

	/** The listener that lets anyone in. */
	public int port() {
		return this.port;
	}

	/** The listener that needs a user of the password file. */
	public int securePort() {
		return this.securePort;
	}

	/** {@code tcp://127.0.0.1:<port>}. */
	public String url() {
		return "tcp://127.0.0.1:" + this.port;
	}
}
