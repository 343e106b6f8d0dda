package io.xd.bus.local;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.ErrorMessage;

import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.ConsumerFailedException;
import io.xd.bus.DeadLetterCounter;
import io.xd.bus.DirectConsumer;
import io.xd.bus.FailureLog;
import io.xd.bus.MessageBus;
import io.xd.bus.ProducerBinding;
import io.xd.bus.SendCounter;
import io.xd.core.BindingKeys;
import io.xd.core.ChannelNames;

/**
 * The message bus inside one JVM.
 * <ul>
 * <li><b>Anonymous pipes</b> ({@code <stream>.<n>}) are <em>direct bindings</em>: the producer's {@code send} calls
 * the consumer on the producer's thread, with no queue, no copy, no header added and no allocation by the bus. A
 * consumer's failure is reported (see below), then thrown back to the producer as a
 * {@link ConsumerFailedException} whose cause is the consumer's exception; through a chain of directly bound
 * modules it is reported once, where it happened. Sending before a consumer binds is rejected; several consumers of
 * one pipe take turns.</li>
 * <li><b>{@code queue:}</b> channels keep messages in a bounded queue until a consumer takes them, so a producer
 * may run before any consumer exists; consumers compete, each on a thread of its own.</li>
 * <li><b>{@code topic:}</b> channels and <b>taps</b> give every consumer group a copy, through a bounded queue per
 * group; what is published while a topic has no group is not kept. A named group whose last consumer unbinds (its
 * module redeployed, say) keeps the messages still queued for it, and hands them to the next consumer of the same
 * group, before what is published after it is back; what is published while it has no consumer is not kept. A
 * producer bound with a tap name publishes to the tap only while the tap has subscribers, so an untapped stream pays
 * nothing for taps.</li>
 * </ul>
 * Full queues block the producer rather than lose messages. A consumer that fails on a message, directly bound or
 * queued, has the failure logged and published, as an {@link ErrorMessage} carrying the exception and the message,
 * to {@value #ERRORS}, which any stream may consume ({@code topic:xd.errors > log}); like any topic, it keeps nothing
 * while no one consumes it. Each such message counts as a dead letter of its consumer (a handler that is a
 * {@link DeadLetterCounter}). The log has the first failure of each kind per channel with its stack trace, then a
 * line with the count at most every 30 s ({@link FailureLog}), rather than a stack trace per message. An {@link Error} (such as
 * {@link OutOfMemoryError}) is thrown as it is, unreported. The local bus accepts no binding properties.
 */
public final class LocalMessageBus implements MessageBus {

	/** The topic on which failures of queued deliveries are published. */
	public static final String ERRORS = "topic:xd.errors";

	/** Default capacity of each queue, in messages. */
	public static final int DEFAULT_QUEUE_CAPACITY = 10_000;

	private static final Logger logger = LoggerFactory.getLogger(LocalMessageBus.class);

	/** The local bus takes no binding properties: direct binding and in-JVM queues have nothing to tune. */
	public static final BindingKeys BINDING_KEYS = BindingKeys.none("local");

	private final int queueCapacity;

	private final Map<String, DirectPipe> pipes = new HashMap<>();

	private final Map<String, ConsumerGroup> queues = new HashMap<>();

	private final Map<String, Topic> topics = new HashMap<>();

	private final List<Binding> bindings = new ArrayList<>();

	/** The failure log of each channel whose consumers failed. */
	private final Map<String, FailureLog> failureLogs = new ConcurrentHashMap<>();

	private boolean closed;

	public LocalMessageBus() {
		this(DEFAULT_QUEUE_CAPACITY);
	}

	/** A bus whose {@code queue:}, {@code topic:} and tap queues hold at most {@code queueCapacity} messages. */
	public LocalMessageBus(int queueCapacity) {
		if (queueCapacity < 1) {
			throw new IllegalArgumentException("queueCapacity must be at least 1, but was " + queueCapacity);
		}
		this.queueCapacity = queueCapacity;
	}

	@Override
	public ProducerBinding bindProducer(String name, String tapName, BindingProperties properties) {
		return bindProducer(name, tapName, properties, null);
	}

	/**
	 * Binds a producer whose sends {@code counter} counts. While the producer is wired to a single directly bound
	 * consumer that is a {@link DirectConsumer}, that consumer counts each message once for both of them; otherwise
	 * the producer's channel counts each message the bus took.
	 */
	@Override
	public synchronized ProducerBinding bindProducer(String name, String tapName, BindingProperties properties,
			SendCounter counter) {
		checkOpen();
		requireName(name);
		properties.requireSupported(BINDING_KEYS, "LocalMessageBus", BindingKeys.Side.PRODUCER);
		if (ChannelNames.isPublishSubscribe(name)) {
			throw new IllegalArgumentException("'" + name + "' is a publish-subscribe channel: bind it with bindPubSubProducer");
		}
		LocalProducerBinding producer;
		if (ChannelNames.isQueue(name)) {
			ConsumerGroup queue = queue(name);
			producer = new LocalProducerBinding(this, name, tapName, queue::publish, counter);
		}
		else {
			DirectPipe pipe = this.pipes.computeIfAbsent(name, key -> new DirectPipe());
			producer = new LocalProducerBinding(this, name, tapName, null, counter);
			pipe.producers.add(producer);
		}
		if (tapName != null) {
			topic(tapName).tappedProducers.add(producer);
		}
		rewire(producer);
		return track(producer);
	}

	@Override
	public synchronized Binding bindConsumer(String name, MessageHandler handler, BindingProperties properties) {
		checkOpen();
		requireName(name);
		Objects.requireNonNull(handler, "handler");
		properties.requireSupported(BINDING_KEYS, "LocalMessageBus", BindingKeys.Side.CONSUMER);
		if (ChannelNames.isPublishSubscribe(name)) {
			throw new IllegalArgumentException("'" + name + "' is a publish-subscribe channel: bind it with bindPubSubConsumer");
		}
		if (ChannelNames.isQueue(name)) {
			Runnable remove = queue(name).addConsumer(handler);
			return track(new SimpleBinding(name, remove));
		}
		DirectPipe pipe = this.pipes.computeIfAbsent(name, key -> new DirectPipe());
		PipeConsumer consumer = new PipeConsumer(handler, reportingFailures(name, handler));
		pipe.consumers.add(consumer);
		pipe.producers.forEach(this::rewire);
		return track(new SimpleBinding(name, () -> {
			synchronized (this) {
				pipe.consumers.remove(consumer);
				pipe.producers.forEach(this::rewire);
			}
		}));
	}

	@Override
	public ProducerBinding bindPubSubProducer(String name, String tapName, BindingProperties properties) {
		return bindPubSubProducer(name, tapName, properties, null);
	}

	@Override
	public synchronized ProducerBinding bindPubSubProducer(String name, String tapName, BindingProperties properties,
			SendCounter counter) {
		checkOpen();
		requirePubSubName(name);
		properties.requireSupported(BINDING_KEYS, "LocalMessageBus", BindingKeys.Side.PRODUCER);
		Topic topic = topic(name);
		LocalProducerBinding producer = new LocalProducerBinding(this, name, tapName, topic::publish, counter);
		if (tapName != null) {
			topic(tapName).tappedProducers.add(producer);
		}
		rewire(producer);
		return track(producer);
	}

	@Override
	public BindingKeys bindingKeys() {
		return BINDING_KEYS;
	}

	@Override
	public synchronized Binding bindPubSubConsumer(String name, String group, MessageHandler handler,
			BindingProperties properties) {
		checkOpen();
		requirePubSubName(name);
		Objects.requireNonNull(handler, "handler");
		properties.requireSupported(BINDING_KEYS, "LocalMessageBus", BindingKeys.Side.CONSUMER);
		Topic topic = topic(name);
		String groupName = (group != null) ? group : "anonymous." + UUID.randomUUID();
		ConsumerGroup consumers = topic.groups.get(groupName);
		boolean newGroup = consumers == null;
		if (newGroup) {
			// a group back after its last consumer left finds the messages that were still queued for it
			consumers = topic.idleGroups.remove(groupName);
			if (consumers == null) {
				consumers = new ConsumerGroup(name, this.queueCapacity,
						(consumer, message, ex) -> failed(name, consumer, message, ex));
			}
			topic.groups.put(groupName, consumers);
			topic.refreshGroups();
			topic.tappedProducers.forEach(this::rewire);
		}
		ConsumerGroup joined = consumers;
		Runnable remove = joined.addConsumer(handler);
		return track(new SimpleBinding(name, () -> {
			remove.run();
			synchronized (this) {
				if (!joined.hasConsumers() && topic.groups.remove(groupName, joined)) {
					if (group != null && joined.backlog() > 0) {
						topic.idleGroups.put(groupName, joined);
					}
					topic.refreshGroups();
					topic.tappedProducers.forEach(this::rewire);
				}
			}
		}));
	}

	@Override
	public void close() {
		List<Binding> all;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			all = new ArrayList<>(this.bindings);
		}
		all.forEach(Binding::unbind);
	}

	/** Messages waiting in the queue of {@code queue:} channel {@code name}; 0 for a channel never bound. */
	public synchronized int backlog(String name) {
		ConsumerGroup queue = this.queues.get(name);
		return (queue != null) ? queue.backlog() : 0;
	}

	/** Unbinds a producer: takes it off its pipe and its tap; its channel rejects what it sends from then on. */
	synchronized void unbindProducer(LocalProducerBinding producer) {
		if (producer.unbound) {
			return;
		}
		producer.unbound = true;
		DirectPipe pipe = this.pipes.get(producer.name);
		if (pipe != null) {
			pipe.producers.remove(producer);
		}
		if (producer.tapName != null) {
			Topic tap = this.topics.get(producer.tapName);
			if (tap != null) {
				tap.tappedProducers.remove(producer);
			}
		}
		rewire(producer);
		this.bindings.remove(producer);
	}

	private void rewire(LocalProducerBinding producer) {
		if (producer.unbound) {
			producer.channel.wire(Targets.rejecting("Producer binding of '" + producer.name + "' is unbound"));
			return;
		}
		MessageHandler target = consumerCountingSends(producer);
		if (target == null) {
			target = primaryTarget(producer);
			if (producer.counter != null) {
				target = Targets.counting(target, producer.counter);
			}
		}
		// counted before the tap copy: a message its consumer took counts as sent even if the tap then fails
		if (producer.tapName != null) {
			Topic tap = this.topics.get(producer.tapName);
			if (tap != null && !tap.groups.isEmpty()) {
				target = Targets.tee(target, tap::publish);
			}
		}
		producer.channel.wire(target);
	}

	/**
	 * The producer's only directly bound consumer, counting the producer's sends with its own input (one count per
	 * hop), or {@code null} when the producer is not counted, or has no such consumer.
	 */
	private MessageHandler consumerCountingSends(LocalProducerBinding producer) {
		if (producer.counter == null || producer.publisher != null) {
			return null;
		}
		List<PipeConsumer> consumers = this.pipes.get(producer.name).consumers;
		if (consumers.size() == 1 && consumers.get(0).handler() instanceof DirectConsumer direct) {
			return reportingFailures(producer.name, direct.countingSendsOf(producer.counter));
		}
		return null;
	}

	private MessageHandler primaryTarget(LocalProducerBinding producer) {
		if (producer.publisher != null) {
			return producer.publisher;
		}
		DirectPipe pipe = this.pipes.get(producer.name);
		List<PipeConsumer> consumers = pipe.consumers;
		if (consumers.isEmpty()) {
			return Targets.rejecting("No consumer is bound to '" + producer.name + "'");
		}
		if (consumers.size() == 1) {
			return consumers.get(0).reporting();
		}
		return Targets.roundRobin(consumers.stream().map(PipeConsumer::reporting).toArray(MessageHandler[]::new));
	}

	private ConsumerGroup queue(String name) {
		return this.queues.computeIfAbsent(name,
				key -> new ConsumerGroup(key, this.queueCapacity,
						(consumer, message, ex) -> failed(key, consumer, message, ex)));
	}

	private Topic topic(String name) {
		return this.topics.computeIfAbsent(name, key -> new Topic());
	}

	/**
	 * A directly bound consumer whose failure is reported here, where it happened, and thrown back as a
	 * {@link ConsumerFailedException}; one that a consumer further down reported is thrown back as it is.
	 */
	private MessageHandler reportingFailures(String channel, MessageHandler consumer) {
		return message -> {
			try {
				consumer.handleMessage(message);
			}
			catch (RuntimeException ex) {
				if (ConsumerFailedException.isReported(ex)) {
					throw ex;
				}
				failed(channel, consumer, message, ex);
				throw new ConsumerFailedException(message, "A consumer of '" + channel
						+ "' failed to handle the message; the failure is published to " + ERRORS, ex);
			}
		};
	}

	/**
	 * Logs a consumer's failure (the first of its kind with the stack trace, then counted: {@link FailureLog}),
	 * publishes it to {@value #ERRORS} and counts it as a dead letter of the consumer ({@link DeadLetterCounter}).
	 */
	private void failed(String channel, MessageHandler consumer, Message<?> message, Throwable ex) {
		if (ConsumerFailedException.isReported(ex)) {
			// a directly bound consumer further down failed, and was reported there
			return;
		}
		this.failureLogs.computeIfAbsent(channel, key -> new FailureLog(logger))
			.failed("A consumer of '" + channel + "' failed to handle a message; it is published to " + ERRORS, ex);
		if (ERRORS.equals(channel)) {
			return;
		}
		if (consumer instanceof DeadLetterCounter counter) {
			counter.deadLettered(ex);
		}
		Topic errors;
		synchronized (this) {
			errors = this.topics.get(ERRORS);
		}
		if (errors != null) {
			errors.publish(new ErrorMessage(new MessageHandlingException(message,
					"A consumer of '" + channel + "' failed to handle the message", ex), Map.of("xd_channel", channel),
					message));
		}
	}

	private <B extends Binding> B track(B binding) {
		this.bindings.add(binding);
		return binding;
	}

	private void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("The local message bus is closed");
		}
	}

	private static void requireName(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("A channel name is required");
		}
	}

	private static void requirePubSubName(String name) {
		requireName(name);
		if (!ChannelNames.isPublishSubscribe(name)) {
			throw new IllegalArgumentException("'" + name + "' is not a publish-subscribe channel: its name must start with '"
					+ ChannelNames.TOPIC_PREFIX + "' or '" + ChannelNames.TAP_PREFIX + "'");
		}
	}

	private final class SimpleBinding implements Binding {

		private final String name;

		private final Runnable release;

		private boolean unbound;

		SimpleBinding(String name, Runnable release) {
			this.name = name;
			this.release = release;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public void unbind() {
			synchronized (this) {
				if (this.unbound) {
					return;
				}
				this.unbound = true;
			}
			this.release.run();
			synchronized (LocalMessageBus.this) {
				LocalMessageBus.this.bindings.remove(this);
			}
		}
	}
}
