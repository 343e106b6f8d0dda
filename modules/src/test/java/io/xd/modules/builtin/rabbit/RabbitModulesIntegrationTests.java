package io.xd.modules.builtin.rabbit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;
import io.xd.modules.builtin.servers.RabbitServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/** The rabbit source and sink against a RabbitMQ broker started for this class, checked with RabbitMQ's own client. */
class RabbitModulesIntegrationTests {

	private static RabbitServer server;

	private static com.rabbitmq.client.Connection plain;

	private static HostAccess access;

	@BeforeAll
	static void startBroker() throws Exception {
		server = RabbitServer.start();
		ConnectionFactory factory = new ConnectionFactory();
		factory.setHost("127.0.0.1");
		factory.setPort(server.port());
		plain = factory.newConnection();
		access = HostAccess.defaults(ModuleContext.defaultDataDirectory())
			.withConnections(Map.of("rabbit", new Connection("127.0.0.1", server.port(), "guest", "guest", false, Map.of()),
					"wrong", new Connection("127.0.0.1", server.port(), "guest", "not-the-password", false, Map.of())))
			.withConnectHosts(List.of("127.0.0.1"));
	}

	@AfterAll
	static void stopBroker() throws Exception {
		if (plain != null) {
			plain.close();
		}
		if (server != null) {
			server.close();
		}
	}

	private static void declareQueue(String queue) throws Exception {
		try (Channel channel = plain.createChannel()) {
			channel.queueDeclare(queue, true, false, false, null);
		}
	}

	private static void publish(String queue, String contentType, byte[] body) throws Exception {
		try (Channel channel = plain.createChannel()) {
			channel.basicPublish("", queue, new AMQP.BasicProperties.Builder().contentType(contentType).deliveryMode(2).build(), body);
		}
	}

	private static long ready(String queue) throws Exception {
		try (Channel channel = plain.createChannel()) {
			return channel.queueDeclarePassive(queue).getMessageCount();
		}
	}

	private static GetResponse get(String queue) throws Exception {
		try (Channel channel = plain.createChannel()) {
			GetResponse[] response = new GetResponse[1];
			await().atMost(10, TimeUnit.SECONDS).until(() -> (response[0] = channel.basicGet(queue, true)) != null);
			return response[0];
		}
	}

	@Test
	void sourceSendsTextAsStringsAndAnythingElseAsBytes() throws Exception {
		declareQueue("orders");
		publish("orders", "text/plain", "order 1".getBytes(StandardCharsets.UTF_8));
		publish("orders", "application/octet-stream", new byte[] { 1, 2, 3 });
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		RabbitSource source = ModuleFixtures.create(new RabbitSource.Provider(), Map.of("queues", "orders"), access);
		source.start(output);
		try {
			await().atMost(10, TimeUnit.SECONDS).until(() -> output.messages.size() == 2);
		}
		finally {
			source.stop();
		}
		assertThat(output.payloads().get(0)).isEqualTo("order 1");
		assertThat(output.payloads().get(1)).isEqualTo(new byte[] { 1, 2, 3 });
		Message<?> first = output.messages.get(0);
		assertThat(first.getHeaders()).containsEntry("amqp_consumerQueue", "orders")
			.containsEntry("contentType", "text/plain");
		assertThat(first.getHeaders()).containsEntry("amqp_receivedDeliveryMode", "PERSISTENT");
		assertThat(ready("orders")).isZero();
	}

	@Test
	void sourceAcknowledgesOnlyAfterTheSendDownstreamSoAFailedSendIsRedelivered() throws Exception {
		declareQueue("payments");
		publish("payments", "text/plain", "pay 1".getBytes(StandardCharsets.UTF_8));
		AtomicInteger attempts = new AtomicInteger();
		List<Message<?>> delivered = Collections.synchronizedList(new ArrayList<>());
		MessageChannel flaky = (message, timeout) -> {
			if (attempts.incrementAndGet() == 1) {
				throw new MessageDeliveryException(message, "downstream failed");
			}
			delivered.add(message);
			return true;
		};
		RabbitSource source = ModuleFixtures.create(new RabbitSource.Provider(), Map.of("queues", "payments"), access);
		source.start(flaky);
		try {
			await().atMost(10, TimeUnit.SECONDS).until(() -> delivered.size() == 1);
		}
		finally {
			source.stop();
		}
		assertThat(attempts).hasValue(2);
		assertThat(delivered.get(0).getPayload()).isEqualTo("pay 1");
		assertThat(delivered.get(0).getHeaders()).containsEntry("amqp_redelivered", true);
		assertThat(ready("payments")).isZero();
	}

	@Test
	void sourceWithoutRequeueDropsAMessageWhoseSendFailed() throws Exception {
		declareQueue("dropped");
		publish("dropped", "text/plain", "once".getBytes(StandardCharsets.UTF_8));
		AtomicInteger attempts = new AtomicInteger();
		RabbitSource source = ModuleFixtures.create(new RabbitSource.Provider(),
				Map.of("queues", "dropped", "requeue", "false"), access);
		source.start((message, timeout) -> {
			attempts.incrementAndGet();
			throw new MessageDeliveryException(message, "downstream failed");
		});
		try {
			await().atMost(10, TimeUnit.SECONDS).until(() -> attempts.get() == 1);
			Thread.sleep(300);
		}
		finally {
			source.stop();
		}
		assertThat(attempts).hasValue(1);
		assertThat(ready("dropped")).isZero();
	}

	@Test
	void sourceFailsToStartOnAMissingQueueOrWrongCredentials() {
		RabbitSource missing = ModuleFixtures.create(new RabbitSource.Provider(), Map.of("queues", "no-such-queue"),
				access);
		assertThatIllegalStateException().isThrownBy(() -> missing.start(new ModuleFixtures.Collecting()))
			.withMessageContaining("cannot consume queue 'no-such-queue' on connection 'rabbit'")
			.withMessageContaining("NOT_FOUND");
		RabbitSource wrong = ModuleFixtures.create(new RabbitSource.Provider(),
				Map.of("queues", "orders", "connection", "wrong"), access);
		assertThatIllegalStateException().isThrownBy(() -> wrong.start(new ModuleFixtures.Collecting()))
			.withMessageContaining("cannot connect to connection 'wrong' (127.0.0.1:" + server.port())
			.withMessageContaining("ACCESS_REFUSED")
			.withMessageNotContaining("not-the-password");
	}

	@Test
	void sinkPublishesToAnExchangeWithTheRoutingKey() throws Exception {
		try (Channel channel = plain.createChannel()) {
			channel.exchangeDeclare("shop", "topic");
			channel.queueDeclare("eu-orders", false, false, false, null);
			channel.queueBind("eu-orders", "shop", "orders.eu");
		}
		RabbitSink sink = ModuleFixtures.create(new RabbitSink.Provider(),
				Map.of("exchange", "shop", "routingKey", "orders.eu"), access);
		sink.start();
		try {
			sink.handleMessage(MessageBuilder.withPayload("order 7").setHeader("amqp_correlationId", "c-7").build());
			sink.handleMessage(ModuleMessages.of(new byte[] { 9, 8 }));
		}
		finally {
			sink.stop();
		}
		GetResponse text = get("eu-orders");
		assertThat(new String(text.getBody(), StandardCharsets.UTF_8)).isEqualTo("order 7");
		assertThat(text.getProps().getContentType()).isEqualTo("text/plain");
		assertThat(text.getProps().getDeliveryMode()).isEqualTo(2);
		assertThat(text.getProps().getCorrelationId()).isEqualTo("c-7");
		assertThat(text.getEnvelope().getRoutingKey()).isEqualTo("orders.eu");
		assertThat(get("eu-orders").getBody()).containsExactly(9, 8);
	}

	@Test
	void sinkTakesTheRoutingKeyFromAnExpressionOrTheStreamName() throws Exception {
		declareQueue("region-north");
		declareQueue(ModuleFixturesStream.NAME);
		RabbitSink byHeader = ModuleFixtures.create(new RabbitSink.Provider(),
				Map.of("routingKeyExpression", "'region-' + headers['region']", "deliveryMode", "NON_PERSISTENT"), access);
		byHeader.start();
		RabbitSink byStream = ModuleFixtures.create(new RabbitSink.Provider(), Map.of(), access);
		byStream.start();
		try {
			byHeader.handleMessage(MessageBuilder.withPayload("cold").setHeader("region", "north").build());
			byStream.handleMessage(ModuleMessages.of("to the stream's queue"));
		}
		finally {
			byHeader.stop();
			byStream.stop();
		}
		GetResponse north = get("region-north");
		assertThat(new String(north.getBody(), StandardCharsets.UTF_8)).isEqualTo("cold");
		assertThat(north.getProps().getDeliveryMode()).isEqualTo(1);
		assertThat(new String(get(ModuleFixturesStream.NAME).getBody(), StandardCharsets.UTF_8))
			.isEqualTo("to the stream's queue");
	}

	@Test
	void sinkFailsToStartOnAMissingExchange() {
		RabbitSink sink = ModuleFixtures.create(new RabbitSink.Provider(), Map.of("exchange", "no-such-exchange"),
				access);
		assertThatIllegalStateException().isThrownBy(sink::start)
			.withMessageContaining("cannot publish to exchange 'no-such-exchange' on connection 'rabbit'")
			.withMessageContaining("NOT_FOUND");
	}

	@Test
	void literalAddressesOfAnAllowedHostCarryARoundTrip() throws Exception {
		declareQueue("round-trip");
		String addresses = "127.0.0.1:" + server.port();
		RabbitSink sink = ModuleFixtures.create(new RabbitSink.Provider(),
				Map.of("addresses", addresses, "routingKey", "'round-trip'"), access);
		ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();
		RabbitSource source = ModuleFixtures.create(new RabbitSource.Provider(),
				Map.of("addresses", addresses, "queues", "round-trip", "concurrency", "2", "prefetch", "10"), access);
		sink.start();
		source.start(output);
		try {
			for (int i = 0; i < 20; i++) {
				sink.handleMessage(ModuleMessages.of("m" + i));
			}
			await().atMost(10, TimeUnit.SECONDS).until(() -> output.messages.size() == 20);
		}
		finally {
			sink.stop();
			source.stop();
		}
		assertThat(output.payloads()).hasSize(20).contains("m0", "m19");
	}

	@Test
	void refusesAHostTheOperatorDidNotAllowBeforeConnecting() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new RabbitSink.Provider(),
					Map.of("addresses", "localhost:" + server.port()), access))
			.withMessageContaining("option 'addresses': 'localhost:" + server.port() + "' is refused");
	}

	/** The stream name the fixtures give modules, whose queue the sink uses when no routing key is given. */
	private static final class ModuleFixturesStream {

		static final String NAME = "teststream";
	}
}
