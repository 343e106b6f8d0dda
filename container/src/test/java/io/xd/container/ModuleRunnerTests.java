package io.xd.container;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.support.ErrorMessage;
import org.springframework.messaging.support.GenericMessage;

import io.xd.bus.BindingProperties;
import io.xd.bus.ConsumerFailedException;
import io.xd.bus.ProducerBinding;
import io.xd.bus.local.LocalMessageBus;
import io.xd.container.ModuleRunner.RunningModule;
import io.xd.core.ChannelNames;
import io.xd.core.cluster.ModuleDeployment;
import io.xd.core.cluster.ModuleDeploymentProperties;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.Sink;
import io.xd.modules.Source;
import io.xd.modules.builtin.ThroughputSink;
import io.xd.modules.internal.CustomModule;
import io.xd.modules.internal.ModuleJar;
import io.xd.modules.internal.ModuleRegistry;
import io.xd.modules.internal.TestJars;
import io.xd.modules.internal.metrics.EndToEndLatency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** The module runner on the local bus, with modules of the test's own: no ZooKeeper, no broker. */
class ModuleRunnerTests {

	private final LocalMessageBus bus = new LocalMessageBus();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final ModuleRunner runner = new ModuleRunner(new ModuleRegistry(List.of(
			new TestProvider(ModuleType.SOURCE, "emitter", Emitter::new),
			new TestProvider(ModuleType.PROCESSOR, "upper", UpperCase::new),
			new TestProvider(ModuleType.SINK, "collector", Collector::new),
			new TestProvider(ModuleType.PROCESSOR, "broken", Broken::new),
			new TestProvider(ModuleType.SINK, "failing", Failing::new),
			new TestProvider(ModuleType.SINK, "timed", Timed::new))), this.bus, this.meters,
			ModuleContext.defaultDataDirectory());

	@AfterEach
	void close() {
		this.bus.close();
	}

	@Test
	void deployedModulesAreDirectlyBoundAndMetered() {
		RunningModule sink = this.runner.deploy(deployment("collector", ModuleType.SINK, 2, pipe(1), null, null));
		RunningModule processor = this.runner.deploy(deployment("upper", ModuleType.PROCESSOR, 1, pipe(0), pipe(1),
				null));
		RunningModule source = this.runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, pipe(0), null));

		((Emitter) source.module()).emit("abc");

		assertThat(((Collector) sink.module()).received).containsExactly("ABC");
		assertThat(this.meters.get("xd.module.messages.in").tag("module", "upper").functionCounter().count())
			.isEqualTo(1);
		assertThat(this.meters.get("xd.module.messages.out").tag("module", "upper").functionCounter().count())
			.isEqualTo(1);
	}

	@Test
	void metersCountEveryMessageOfSeveralProducingThreadsAndTimeEachThreadsFirst() throws Exception {
		RunningModule sink = this.runner.deploy(deployment("collector", ModuleType.SINK, 1, pipe(0), null, null));
		RunningModule source = this.runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, pipe(0), null));
		Emitter emitter = (Emitter) source.module();
		int threads = 4;
		int each = ModuleMeters.SAMPLED_ONE_IN + 10;
		List<Thread> producers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			producers.add(new Thread(() -> {
				for (int i = 0; i < each; i++) {
					emitter.emit("ab");
				}
			}));
		}
		producers.forEach(Thread::start);
		for (Thread producer : producers) {
			producer.join();
		}

		assertThat(((Collector) sink.module()).received).hasSize(threads * each);
		assertThat(sink.meters().messagesIn()).isEqualTo(threads * each);
		assertThat(source.meters().messagesOut()).isEqualTo(threads * each);
		assertThat(this.meters.get("xd.module.bytes.in").tag("module", "collector").functionCounter().count())
			.isEqualTo(2.0 * threads * each);
		// each thread's first message, and its 1 025th
		assertThat(this.meters.get("xd.module.handling").tag("module", "collector").timer().count())
			.isEqualTo(2L * threads);
	}

	@Test
	void aDirectHopStaysExactlyCountedAtBothEndsWhileItsWiringChanges() {
		String tap = ChannelNames.streamTap("s", "emitter", 0);
		RunningModule first = this.runner.deploy(deployment("collector", ModuleType.SINK, 1, pipe(0), null, null));
		RunningModule source = this.runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, pipe(0), tap));
		Emitter emitter = (Emitter) source.module();
		emitter.emit("a");
		emitter.emit("b");
		// a tap subscriber arrives: the producer is rewired to the consumer and the tap
		List<Object> onTap = new CopyOnWriteArrayList<>();
		var tapping = this.bus.bindPubSubConsumer(tap, "tapper", message -> onTap.add(message.getPayload()),
				BindingProperties.NONE);
		emitter.emit("c");
		await().atMost(5, TimeUnit.SECONDS).until(() -> onTap.size() == 1);
		tapping.unbind();
		// the sink is replaced: the producer is rewired to the new one, then to a second consumer beside it
		first.undeploy();
		RunningModule second = this.runner.deploy(deployment("collector", ModuleType.SINK, 1, pipe(0), null, null));
		emitter.emit("d");
		List<Object> other = new CopyOnWriteArrayList<>();
		var beside = this.bus.bindConsumer(pipe(0), message -> other.add(message.getPayload()), BindingProperties.NONE);
		emitter.emit("e");
		emitter.emit("f");
		beside.unbind();
		emitter.emit("g");

		assertThat(((Collector) first.module()).received).containsExactly("a", "b", "c");
		assertThat(first.meters().messagesIn()).isEqualTo(3);
		assertThat(((Collector) second.module()).received).hasSize(3).contains("d", "g");
		assertThat(second.meters().messagesIn()).isEqualTo(3);
		assertThat(other).hasSize(1);
		assertThat(source.meters().messagesOut()).isEqualTo(7);
		assertThat(this.meters.get("xd.module.messages.out").tag("module", "emitter").functionCounter().count())
			.isEqualTo(7);
		assertThat(this.meters.get("xd.module.bytes.out").tag("module", "emitter").functionCounter().count())
			.isEqualTo(7);
		assertThat(this.meters.get("xd.module.messages.in").tag("module", "collector").functionCounter().count())
			.as("the deployed collector's meter").isEqualTo(3);
	}

	@Test
	void aDeletedCustomModuleRunsOnAndReleasesItsClassLoaderWhenItsLastInstanceIsUndeployed(@TempDir Path dir) {
		ModuleRegistry registry = new ModuleRegistry(List.of(
				new TestProvider(ModuleType.SOURCE, "emitter", Emitter::new),
				new TestProvider(ModuleType.SINK, "collector", Collector::new)));
		Path jar = TestJars.suffixProcessor("2").writeTo(dir.resolve("suffix.jar"));
		registry.register(ModuleJar.load(jar, ModuleType.PROCESSOR, "suffix", "abc"));
		CustomModule custom = registry.findCustom(ModuleType.PROCESSOR, "suffix").orElseThrow();
		ModuleRunner runner = new ModuleRunner(registry, this.bus, this.meters, dir);
		RunningModule sink = runner.deploy(deployment("collector", ModuleType.SINK, 2, pipe(1), null, null));
		RunningModule processor = runner.deploy(deployment("suffix", ModuleType.PROCESSOR, 1, pipe(0), pipe(1), null));
		RunningModule source = runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, pipe(0), null));

		((Emitter) source.module()).emit("a");
		registry.unregister(ModuleType.PROCESSOR, "suffix");
		((Emitter) source.module()).emit("b");

		assertThat(((Collector) sink.module()).received).containsExactly("a-2", "b-2");
		assertThat(custom.isClosed()).as("closed while an instance runs").isFalse();
		processor.undeploy();
		assertThat(custom.isClosed()).isTrue();
		assertThatThrownBy(() -> runner.deploy(deployment("suffix", ModuleType.PROCESSOR, 1, pipe(0), pipe(1), null)))
			.hasMessage("Could not find module with name 'suffix' and type 'processor'");
	}

	@Test
	void aDirectlyBoundSinkThatThrowsCountsTheErrorAloneAndPublishesItToTheErrorsTopic() {
		RunningModule failing = this.runner.deploy(deployment("failing", ModuleType.SINK, 2, pipe(1), null, null));
		this.runner.deploy(deployment("upper", ModuleType.PROCESSOR, 1, pipe(0), pipe(1), null));
		RunningModule source = this.runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, pipe(0), null));

		// nothing subscribes to the errors topic: the failure is still counted
		assertThatThrownBy(() -> ((Emitter) source.module()).emit("a")).isInstanceOf(ConsumerFailedException.class);
		assertThat(errors("failing")).isEqualTo(1);
		assertThat(errors("upper")).as("the processor passed the failure back; it did not fail").isZero();
		// over a direct binding, a message the next module failed on counts as sent, and as that module's input
		assertThat(this.meters.get("xd.module.messages.out").tag("module", "upper").functionCounter().count())
			.isEqualTo(1);
		assertThat(this.meters.get("xd.module.messages.in").tag("module", "failing").functionCounter().count())
			.isEqualTo(1);

		List<Message<?>> errorTopic = new CopyOnWriteArrayList<>();
		this.bus.bindPubSubConsumer(LocalMessageBus.ERRORS, null, errorTopic::add, BindingProperties.NONE);
		assertThatThrownBy(() -> ((Emitter) source.module()).emit("b")).isInstanceOf(ConsumerFailedException.class);
		await().atMost(5, TimeUnit.SECONDS).until(() -> errorTopic.size() == 1);
		ErrorMessage error = (ErrorMessage) errorTopic.get(0);
		assertThat(error.getPayload()).hasRootCauseMessage("cannot store B");
		assertThat(error.getOriginalMessage().getPayload()).isEqualTo("B");
		assertThat(errors("failing")).isEqualTo(2);
		assertThat(errors("upper")).isZero();
		// what went to the errors topic counts as the failing module's dead letters, whether or not anyone listened
		assertThat(deadLetters("failing")).isEqualTo(2);
		assertThat(deadLetters("upper")).isZero();
		assertThat(failing.meters().lastError().cause()).hasMessage("cannot store B");
		assertThat(failing.meters().lastError().time()).isCloseTo(System.currentTimeMillis(), within(5_000L));
		assertThat(failing.meters().rates().errors()).isPositive();
	}

	@Test
	void aSinkOnAQueueThatThrowsCountsTheErrorAndPublishesItToTheErrorsTopic() {
		List<Message<?>> errorTopic = new CopyOnWriteArrayList<>();
		this.bus.bindPubSubConsumer(LocalMessageBus.ERRORS, null, errorTopic::add, BindingProperties.NONE);
		this.runner.deploy(deployment("failing", ModuleType.SINK, 0, "queue:work", null, null));
		ProducerBinding producer = this.bus.bindProducer("queue:work", null, BindingProperties.NONE);

		producer.channel().send(new GenericMessage<>("C"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> errorTopic.size() == 1);
		assertThat(((ErrorMessage) errorTopic.get(0)).getPayload()).hasRootCauseMessage("cannot store C");
		assertThat(errors("failing")).isEqualTo(1);
		assertThat(deadLetters("failing")).isEqualTo(1);
	}

	private double errors(String module) {
		return this.meters.get("xd.module.errors").tag("module", module).functionCounter().count();
	}

	private double deadLetters(String module) {
		return this.meters.get("xd.module.dead.letters").tag("module", module).functionCounter().count();
	}

	@Test
	void aSinkThatMeasuresLatencyHasItsPercentilesPublishedAsMeters() {
		RunningModule timed = this.runner.deploy(deployment("timed", ModuleType.SINK, 1, pipe(0), null, null));
		// Micrometer holds a gauge's object weakly: the percentiles must outlive a collection
		System.gc();
		assertThat(this.meters.get("xd.module.latency").tag("module", "timed").tag("quantile", "0.99").timeGauge()
			.value(TimeUnit.MICROSECONDS)).isEqualTo(990);
		assertThat(this.meters.get("xd.module.latency").tag("quantile", "1.0").timeGauge()
			.value(TimeUnit.MICROSECONDS)).isEqualTo(5000);
		assertThat(this.meters.get("xd.module.latency.messages").gauge().value()).isEqualTo(42);
		timed.undeploy();
		assertThat(this.meters.find("xd.module.latency").meters()).isEmpty();

		this.runner.deploy(deployment("collector", ModuleType.SINK, 1, pipe(1), null, null));
		assertThat(this.meters.find("xd.module.latency").meters()).as("a module that does not measure latency")
			.isEmpty();
	}

	@Test
	void aDeployedThroughputSinkReportsWhatItsInputMetersCountedAndTextInUtf8() {
		ModuleProvider throughput = ModuleRegistry.fromClassPath().find(ModuleType.SINK, "throughput").orElseThrow();
		ModuleRunner runner = new ModuleRunner(new ModuleRegistry(List.of(
				new TestProvider(ModuleType.SOURCE, "emitter", Emitter::new), throughput)), this.bus, this.meters,
				ModuleContext.defaultDataDirectory());
		// a direct hop from a module, and a queue fed by a producer that is not a module
		RunningModule piped = runner.deploy(deployment("throughput", ModuleType.SINK, 1, pipe(0), null, null));
		RunningModule source = runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, pipe(0), null));
		RunningModule queued = runner.deploy(new ModuleDeployment("q", "throughput", "throughput",
				ModuleType.SINK.toString(), 0, 1, Map.of(), ModuleDeploymentProperties.DEFAULTS, "queue:work", null,
				null));
		ProducerBinding producer = this.bus.bindProducer("queue:work", null, BindingProperties.NONE);

		Emitter emitter = (Emitter) source.module();
		emitter.emit("abc");
		emitter.emit("h\u00e9llo");
		emitter.emit("\u20ac");
		producer.channel().send(new GenericMessage<>(new byte[7]));
		producer.channel().send(new GenericMessage<>("\u00e9t\u00e9"));

		ThroughputSink.Totals direct = ((ThroughputSink) piped.module()).totals();
		assertThat(direct.messages()).isEqualTo(3);
		assertThat(direct.bytes()).as("UTF-8 lengths").isEqualTo(3 + 6 + 3);
		assertThat(this.meters.get("xd.module.bytes.in").tag("stream", "s").functionCounter().count())
			.as("the meter counts characters").isEqualTo(3 + 5 + 1);
		await().atMost(5, TimeUnit.SECONDS)
			.untilAsserted(() -> assertThat(((ThroughputSink) queued.module()).totals().messages()).isEqualTo(2));
		assertThat(((ThroughputSink) queued.module()).totals().bytes()).isEqualTo(7 + 5);
		assertThat(queued.meters().messagesIn()).isEqualTo(2);
	}

	@Test
	void anUnknownModuleIsRefusedWithItsNameAndType() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.runner.deploy(deployment("nope", ModuleType.SINK, 1, pipe(0), null, null)))
			.withMessage("Could not find module with name 'nope' and type 'sink'");
	}

	@Test
	void aModuleThatFailsToStartLeavesNothingBound() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.runner.deploy(deployment("broken", ModuleType.PROCESSOR, 1, pipe(0), pipe(1),
					null)))
			.withMessage("cannot start");
		// neither its input nor its output stays bound: a producer on its input finds no consumer, and the output
		// pipe can be taken by a new module
		ProducerBinding upstream = this.bus.bindProducer(pipe(0), null, BindingProperties.NONE);
		assertThatThrownBy(() -> upstream.channel().send(new GenericMessage<>("x")))
			.isInstanceOf(MessageDeliveryException.class)
			.hasMessageContaining("No consumer is bound");
		assertThat(this.meters.find("xd.module.messages.in").tag("module", "broken").functionCounter()).isNull();
	}

	@Test
	void undeployingUnbindsTheInputSoNothingMoreArrives() {
		RunningModule sink = this.runner.deploy(deployment("collector", ModuleType.SINK, 1, pipe(0), null, null));
		ProducerBinding upstream = this.bus.bindProducer(pipe(0), null, BindingProperties.NONE);
		upstream.channel().send(new GenericMessage<>("before"));
		sink.undeploy();
		sink.undeploy();
		assertThatThrownBy(() -> upstream.channel().send(new GenericMessage<>("after")))
			.isInstanceOf(MessageDeliveryException.class);
		assertThat(((Collector) sink.module()).received).containsExactly("before");
		assertThat(((Collector) sink.module()).stopped).isTrue();
		assertThat(this.meters.find("xd.module.messages.in").tag("module", "collector").functionCounter()).isNull();
	}

	@Test
	void aModuleWritingToANamedTopicPublishesToItsTapOnlyWhileTapped() {
		String topic = ChannelNames.TOPIC_PREFIX + "out";
		String tap = ChannelNames.streamTap("s", "emitter", 0);
		List<Object> onTopic = new CopyOnWriteArrayList<>();
		List<Object> onTap = new CopyOnWriteArrayList<>();
		this.bus.bindPubSubConsumer(topic, "reader", message -> onTopic.add(message.getPayload()),
				BindingProperties.NONE);
		RunningModule source = this.runner.deploy(deployment("emitter", ModuleType.SOURCE, 0, null, topic, tap));
		Emitter emitter = (Emitter) source.module();

		emitter.emit("untapped");
		var tapping = this.bus.bindPubSubConsumer(tap, "tapper", message -> onTap.add(message.getPayload()),
				BindingProperties.NONE);
		emitter.emit("tapped");
		// a tap group's queue is drained by its own thread: unbinding before it took the message would drop it
		org.awaitility.Awaitility.await().until(() -> onTap.size() == 1);
		tapping.unbind();
		emitter.emit("untapped again");

		org.awaitility.Awaitility.await().until(() -> onTopic.size() == 3);
		assertThat(onTopic).containsExactly("untapped", "tapped", "untapped again");
		assertThat(onTap).containsExactly("tapped");
	}

	private static String pipe(int index) {
		return ChannelNames.pipe("s", index);
	}

	private static ModuleDeployment deployment(String name, ModuleType type, int index, String input, String output,
			String tap) {
		return new ModuleDeployment("s", name, name, type.toString(), index, 1, Map.of(),
				ModuleDeploymentProperties.DEFAULTS, input, output, tap);
	}

	/** A source that sends when the test tells it to. */
	static final class Emitter implements Source {

		private MessageChannel output;

		@Override
		public void start(MessageChannel output) {
			this.output = output;
		}

		void emit(String payload) {
			this.output.send(new GenericMessage<>(payload));
		}
	}

	static final class Collector implements Sink {

		final List<Object> received = new CopyOnWriteArrayList<>();

		volatile boolean stopped;

		@Override
		public void handleMessage(Message<?> message) {
			this.received.add(message.getPayload());
		}

		@Override
		public void stop() {
			this.stopped = true;
		}
	}

	static final class Timed implements Sink, EndToEndLatency {

		@Override
		public Percentiles endToEndLatency() {
			return new Percentiles(42, 500_000, 900_000, 990_000, 2_000_000, 5_000_000);
		}

		@Override
		public void handleMessage(Message<?> message) {
		}
	}

	static final class UpperCase implements Processor {

		private MessageChannel output;

		@Override
		public void start(MessageChannel output) {
			this.output = output;
		}

		@Override
		public void handleMessage(Message<?> message) {
			this.output.send(new GenericMessage<>(((String) message.getPayload()).toUpperCase()));
		}
	}

	static final class Broken implements Processor {

		@Override
		public void start(MessageChannel output) {
			throw new IllegalStateException("cannot start");
		}

		@Override
		public void handleMessage(Message<?> message) {
		}
	}

	/** A sink that fails on every message. */
	static final class Failing implements Sink {

		@Override
		public void handleMessage(Message<?> message) {
			throw new IllegalStateException("cannot store " + message.getPayload());
		}
	}

	/** A provider of a module of the test's own, without options. */
	private record TestProvider(ModuleMetadata metadata, Supplier<Module> factory) implements ModuleProvider {

		TestProvider(ModuleType type, String name, Supplier<Module> factory) {
			this(new ModuleMetadata(type, name, "a test module", List.of()), factory);
		}

		@Override
		public Module create(ModuleContext context) {
			return this.factory.get();
		}
	}
}
