package io.xd.container;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.GenericMessage;

import io.xd.bus.BindingProperties;
import io.xd.bus.MessageBus;
import io.xd.bus.ProducerBinding;
import io.xd.container.ModuleRunner.RunningModule;
import io.xd.core.ChannelNames;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The router sink deployed by the module runner on a real bus, routing to queues that other streams' sinks consume:
 * the same tests on the local bus ({@link RouterSinkLocalBusTests}) and on Kafka
 * ({@link RouterSinkKafkaBusIntegrationTests}), so that both transports behave the same.
 */
abstract class AbstractRouterSinkBusTests {

	/** Names of this run's queues, apart from any other run's on a shared broker. */
	protected final String prefix = "router" + UUID.randomUUID().toString().substring(0, 8);

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final List<RunningModule> deployed = new ArrayList<>();

	private final List<ProducerBinding> producers = new ArrayList<>();

	private MessageBus bus;

	private ModuleRunner runner;

	private RunningModule router;

	/** A new bus of the transport under test; closed after the test. */
	protected abstract MessageBus newBus();

	private ModuleRunner runner() {
		if (this.runner == null) {
			this.bus = newBus();
			ModuleProvider router = ModuleRegistry.fromClassPath().find(ModuleType.SINK, "router").orElseThrow();
			this.runner = new ModuleRunner(new ModuleRegistry(List.of(router, new CollectorProvider())), this.bus,
					this.meters, ModuleContext.defaultDataDirectory());
		}
		return this.runner;
	}

	@AfterEach
	void close() {
		this.producers.forEach(ProducerBinding::unbind);
		this.deployed.forEach(RunningModule::undeploy);
		if (this.bus != null) {
			this.bus.close();
		}
	}

	private String queue(String name) {
		return ChannelNames.QUEUE_PREFIX + this.prefix + "-" + name;
	}

	private Collector consumer(String stream, String queue) {
		RunningModule module = runner().deploy(new ModuleDeployment(stream, "collector", "collector",
				ModuleType.SINK.toString(), 0, 1, Map.of(), ModuleDeploymentProperties.DEFAULTS, queue, null, null));
		this.deployed.add(module);
		return (Collector) module.module();
	}

	/** Deploys a router fed by the pipe of stream "routing", and returns a producer on that pipe. */
	private ProducerBinding router(Map<String, String> options) {
		String input = ChannelNames.pipe(this.prefix + "-routing", 0);
		this.router = runner().deploy(new ModuleDeployment(this.prefix + "-routing", "router", "router",
				ModuleType.SINK.toString(), 1, 1, options, ModuleDeploymentProperties.DEFAULTS, input, null, null));
		this.deployed.add(this.router);
		ProducerBinding producer = this.bus.bindProducer(input, null, BindingProperties.NONE);
		this.producers.add(producer);
		return producer;
	}

	private void send(ProducerBinding producer, String payload) {
		try {
			producer.channel().send(new GenericMessage<>(payload));
		}
		catch (RuntimeException ex) {
			// over a direct binding the router's failure comes back to the producer; the bus has handled it
		}
	}

	@Test
	void routesEachMessageToTheQueuesItsExpressionNamesWhereOtherStreamsConsumeThem() {
		Collector urgent = consumer(this.prefix + "-urgent", queue("urgent"));
		Collector normal = consumer(this.prefix + "-normal", queue("normal"));
		ProducerBinding producer = router(Map.of("expression", "payload.contains('urgent') ? '" + queue("urgent")
				+ "' : '" + this.prefix + "-normal'"));

		send(producer, "urgent: fire");
		send(producer, "lunch");
		send(producer, "urgent: flood");

		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(urgent.received).containsExactly("urgent: fire", "urgent: flood"));
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(normal.received).containsExactly("lunch"));
		assertThat(this.router.meters().messagesOut()).as("what the router sent, counted as its output").isEqualTo(3);
	}

	@Test
	void mappedValuesGoToTheirDestinationsAndTheRestToTheDefaultOutputChannel() {
		Collector orders = consumer(this.prefix + "-orders", queue("orders"));
		Collector unrouted = consumer(this.prefix + "-unrouted", queue("unrouted"));
		ProducerBinding producer = router(Map.of("expression", "payload.split(':')[0]", "destinationMappings",
				"order=" + queue("orders"), "defaultOutputChannel", queue("unrouted")));

		send(producer, "order:1");
		send(producer, "refund:2");

		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(orders.received).containsExactly("order:1"));
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(unrouted.received).containsExactly("refund:2"));
	}

	@Test
	void aMessageWithoutDestinationIsAnErrorOfTheRouterOnTheBussErrorPath() {
		Collector orders = consumer(this.prefix + "-orders", queue("orders"));
		ProducerBinding producer = router(Map.of("expression", "payload.split(':')[0]", "destinationMappings",
				"order=" + queue("orders")));

		send(producer, "refund:2");
		send(producer, "order:1");

		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(orders.received).containsExactly("order:1"));
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(this.meters.get("xd.module.errors").tag("module", "router")
				.functionCounter()
				.count()).isPositive());
		assertThat(this.meters.get("xd.module.dead.letters").tag("module", "router").functionCounter().count())
			.isPositive();
		assertThat(orders.received).doesNotContain("refund:2");
	}

	/** A sink that keeps the payloads it receives. */
	static final class Collector implements Sink {

		final List<Object> received = new CopyOnWriteArrayList<>();

		@Override
		public void handleMessage(Message<?> message) {
			this.received.add(message.getPayload());
		}
	}

	private static final class CollectorProvider implements ModuleProvider {

		@Override
		public ModuleMetadata metadata() {
			return new ModuleMetadata(ModuleType.SINK, "collector", "collects", List.of());
		}

		@Override
		public Module create(ModuleContext context) {
			return new Collector();
		}
	}
}
