package io.xd.bus.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.support.MessageBuilder;

import io.xd.bus.BindingProperties;
import io.xd.bus.ProducerBinding;
import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka bus on a listener that asks for SCRAM credentials (SASL_PLAINTEXT): messages flow with the right
 * password, a wrong one fails the binding with an authentication error within the admin timeout, and the password
 * shows in no log line, not even in the Kafka clients' dump of their configuration.
 */
class KafkaSaslIntegrationTests {

	private static final String USER = "xd-bus-" + UUID.randomUUID().toString().substring(0, 8);

	/** Quotes and a backslash, which the bus must escape in the JAAS configuration it writes. */
	private static final String PASSWORD = "pw\"with\\quote-" + UUID.randomUUID();

	private final String prefix = "sasl" + UUID.randomUUID().toString().substring(0, 8);

	private final List<KafkaMessageBus> buses = new ArrayList<>();

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

	private final List<Logger> kafkaClients = List.of((Logger) LoggerFactory.getLogger("org.apache.kafka.clients"),
			(Logger) LoggerFactory.getLogger("org.apache.kafka.common.config"));

	@BeforeAll
	static void createUser() throws Exception {
		SharedKafkaBroker.createScramUser(USER, PASSWORD);
	}

	@BeforeEach
	void captureLogs() {
		// the clients log their configuration at INFO: that dump must hide the JAAS configuration too
		this.kafkaClients.forEach(logger -> logger.setLevel(Level.INFO));
		this.logs.start();
		this.root.addAppender(this.logs);
	}

	@AfterEach
	void close() {
		this.buses.forEach(KafkaMessageBus::close);
		this.root.detachAppender(this.logs);
		this.kafkaClients.forEach(logger -> logger.setLevel(null));
	}

	private KafkaMessageBus bus(String mechanism, String password) {
		KafkaBusProperties settings = new KafkaBusProperties();
		settings.setBrokers(SharedKafkaBroker.scramBrokers());
		settings.getSecurity().setProtocol("SASL_PLAINTEXT");
		settings.getSasl().setMechanism(mechanism);
		settings.getSasl().setUsername(USER);
		settings.getSasl().setPassword(password);
		settings.setAdminTimeout(Duration.ofSeconds(10));
		KafkaMessageBus bus = new KafkaMessageBus(settings);
		this.buses.add(bus);
		return bus;
	}

	@Test
	void messagesFlowOverScramSha256AndThePasswordIsLoggedNowhere() {
		KafkaMessageBus bus = bus("SCRAM-SHA-256", PASSWORD);
		String pipe = this.prefix + "-flow.0";
		List<String> received = Collections.synchronizedList(new ArrayList<>());
		bus.bindConsumer(pipe, message -> received.add(new String((byte[]) message.getPayload(),
				StandardCharsets.UTF_8)), BindingProperties.NONE);
		ProducerBinding producer = bus.bindProducer(pipe, null, BindingProperties.NONE);
		assertThat(bus.awaitConsumersAssigned(Duration.ofSeconds(30))).isTrue();

		List<String> sent = IntStream.range(0, 50).mapToObj(i -> "secured-" + i).toList();
		sent.forEach(text -> producer.channel()
			.send(MessageBuilder.withPayload(text.getBytes(StandardCharsets.UTF_8)).build()));

		await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= sent.size());
		assertThat(received).containsExactlyElementsOf(sent);
		assertThat(logged()).as("the clients' configuration dump").contains("sasl.jaas.config = [hidden]")
			.doesNotContain(PASSWORD);
	}

	@Test
	void scramSha512WorksToo() {
		KafkaMessageBus bus = bus("SCRAM-SHA-512", PASSWORD);
		ProducerBinding producer = bus.bindProducer(this.prefix + "-512.0", null, BindingProperties.NONE);
		producer.channel().send(MessageBuilder.withPayload("over 512".getBytes(StandardCharsets.UTF_8)).build());
		assertThat(logged()).doesNotContain(PASSWORD);
	}

	@Test
	void aWrongPasswordFailsTheBindingWithAnAuthenticationErrorWithinTheAdminTimeout() {
		String wrong = "wrong-" + UUID.randomUUID();
		KafkaMessageBus bus = bus("SCRAM-SHA-256", wrong);
		long started = System.nanoTime();
		assertThatIllegalStateException().isThrownBy(() -> bus.bindProducer(this.prefix + "-wrong.0", null,
				BindingProperties.NONE))
			.withMessageContaining("refused the bus's credentials")
			.withMessageContaining("Authentication failed")
			.withMessageContaining("xd.messagebus.kafka.sasl.*")
			.withMessageNotContaining(wrong);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
		assertThat(logged()).doesNotContain(wrong).doesNotContain(PASSWORD);
	}

	@Test
	void aStreamCannotSetTheCredentialsOrWhereTheClientConnects() {
		KafkaMessageBus bus = bus("SCRAM-SHA-256", PASSWORD);
		for (String key : List.of("sasl.jaas.config", "security.protocol", "ssl.truststore.location",
				"bootstrap.servers", "interceptor.classes", "sasl.login.callback.handler.class")) {
			assertThatIllegalArgumentException().as(key)
				.isThrownBy(() -> bus.bindProducer(this.prefix + "-reach.0", null,
						BindingProperties.of(Map.of(key, "x"))))
				.withMessageContaining("does not let a stream set producer property: " + key);
		}
	}

	private String logged() {
		StringBuilder text = new StringBuilder();
		for (ILoggingEvent event : List.copyOf(this.logs.list)) {
			text.append(event.getFormattedMessage()).append('\n');
			if (event.getThrowableProxy() != null) {
				text.append(ThrowableProxyUtil.asString(event.getThrowableProxy())).append('\n');
			}
		}
		return text.toString();
	}
}
