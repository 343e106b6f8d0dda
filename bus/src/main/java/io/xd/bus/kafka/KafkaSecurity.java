package io.xd.bus.kafka;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.types.Password;

/**
 * The client settings that connect the bus to a secured cluster, built from {@code xd.messagebus.kafka.security.*},
 * {@code sasl.*} and {@code ssl.*}, and given to every Kafka client the bus makes (producers, consumers, the admin
 * client). Secrets are held as Kafka {@link Password}s, which print as {@code [hidden]}, so a configuration map that
 * holds them can be printed or logged.
 * <p>
 * {@link #OPERATOR_ONLY} lists the client properties a stream's deployment properties may never set: these
 * settings, and whatever loads classes or reads files on the client's behalf.
 */
final class KafkaSecurity {

	/** The protocols of Kafka's {@code security.protocol}. */
	static final Set<String> PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");

	/** The SASL mechanisms the bus writes a JAAS configuration for. */
	static final Set<String> MECHANISMS = Set.of("SCRAM-SHA-256", "SCRAM-SHA-512", "PLAIN");

	/**
	 * Kafka client properties that only the operator sets (in {@code xd.messagebus.kafka.*}), never a deployment
	 * property: where the client connects and as whom, and every property that makes it load a class or read a file.
	 * In the form of {@link io.xd.core.BindingKeys#reservedClientProperties()}.
	 */
	static final Set<String> OPERATOR_ONLY = Set.of("bootstrap.servers", "bootstrap.controllers", "security.",
			"sasl.", "ssl.", ".class", ".classes", "key.serializer", "value.serializer", "key.deserializer",
			"value.deserializer", "metric.reporters", "config.providers", "config.providers.", "group.id",
			"group.instance.id");

	private KafkaSecurity() {
	}

	/** Reads {@code security.protocol}, refusing what Kafka does not know. */
	static String protocol(String text) {
		return oneOf(text, PROTOCOLS, "security.protocol", "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL");
	}

	/** Reads {@code sasl.mechanism}, refusing what the bus cannot write a JAAS configuration for. */
	static String mechanism(String text) {
		return oneOf(text, MECHANISMS, "sasl.mechanism", "SCRAM-SHA-256, SCRAM-SHA-512 or PLAIN");
	}

	private static String oneOf(String text, Set<String> allowed, String key, String expected) {
		String value = (text == null) ? "" : text.trim().toUpperCase(Locale.ROOT);
		if (!allowed.contains(value)) {
			throw new IllegalArgumentException("xd.messagebus.kafka." + key + " must be " + expected + ", but was '"
					+ text + "'");
		}
		return value;
	}

	/**
	 * The security settings of every client of the bus: nothing beyond {@code security.protocol=PLAINTEXT} by
	 * default.
	 * @throws IllegalArgumentException when a SASL protocol lacks its user name or password, or credentials are set
	 * for a protocol that would not use them
	 */
	static Map<String, Object> clientConfig(KafkaBusProperties bus) {
		String protocol = bus.getSecurity().getProtocol();
		KafkaSaslProperties sasl = bus.getSasl();
		KafkaSslProperties ssl = bus.getSsl();
		Map<String, Object> config = new HashMap<>();
		config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
		boolean usesSasl = protocol.startsWith("SASL_");
		boolean hasCredentials = hasText(sasl.getUsername()) || hasText(sasl.getPassword());
		if (usesSasl) {
			if (!hasText(sasl.getUsername()) || sasl.getPassword() == null) {
				throw new IllegalArgumentException("xd.messagebus.kafka.security.protocol is " + protocol
						+ ": set xd.messagebus.kafka.sasl.username and xd.messagebus.kafka.sasl.password");
			}
			config.put(SaslConfigs.SASL_MECHANISM, sasl.getMechanism());
			config.put(SaslConfigs.SASL_JAAS_CONFIG, new Password(jaasConfig(sasl.getMechanism(), sasl.getUsername(),
					sasl.getPassword())));
		}
		else if (hasCredentials) {
			throw new IllegalArgumentException("xd.messagebus.kafka.sasl.username/password are set, but "
					+ "xd.messagebus.kafka.security.protocol is " + protocol + ", which sends no credentials: set it "
					+ "to SASL_SSL (or SASL_PLAINTEXT)");
		}
		if (protocol.endsWith("SSL")) {
			putIfSet(config, SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ssl.getTruststoreLocation());
			putSecretIfSet(config, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, ssl.getTruststorePassword());
			putIfSet(config, SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, ssl.getTruststoreType());
			putIfSet(config, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, ssl.getKeystoreLocation());
			putSecretIfSet(config, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, ssl.getKeystorePassword());
			putIfSet(config, SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, ssl.getKeystoreType());
			putSecretIfSet(config, SslConfigs.SSL_KEY_PASSWORD_CONFIG, ssl.getKeyPassword());
			config.put(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
					ssl.getEndpointIdentificationAlgorithm().trim());
		}
		return config;
	}

	/**
	 * Holds every password-typed property of {@code definition} that is given as text (such as an operator's
	 * {@code producerProperties.ssl.key.password}) as a {@link Password}, so that printing the map hides it.
	 * @return {@code config}, changed in place
	 */
	static Map<String, Object> hidePasswords(Map<String, Object> config, ConfigDef definition) {
		config.replaceAll((key, value) -> {
			ConfigDef.ConfigKey declared = definition.configKeys().get(key);
			return (value instanceof String text && declared != null && declared.type == ConfigDef.Type.PASSWORD)
					? new Password(text) : value;
		});
		return config;
	}

	/**
	 * The JAAS configuration line for a mechanism: {@code <LoginModule> required username="..." password="...";},
	 * with quotes and backslashes in the values escaped, as Kafka's JAAS parser reads them.
	 */
	static String jaasConfig(String mechanism, String username, String password) {
		String loginModule = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
				: "org.apache.kafka.common.security.scram.ScramLoginModule";
		return loginModule + " required username=\"" + escape(username) + "\" password=\"" + escape(password) + "\";";
	}

	private static String escape(String value) {
		return value.replace("\\", "\\\\").replace("\"", "\\\"");
	}

	private static void putIfSet(Map<String, Object> config, String key, String value) {
		if (hasText(value)) {
			config.put(key, value.trim());
		}
	}

	private static void putSecretIfSet(Map<String, Object> config, String key, String value) {
		if (value != null && !value.isEmpty()) {
			config.put(key, new Password(value));
		}
	}

	private static boolean hasText(String value) {
		return value != null && !value.isBlank();
	}
}
