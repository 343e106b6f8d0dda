package io.xd.bus.kafka;

/**
 * The SASL mechanism and credentials, {@code xd.messagebus.kafka.sasl.*} of {@link KafkaBusProperties}; the bus writes
 * the JAAS configuration ({@code sasl.jaas.config}) from them. Not printed by {@link #toString()}.
 */
public class KafkaSaslProperties {

	/** {@code SCRAM-SHA-256} (the default), {@code SCRAM-SHA-512} or {@code PLAIN}. */
	private String mechanism = "SCRAM-SHA-256";

	/** The user name the bus authenticates as. */
	private String username;

	/** The user's password; never printed or logged. */
	private String password;

	public String getMechanism() {
		return this.mechanism;
	}

	public void setMechanism(String mechanism) {
		this.mechanism = KafkaSecurity.mechanism(mechanism);
	}

	public String getUsername() {
		return this.username;
	}

	public void setUsername(String username) {
		this.username = username;
	}

	public String getPassword() {
		return this.password;
	}

	public void setPassword(String password) {
		this.password = password;
	}

	@Override
	public String toString() {
		return "Sasl[mechanism=" + this.mechanism + ", username=" + this.username + ", password="
				+ ((this.password == null) ? "none" : "[hidden]") + "]";
	}
}
