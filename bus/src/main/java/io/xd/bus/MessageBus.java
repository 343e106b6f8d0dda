package io.xd.bus;

import java.util.function.BooleanSupplier;

import org.springframework.messaging.MessageHandler;

import io.xd.core.BindingKeys;

/**
 * Carries messages between the modules of streams: the transport SPI that every bus (local, Kafka) implements and
 * that the shared contract tests check.
 * <p>
 * Channel names follow {@link io.xd.core.ChannelNames}. A point-to-point channel (an anonymous pipe or a
 * {@code queue:}) gives each message to one of its consumers; a publish-subscribe channel (a {@code topic:} or a
 * tap) gives each message to every consumer group, and to one consumer within a group. Producers and consumers
 * may bind in any order; what a bus does with messages sent before any consumer binds is part of its contract
 * (the local bus queues them on named channels and rejects them on anonymous pipes).
 * <p>
 * Consumers are called on threads of the bus's choosing (for a direct binding, the producer's thread), possibly
 * concurrently when a channel has several consumers. A consumer that throws has not handled the message: the bus
 * either returns the failure to the producer (direct binding) or retries it and then moves it to an error path;
 * it never drops it silently.
 * <p>
 * All methods are thread-safe. Binding methods throw {@link IllegalArgumentException} for a malformed name or an
 * unsupported property, and never block for long.
 */
public interface MessageBus extends AutoCloseable {

	/**
	 * Binds the sending end of a point-to-point channel.
	 * @param name an anonymous pipe or a {@code queue:} channel
	 * @param tapName the tap channel on which this producer's messages are also published while the tap has
	 * subscribers, or {@code null} for none
	 */
	ProducerBinding bindProducer(String name, String tapName, BindingProperties properties);

	/**
	 * Binds the sending end of a point-to-point channel as {@link #bindProducer(String, String, BindingProperties)}
	 * does, with {@code counter} counting every message the channel accepts. By default the channel counts each
	 * message once the bus has taken it; a bus that binds directly may count a hop once for both ends instead
	 * ({@link DirectConsumer}).
	 * @param counter what counts the sends, or {@code null} for none
	 */
	default ProducerBinding bindProducer(String name, String tapName, BindingProperties properties,
			SendCounter counter) {
		return CountedProducerBinding.of(bindProducer(name, tapName, properties), counter);
	}

	/** Binds a consumer of a point-to-point channel. */
	Binding bindConsumer(String name, MessageHandler handler, BindingProperties properties);

	/**
	 * Binds the sending end of a publish-subscribe channel ({@code topic:} or tap).
	 * @param tapName as for {@link #bindProducer}: the tap channel on which this producer's messages are also
	 * published while the tap has subscribers, or {@code null} for none; an untapped producer writes each message
	 * once
	 */
	ProducerBinding bindPubSubProducer(String name, String tapName, BindingProperties properties);

	/**
	 * Binds the sending end of a publish-subscribe channel as
	 * {@link #bindPubSubProducer(String, String, BindingProperties)} does, with {@code counter} counting every
	 * message the channel accepts.
	 * @param counter what counts the sends, or {@code null} for none
	 */
	default ProducerBinding bindPubSubProducer(String name, String tapName, BindingProperties properties,
			SendCounter counter) {
		return CountedProducerBinding.of(bindPubSubProducer(name, tapName, properties), counter);
	}

	/**
	 * Binds a consumer of a publish-subscribe channel.
	 * @param group consumers with the same group share the messages; {@code null} makes an anonymous group of
	 * this consumer alone, which receives only what is published after it binds
	 */
	Binding bindPubSubConsumer(String name, String group, MessageHandler handler, BindingProperties properties);

	/**
	 * The binding properties this bus accepts; a binding given any other key fails with
	 * {@link IllegalArgumentException}. The same declaration is available without a bus instance from
	 * {@link Transport#bindingKeys()}, for an admin that checks deployments of streams it does not run.
	 */
	BindingKeys bindingKeys();

	/**
	 * Lets the consumers of this bus hand messages to their modules only while {@code mayHandle} says so: a container
	 * that may have lost its place in the cluster (its lease on its ZooKeeper session ran out) must not handle messages
	 * that the module's next owner will handle too. A consumer asks before each batch it hands over; while the answer
	 * is no, it hands over nothing and leaves the messages to be delivered again (to itself later, or to whoever owns
	 * them then), and stopping it does not wait to commit. By default (the local bus, in one process) it does nothing.
	 */
	default void fence(BooleanSupplier mayHandle) {
	}

	/** Unbinds everything and releases the bus's threads and connections. */
	@Override
	void close();
}
