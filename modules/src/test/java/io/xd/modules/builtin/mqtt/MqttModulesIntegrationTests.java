package io.xd.modules.builtin.mqtt;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;
import io.xd.modules.builtin.servers.MosquittoServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The mqtt source and sink against a Mosquitto broker started for this class, checked with a plain Paho client. */
class MqttModulesIntegrationTests {

	private static MosquittoServer server;

	private static MqttClient plain;

	private static HostAccess access;

	@BeforeAll
	static void startBroker() throws Exception {
		server = MosquittoServer.start(Map.of("sensor", "s3cret"));
		plain = new MqttClient(server.url(), "plain-test-client", new MemoryPersistence());
		plain.connect();
		access = HostAccess.defaults(ModuleContext.defaultDataDirectory())
			.withConnections(Map.of("mqtt", Connection.of("127.0.0.1", server.port()),
					"secure", new Connection("127.0.0.1", server.securePort(), "sensor", "s3cret", false, Map.of()),
					"wrong", new Connection("127.0.0.1", server.securePort(), "sensor", "not-it", false, Map.of())))
			.withConnectHosts(List.of("127.0.0.1"));
	}

	@AfterAll
	static void stopBroker() throws Exception {
		if (plain != null) {
			plain.disconnect();
			plain.close();
		}
		if (server != null) {
			server.close();
		}
	}

	private static BlockingQueue<MqttMessage> subscribe(String filter) throws Exception {
		BlockingQueue<MqttMessage> received = new LinkedBlockingQueue<>();
		plain.subscribe(filter, 1, (topic, message) -> received.add(message));
		return received;
	}

	@Test
	void sourceWithWildcardsReceivesWhatAPlainClientPublishesAtQos1() throws Exception {
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		MqttSource source = ModuleFixtures.create(new MqttSource.Provider(),
				Map.of("topics", "sensors/+/temp,alerts/#", "qos", "1"), access);
		source.start(output);
		try {
			plain.publish("sensors/kitchen/humidity", "40".getBytes(StandardCharsets.UTF_8), 1, false);
			plain.publish("sensors/kitchen/temp", "21.5".getBytes(StandardCharsets.UTF_8), 1, false);
			plain.publish("alerts/fire/floor2", "smoke".getBytes(StandardCharsets.UTF_8), 1, false);
			await().atMost(10, TimeUnit.SECONDS).until(() -> output.messages.size() >= 2);
			Thread.sleep(200);
		}
		finally {
			source.stop();
		}
		assertThat(output.payloads()).containsExactly("21.5", "smoke");
		Message<?> first = output.messages.get(0);
		assertThat(first.getHeaders()).containsEntry("mqtt_receivedTopic", "sensors/kitchen/temp")
			.containsEntry("mqtt_receivedQos", 1);
	}

	@Test
	void binarySourceSendsBytes() throws Exception {
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		MqttSource source = ModuleFixtures.create(new MqttSource.Provider(),
				Map.of("topics", "raw/in", "binary", "true", "clientId", "binary-source"), access);
		source.start(output);
		try {
			plain.publish("raw/in", new byte[] { 0, (byte) 0xff }, 0, false);
			await().atMost(10, TimeUnit.SECONDS).until(() -> output.messages.size() == 1);
		}
		finally {
			source.stop();
		}
		assertThat(output.payloads().get(0)).isEqualTo(new byte[] { 0, (byte) 0xff });
	}

	@Test
	void sinkPublishesWhatAPlainSubscriberGets() throws Exception {
		BlockingQueue<MqttMessage> received = subscribe("out/#");
		MqttSink sink = ModuleFixtures.create(new MqttSink.Provider(), Map.of("topic", "out/readings"), access);
		sink.start();
		try {
			sink.handleMessage(ModuleMessages.of("hello"));
			sink.handleMessage(ModuleMessages.of(new byte[] { 7 }));
			sink.handleMessage(ModuleMessages.of(Map.of("a", 1)));
		}
		finally {
			sink.stop();
		}
		MqttMessage first = received.poll(10, TimeUnit.SECONDS);
		assertThat(new String(first.getPayload(), StandardCharsets.UTF_8)).isEqualTo("hello");
		assertThat(first.getQos()).isEqualTo(1);
		assertThat(received.poll(10, TimeUnit.SECONDS).getPayload()).containsExactly(7);
		assertThat(new String(received.poll(10, TimeUnit.SECONDS).getPayload(), StandardCharsets.UTF_8))
			.isEqualTo("{a=1}");
		plain.unsubscribe("out/#");
	}

	@Test
	void credentialsOfADeclaredConnectionLetTheModulesIn() throws Exception {
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		MqttSource source = ModuleFixtures.create(new MqttSource.Provider(),
				Map.of("connection", "secure", "topics", "secure/#", "qos", "1", "clientId", "secure-source"), access);
		MqttSink sink = ModuleFixtures.create(new MqttSink.Provider(),
				Map.of("connection", "secure", "topic", "secure/data", "retained", "true", "clientId", "secure-sink"),
				access);
		source.start(output);
		sink.start();
		try {
			sink.handleMessage(ModuleMessages.of("kept"));
			await().atMost(10, TimeUnit.SECONDS).until(() -> output.messages.size() == 1);
		}
		finally {
			sink.stop();
			source.stop();
		}
		assertThat(output.payloads()).containsExactly("kept");
		// retained: a subscriber that comes later still gets it
		BlockingQueue<MqttMessage> later = subscribe("secure/data");
		MqttMessage retained = later.poll(10, TimeUnit.SECONDS);
		assertThat(new String(retained.getPayload(), StandardCharsets.UTF_8)).isEqualTo("kept");
		assertThat(retained.isRetained()).isTrue();
		plain.unsubscribe("secure/data");
	}

	@Test
	void wrongCredentialsFailTheStartWithTheBrokersReason() {
		MqttSource source = ModuleFixtures.create(new MqttSource.Provider(), Map.of("connection", "wrong"), access);
		assertThatIllegalStateException().isThrownBy(() -> source.start(new ModuleFixtures.Collecting()))
			.withMessageContaining("The mqtt source cannot connect to connection 'wrong' (tcp://127.0.0.1:"
					+ server.securePort() + ")")
			.withMessageContaining("Not authorized")
			.withMessageNotContaining("not-it");
		MqttSink anonymous = ModuleFixtures.create(new MqttSink.Provider(),
				Map.of("url", "tcp://127.0.0.1:" + server.securePort()), access);
		assertThatIllegalStateException().isThrownBy(anonymous::start).withMessageContaining("Not authorized");
	}

	@Test
	void literalUrlOfAnAllowedHostWorksAndOthersAreRefused() throws Exception {
		BlockingQueue<MqttMessage> received = subscribe("literal/out");
		MqttSink sink = ModuleFixtures.create(new MqttSink.Provider(),
				Map.of("url", server.url(), "topic", "literal/out", "qos", "0"), access);
		sink.start();
		try {
			sink.handleMessage(ModuleMessages.of("via url"));
		}
		finally {
			sink.stop();
		}
		assertThat(new String(received.poll(10, TimeUnit.SECONDS).getPayload(), StandardCharsets.UTF_8))
			.isEqualTo("via url");
		plain.unsubscribe("literal/out");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new MqttSink.Provider(),
					Map.of("url", "tcp://localhost:" + server.port()), access))
			.withMessageContaining("option 'url': 'localhost:" + server.port() + "' is refused");
	}

	@Test
	void aFailedSendLeavesAQos1MessageToBeDeliveredAgainInAKeptSession() throws Exception {
		java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
		ModuleFixtures.Collecting delivered = new ModuleFixtures.Collecting();
		MqttSource source = ModuleFixtures.create(new MqttSource.Provider(), Map.of("topics", "jobs", "qos", "1",
				"cleanSession", "false", "clientId", "kept-session"), access);
		source.start((message, timeout) -> {
			if (attempts.incrementAndGet() == 1) {
				throw new org.springframework.messaging.MessageDeliveryException(message, "downstream failed");
			}
			return delivered.send(message, timeout);
		});
		try {
			plain.publish("jobs", "job 1".getBytes(StandardCharsets.UTF_8), 1, false);
			await().atMost(20, TimeUnit.SECONDS).until(() -> delivered.messages.size() == 1);
		}
		finally {
			source.stop();
		}
		assertThat(attempts.get()).isGreaterThanOrEqualTo(2);
		assertThat(delivered.payloads()).containsExactly("job 1");
	}
}
