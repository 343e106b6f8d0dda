package io.xd.bus.kafka;

/**
 * TLS settings, {@code xd.messagebus.kafka.ssl.*} of {@link KafkaBusProperties}, for the protocols {@code SSL} and
 * {@code SASL_SSL}. Passwords are not printed by {@link #toString()}.
 */
public class KafkaSslProperties {

	/**
	 * The trust store holding the certificates of the brokers' certificate authority ({@code ssl.truststore.location}).
	 */
	private String truststoreLocation;

	/** The trust store's password; never printed or logged. */
	private String truststorePassword;

	/** {@code JKS}, {@code PKCS12} or {@code PEM} (Kafka's default: {@code JKS}). */
	private String truststoreType;

	/** The key store holding the client's certificate, for brokers that authenticate clients by TLS. */
	private String keystoreLocation;

	/** The key store's password; never printed or logged. */
	private String keystorePassword;

	/** {@code JKS}, {@code PKCS12} or {@code PEM} (Kafka's default: {@code JKS}). */
	private String keystoreType;

	/** The password of the private key in the key store; never printed or logged. */
	private String keyPassword;

	/** {@code https} (the default) checks the broker's host name against its certificate; empty turns that off. */
	private String endpointIdentificationAlgorithm = "https";

	public String getTruststoreLocation() {
		return this.truststoreLocation;
	}

	public void setTruststoreLocation(String truststoreLocation) {
		this.truststoreLocation = truststoreLocation;
	}

	public String getTruststorePassword() {
		return this.truststorePassword;
	}

	public void setTruststorePassword(String truststorePassword) {
		this.truststorePassword = truststorePassword;
	}

	public String getTruststoreType() {
		return this.truststoreType;
	}

	public void setTruststoreType(String truststoreType) {
		this.truststoreType = truststoreType;
	}

	public String getKeystoreLocation() {
		return this.keystoreLocation;
	}

	public void setKeystoreLocation(String keystoreLocation) {
		this.keystoreLocation = keystoreLocation;
	}

	public String getKeystorePassword() {
		return this.keystorePassword;
	}

	public void setKeystorePassword(String keystorePassword) {
		this.keystorePassword = keystorePassword;
	}

	public String getKeystoreType() {
		return this.keystoreType;
	}

	public void setKeystoreType(String keystoreType) {
		this.keystoreType = keystoreType;
	}

	public String getKeyPassword() {
		return this.keyPassword;
	}

	public void setKeyPassword(String keyPassword) {
		this.keyPassword = keyPassword;
	}

	public String getEndpointIdentificationAlgorithm() {
		return this.endpointIdentificationAlgorithm;
	}

	public void setEndpointIdentificationAlgorithm(String endpointIdentificationAlgorithm) {
		this.endpointIdentificationAlgorithm = (endpointIdentificationAlgorithm == null) ? ""
				: endpointIdentificationAlgorithm;
	}

	@Override
	public String toString() {
		return "Ssl[truststoreLocation=" + this.truststoreLocation + ", keystoreLocation=" + this.keystoreLocation
				+ ", endpointIdentificationAlgorithm=" + this.endpointIdentificationAlgorithm + ", passwords "
				+ "[hidden]]";
	}
}
