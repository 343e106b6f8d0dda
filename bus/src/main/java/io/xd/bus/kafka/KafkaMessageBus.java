package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.messaging.MessageHandler;

import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.MessageBus;
import io.xd.bus.ProducerBinding;
import io.xd.bus.SendCounter;
import io.xd.bus.local.LocalMessageBus;
import io.xd.core.BindingKeys;
import io.xd.core.ChannelNames;

/**
 * A {@link MessageBus} over Apache Kafka: each channel is a topic (named by
 * {@link KafkaTopicProvisioner#topicName}), so the modules of a stream may run in different processes on different
 * machines.
 * <ul>
 * <li>Point-to-point channels (pipes and {@code queue:}) are consumed by one consumer group per channel, starting
 * at the earliest offset, so nothing sent before the consumer binds is lost; partitions are spread over the
 * consumers of the group.</li>
 * <li>Publish-subscribe channels ({@code topic:} and taps) give each consumer group its own group id; a consumer
 * without a group gets a group of its own that starts at the end of the topic.</li>
 * <li>Delivery is at least once, with retries and dead-letter topics: see {@link KafkaConsumerBinding}; exactly once
 * per hop in transactional mode ({@link KafkaBusProperties#isTransactional()}, {@link PollTransaction}).</li>
 * <li>A producer with a tap also publishes to the tap's topic while a tap consumer runs ({@link KafkaTaps}), whether
 * it writes to a pipe or to a {@code topic:}; an untapped producer writes each message once.</li>
 * </ul>
 * Binding properties ({@link #BINDING_KEYS}) are resolved once per binding ({@link KafkaProducerSettings},
 * {@link KafkaConsumerSettings}) over the {@code xd.messagebus.kafka.default.*} settings; a dotted key such as
 * {@code linger.ms} is passed to the Kafka client as it is.
 */
public final class KafkaMessageBus implements MessageBus {

	private static final Logger logger = LoggerFactory.getLogger(KafkaMessageBus.class);

	private static final String BUS = "KafkaMessageBus";

	/**
	 * The binding properties of the Kafka bus: Spring XD's keys, and any Kafka client property but those only the
	 * operator sets ({@link KafkaSecurity#OPERATOR_ONLY}).
	 */
	public static final BindingKeys BINDING_KEYS = new BindingKeys("kafka", KafkaProducerSettings.KEYS,
			KafkaConsumerSettings.KEYS, "linger.ms", KafkaSecurity.OPERATOR_ONLY);

	private static final Duration CLOSE_PATIENCE = Duration.ofSeconds(10);

	/** How long binding a consumer waits for it to join its group (see {@link KafkaConsumerBinding#start}). */
	private static final Duration JOIN_PATIENCE = Duration.ofSeconds(10);

	private final KafkaBusProperties settings;

	private final Admin admin;

	private final KafkaTopicProvisioner topics;

	private final KafkaTaps taps;

	/** The pipes bound directly, in this JVM. */
	private final LocalMessageBus direct = new LocalMessageBus();

	/** Producers shared by the bindings whose client configurations are equal. */
	private final Map<Map<String, Object>, Producer<byte[], byte[]>> producers = new ConcurrentHashMap<>();

	private final DefaultKafkaProducerFactory<byte[], byte[]> deadLetterFactory;

	private final KafkaTemplate<byte[], byte[]> deadLetters;

	private final List<KafkaConsumerBinding> consumers = new CopyOnWriteArrayList<>();

	private volatile boolean closed;

	/** Whether the consumers may hand messages to their modules now (see {@link #fence}). */
	private volatile BooleanSupplier mayHandle = () -> true;

	public KafkaMessageBus(KafkaBusProperties settings) {
		this.settings = settings;
		if (settings.getZkAddress() != null && !settings.getZkAddress().isBlank()) {
			logger.warn("xd.messagebus.kafka.zkAddress ({}) is ignored: Kafka 4 needs no ZooKeeper; the bus talks "
					+ "to the brokers at {}", settings.getZkAddress(), settings.getBrokers());
		}
		int adminTimeout = BindingValues.millis("adminTimeout", settings.getAdminTimeout());
		Map<String, Object> adminConfig = new HashMap<>(KafkaSecurity.clientConfig(settings));
		adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.getBrokers());
		adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, adminTimeout);
		adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, adminTimeout);
		this.admin = Admin.create(KafkaSecurity.hidePasswords(adminConfig, AdminClientConfig.configDef()));
		this.topics = new KafkaTopicProvisioner(this.admin, settings.getAdminTimeout());
		this.taps = new KafkaTaps(this.topics, settings.getTapRefreshInterval());
		this.deadLetterFactory = new DefaultKafkaProducerFactory<>(KafkaProducerSettings.defaults(settings)
			.clientConfig(), new ByteArraySerializer(), new ByteArraySerializer());
		this.deadLetters = new KafkaTemplate<>(this.deadLetterFactory);
	}

	@Override
	public ProducerBinding bindProducer(String name, String tapName, BindingProperties properties) {
		requirePointToPoint(name);
		if (bindsDirectly(name, properties)) {
			return bindDirectProducer(name, tapName, properties, null);
		}
		return bindProducerTo(name, tapName, properties, true);
	}

	/**
	 * Binds a producer as {@link MessageBus#bindProducer(String, String, BindingProperties, SendCounter)} says; a
	 * pipe the admin allows to bind directly ({@link BindingProperties#directBinding()}) is bound in the JVM, as the
	 * local bus binds it, with its tap (when it has one) still written to Kafka while someone reads it.
	 */
	@Override
	public ProducerBinding bindProducer(String name, String tapName, BindingProperties properties,
			SendCounter counter) {
		requirePointToPoint(name);
		if (!bindsDirectly(name, properties)) {
			return MessageBus.super.bindProducer(name, tapName, properties, counter);
		}
		return bindDirectProducer(name, tapName, properties, counter);
	}

	private ProducerBinding bindDirectProducer(String name, String tapName, BindingProperties properties,
			SendCounter counter) {
		ProducerBinding direct = this.direct.bindProducer(name, null, BindingProperties.NONE, counter);
		if (tapName == null) {
			return direct;
		}
		try {
			ProducerBinding tap = bindProducerTo(tapName, null, properties.withoutDirectBinding(), false);
			return new DirectProducerBinding(direct, tap, KafkaTopicProvisioner.topicName(tapName), this.taps);
		}
		catch (RuntimeException ex) {
			direct.unbind();
			throw ex;
		}
	}

	@Override
	public ProducerBinding bindPubSubProducer(String name, String tapName, BindingProperties properties) {
		requirePublishSubscribe(name);
		return bindProducerTo(name, tapName, properties, false);
	}

	@Override
	public Binding bindConsumer(String name, MessageHandler handler, BindingProperties properties) {
		requirePointToPoint(name);
		if (bindsDirectly(name, properties)) {
			return this.direct.bindConsumer(name, handler, BindingProperties.NONE);
		}
		String topic = KafkaTopicProvisioner.topicName(name);
		return bindConsumerTo(name, topic, topic, "earliest", handler, properties, true);
	}

	@Override
	public Binding bindPubSubConsumer(String name, String group, MessageHandler handler,
			BindingProperties properties) {
		requirePublishSubscribe(name);
		String topic = KafkaTopicProvisioner.topicName(name);
		String groupId = topic + "." + ((group == null) ? "anonymous-" + UUID.randomUUID() : group);
		KafkaConsumerBinding binding = bindConsumerTo(name, topic, groupId, "latest", handler, properties, false);
		if (name.startsWith(ChannelNames.TAP_PREFIX)) {
			binding.onUnbind(this.taps.consumerBound(topic));
		}
		return binding;
	}

	@Override
	public BindingKeys bindingKeys() {
		return BINDING_KEYS;
	}

	/**
	 * Waits until every consumer bound on this bus owns its share of its topic's partitions, with its position
	 * fixed, so that a message sent after this returns reaches a consumer bound before.
	 * @return whether that happened within {@code timeout}
	 */
	public boolean awaitConsumersAssigned(Duration timeout) {
		return Waiting.until(this::allGroupsAssigned, timeout, Duration.ofMillis(20));
	}

	private boolean allGroupsAssigned() {
		Map<String, Integer> assignedByGroup = new HashMap<>();
		Map<String, Integer> partitionsByGroup = new HashMap<>();
		for (KafkaConsumerBinding consumer : this.consumers) {
			assignedByGroup.merge(consumer.groupId(), consumer.assignedCount(), Integer::sum);
			partitionsByGroup.put(consumer.groupId(), consumer.partitions());
		}
		return partitionsByGroup.entrySet()
			.stream()
			.allMatch(entry -> assignedByGroup.get(entry.getKey()) >= entry.getValue());
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.taps.close();
		this.direct.close();
		for (KafkaConsumerBinding consumer : new ArrayList<>(this.consumers)) {
			consumer.unbind();
		}
		this.producers.values().forEach(producer -> producer.close(CLOSE_PATIENCE));
		this.producers.clear();
		this.deadLetterFactory.destroy();
		this.admin.close(CLOSE_PATIENCE);
	}

	private KafkaProducerBinding bindProducerTo(String name, String tapName, BindingProperties properties,
			boolean mayGrow) {
		properties.requireSupported(BINDING_KEYS, BUS, BindingKeys.Side.PRODUCER);
		KafkaProducerSettings requested = KafkaProducerSettings.resolve(properties, this.settings);
		String topic = KafkaTopicProvisioner.topicName(name);
		int partitions = this.topics.provision(topic, requested.minPartitionCount(), requested.replicationFactor(),
				mayGrow);
		// the topic may have more replicas than asked for (made before, or by the brokers' default): acks follow it
		KafkaProducerSettings producerSettings = KafkaProducerSettings.resolve(properties, this.settings,
				this.topics.replicas(topic));
		String tapTopic = null;
		if (tapName != null) {
			tapTopic = KafkaTopicProvisioner.topicName(tapName);
			this.topics.provision(tapTopic, this.settings.getDefault().getMinPartitionCount(),
					this.settings.getDefault().getReplicationFactor(), false);
		}
		Producer<byte[], byte[]> producer = this.producers.computeIfAbsent(producerSettings.clientConfig(),
				config -> new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()));
		return new KafkaProducerBinding(name, topic, partitions, tapTopic, this.taps, producer, producerSettings,
				() -> this.mayHandle.getAsBoolean());
	}

	private KafkaConsumerBinding bindConsumerTo(String name, String topic, String groupId, String offsetReset,
			MessageHandler handler, BindingProperties properties, boolean mayGrow) {
		properties.requireSupported(BINDING_KEYS, BUS, BindingKeys.Side.CONSUMER);
		KafkaConsumerSettings consumerSettings = KafkaConsumerSettings.resolve(properties, this.settings);
		// every instance of the module gets partitions for each of its listener threads
		int partitions = this.topics.provision(topic, Math.max(consumerSettings.concurrency()
				* properties.instanceCount(), consumerSettings.minPartitionCount()),
				consumerSettings.replicationFactor(), mayGrow);
		String deadLetterTopic = KafkaTopicProvisioner.topicName("error." + topic + "." + groupId);
		this.topics.provision(deadLetterTopic, 1, consumerSettings.replicationFactor(), false);
		Map<TopicPartition, Long> startIfNew = "latest".equals(offsetReset) ? this.topics.endOffsets(topic, partitions)
				: Map.of();
		KafkaConsumerBinding binding = new KafkaConsumerBinding(name, topic, groupId, offsetReset, startIfNew,
				partitions, handler, consumerSettings, deadLetterTopic, this.deadLetters,
				() -> this.mayHandle.getAsBoolean());
		this.consumers.add(binding);
		binding.onUnbind(() -> this.consumers.remove(binding));
		binding.start(JOIN_PATIENCE, members -> this.topics.ownedInGroup(groupId, topic, members));
		return binding;
	}

	@Override
	public void fence(BooleanSupplier mayHandle) {
		this.mayHandle = Objects.requireNonNull(mayHandle, "mayHandle");
	}

	/** Whether a point-to-point channel is a pipe the admin allows to bind directly: never a named queue. */
	private static boolean bindsDirectly(String name, BindingProperties properties) {
		return properties.directBinding() && !ChannelNames.isQueue(name);
	}

	private static void requirePointToPoint(String name) {
		if (ChannelNames.isPublishSubscribe(name)) {
			throw new IllegalArgumentException("'" + name + "' is a publish-subscribe channel; bind it with "
					+ "bindPubSubProducer or bindPubSubConsumer");
		}
	}

	private static void requirePublishSubscribe(String name) {
		if (!ChannelNames.isPublishSubscribe(name)) {
			throw new IllegalArgumentException("'" + name + "' is not a publish-subscribe channel (topic: or tap:)");
		}
	}
}
