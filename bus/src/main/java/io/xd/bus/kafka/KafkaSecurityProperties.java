package io.xd.bus.kafka;

/**
 * How the bus's clients connect to the brokers: {@code xd.messagebus.kafka.security.*} of {@link KafkaBusProperties}.
 */
public class KafkaSecurityProperties {

	/** {@code PLAINTEXT} (the default), {@code SSL}, {@code SASL_PLAINTEXT} or {@code SASL_SSL}. */
	private String protocol = "PLAINTEXT";

	public String getProtocol() {
		return this.protocol;
	}

	public void setProtocol(String protocol) {
		this.protocol = KafkaSecurity.protocol(protocol);
	}
}
