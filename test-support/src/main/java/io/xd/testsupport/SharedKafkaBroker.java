package io.xd.testsupport;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.network.ListenerName;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One real Kafka broker (KRaft, in this JVM) for every test of the JVM that needs one: starting a broker takes
 * seconds, so tests share it and keep apart by using topics of their own. Besides its plaintext listener
 * ({@link #brokers()}) it has a SASL_PLAINTEXT listener that authenticates with SCRAM-SHA-256 and SCRAM-SHA-512
 * ({@link #scramBrokers()}); users for it are made with {@link #createScramUser}.
 */
public final class SharedKafkaBroker {

	/** The name of the SCRAM listener in the broker's configuration. */
	private static final String SCRAM_LISTENER = "SCRAM";

	private static EmbeddedKafkaKraftBroker broker;

	private SharedKafkaBroker() {
	}

	/** The {@code host:port} of the broker, started on first use and stopped when the JVM exits. */
	public static synchronized String brokers() {
		if (broker == null) {
			EmbeddedKafkaKraftBroker started = new EmbeddedKafkaKraftBroker(1, 1);
			// the development broker's settings (bin/kafka-local): its consumer group timing, its single-node
			// internal topics (transactions included), no topic auto-creation
			Map<String, String> properties = new HashMap<>(localBrokerSettings());
			// the test kit's own listeners (on the ports it has bound already) and one that asks for SCRAM
			// credentials; brokers and controllers keep talking over the plaintext ones
			properties.putAll(Map.of("listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0,"
					+ SCRAM_LISTENER + "://localhost:0", "listener.security.protocol.map",
					"EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT," + SCRAM_LISTENER + ":SASL_PLAINTEXT",
					"listener.name.scram.sasl.enabled.mechanisms", "SCRAM-SHA-256,SCRAM-SHA-512",
					"listener.name.scram.scram-sha-256.sasl.jaas.config",
					"org.apache.kafka.common.security.scram.ScramLoginModule required;",
					"listener.name.scram.scram-sha-512.sasl.jaas.config",
					"org.apache.kafka.common.security.scram.ScramLoginModule required;"));
			started.brokerProperties(properties);
			started.afterPropertiesSet();
			Runtime.getRuntime().addShutdownHook(new Thread(started::destroy, "kafka-test-broker-shutdown"));
			broker = started;
		}
		return broker.getBrokersAsString();
	}

	/**
	 * The settings of the development broker that depend on neither its ports nor its directory, from
	 * {@code build-support/kafka-local/broker.properties} (which {@code bin/kafka-local} appends to its configuration),
	 * found from the working directory of the tests (a module's directory) upwards.
	 */
	public static Map<String, String> localBrokerSettings() {
		Path relative = Path.of("build-support", "kafka-local", "broker.properties");
		for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
			Path file = directory.resolve(relative);
			if (Files.isRegularFile(file)) {
				Properties properties = new Properties();
				try (Reader reader = Files.newBufferedReader(file)) {
					properties.load(reader);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
				Map<String, String> settings = new TreeMap<>();
				properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name)));
				return settings;
			}
		}
		throw new IllegalStateException("No " + relative + " in " + Path.of("").toAbsolutePath() + " or above");
	}

	/** The {@code host:port} of the broker's SASL_PLAINTEXT listener, which takes SCRAM-SHA-256 and -512 logins. */
	public static synchronized String scramBrokers() {
		brokers();
		int port = broker.getCluster().brokers().values().iterator().next()
			.boundPort(new ListenerName(SCRAM_LISTENER));
		return "localhost:" + port;
	}

	/**
	 * Gives {@code user} a SCRAM-SHA-256 and a SCRAM-SHA-512 credential with {@code password} (over the plaintext
	 * listener, as an administrator would), and waits until the broker knows them.
	 */
	public static void createScramUser(String user, String password) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers()))) {
			// one mechanism per request: the broker refuses two changes of one user's credentials in one request
			for (ScramMechanism mechanism : List.of(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)) {
				admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
						new ScramCredentialInfo(mechanism, 4096), password)))
					.all()
					.get(30, TimeUnit.SECONDS);
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (credentials(admin, user) < 2) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("The broker did not show the SCRAM credentials of " + user);
				}
				TimeUnit.MILLISECONDS.sleep(50);
			}
		}
	}

	private static int credentials(Admin admin, String user) throws Exception {
		try {
			return admin.describeUserScramCredentials(List.of(user)).all().get(30, TimeUnit.SECONDS).get(user)
				.credentialInfos().size();
		}
		catch (ExecutionException ex) {
			// the broker has not applied the metadata record yet: the user is unknown to it
			return 0;
		}
	}
}
