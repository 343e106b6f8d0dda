package io.xd.bus.kafka;

import java.util.Map;

import javax.security.auth.login.AppConfigurationEntry;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;

import io.xd.bus.BindingProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The security settings every client of the Kafka bus gets, and how their secrets are kept out of print. */
class KafkaSecurityTests {

	private final KafkaBusProperties bus = new KafkaBusProperties();

	@Test
	void plaintextByDefault() {
		assertThat(KafkaSecurity.clientConfig(this.bus))
			.containsExactlyEntriesOf(Map.of(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT"));
	}

	@Test
	void theJaasConfigurationEscapesQuotesAndBackslashesAsKafkaReadsThem() {
		String password = "a\"b\\c d;e";
		String jaas = KafkaSecurity.jaasConfig("SCRAM-SHA-512", "us\"er", password);
		AppConfigurationEntry entry = JaasContext
			.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(jaas)))
			.configurationEntries()
			.get(0);
		assertThat(entry.getLoginModuleName()).isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule");
		assertThat(entry.getOptions().get("username")).isEqualTo("us\"er");
		assertThat(entry.getOptions().get("password")).isEqualTo(password);
		assertThat(KafkaSecurity.jaasConfig("PLAIN", "u", "p"))
			.startsWith("org.apache.kafka.common.security.plain.PlainLoginModule required");
	}

	@Test
	void saslSettingsBecomeAHiddenJaasConfiguration() {
		this.bus.getSecurity().setProtocol("sasl_ssl");
		this.bus.getSasl().setUsername("xd");
		this.bus.getSasl().setPassword("s3cret");
		this.bus.getSsl().setTruststoreLocation("/etc/xd/truststore.p12");
		this.bus.getSsl().setTruststorePassword("trust-s3cret");
		this.bus.getSsl().setEndpointIdentificationAlgorithm("");
		Map<String, Object> config = KafkaSecurity.clientConfig(this.bus);
		assertThat(config).containsEntry(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL")
			.containsEntry(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-256")
			.containsEntry(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/xd/truststore.p12")
			.containsEntry(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, new Password("trust-s3cret"))
			.containsEntry(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "");
		assertThat(((Password) config.get(SaslConfigs.SASL_JAAS_CONFIG)).value()).contains("password=\"s3cret\"");
		KafkaProducerSettings producer = KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus);
		KafkaConsumerSettings consumer = KafkaConsumerSettings.resolve(BindingProperties.NONE, this.bus);
		assertThat(producer.toString() + consumer + this.bus.getSasl() + this.bus.getSsl())
			.contains("[hidden]")
			.doesNotContain("s3cret");
	}

	@Test
	void passwordsAnOperatorPassesAsClientPropertiesArePrintedHiddenToo() {
		this.bus.getProducerProperties().put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, "key-s3cret");
		KafkaProducerSettings producer = KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus);
		assertThat(producer.clientConfig()).containsEntry(SslConfigs.SSL_KEY_PASSWORD_CONFIG, new Password("key-s3cret"))
			.containsEntry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
		assertThat(producer.toString()).doesNotContain("key-s3cret");
	}

	@Test
	void refusesWhatWouldLeaveTheBusLessSecureThanConfigured() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.bus.getSecurity().setProtocol("TLS"))
			.withMessage("xd.messagebus.kafka.security.protocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, "
					+ "but was 'TLS'");
		assertThatIllegalArgumentException().isThrownBy(() -> this.bus.getSasl().setMechanism("GSSAPI"))
			.withMessageContaining("SCRAM-SHA-256, SCRAM-SHA-512 or PLAIN");
		this.bus.getSecurity().setProtocol("SASL_PLAINTEXT");
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaSecurity.clientConfig(this.bus))
			.withMessageContaining("set xd.messagebus.kafka.sasl.username and xd.messagebus.kafka.sasl.password");
		this.bus.getSecurity().setProtocol("PLAINTEXT");
		this.bus.getSasl().setUsername("xd");
		this.bus.getSasl().setPassword("s3cret");
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaSecurity.clientConfig(this.bus))
			.withMessageContaining("which sends no credentials")
			.withMessageNotContaining("s3cret");
	}
}
