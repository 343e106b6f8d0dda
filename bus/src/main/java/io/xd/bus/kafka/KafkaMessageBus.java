package io.xd.bus.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessageHandler;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

import io.xd.bus.Binding;
import io.xd.bus.BindingProperties;
import io.xd.bus.MessageBus;
import io.xd.bus.ProducerBinding;
import io.xd.core.ChannelNames;

/**
 * A {@link MessageBus} over Apache Kafka: each channel is a topic (named by {@link KafkaTopics#topicName}), so the
 * modules of a stream may run in different processes on different machines.
 * <ul>
 * <li>Point-to-point channels (pipes and {@code queue:}) are consumed by one consumer group per channel, starting
 * at the earliest offset, so nothing sent before the consumer binds is lost; partitions are spread over the
 * consumers of the group.</li>
 * <li>Publish-subscribe channels ({@code topic:} and taps) give each consumer group its own group id; a consumer
 * without a group gets a group of its own that starts at the end of the topic.</li>
 * <li>Delivery is at least once: a consumer commits an offset only after its handler has returned for every record
 * of the poll and what the handler sent on this bus meanwhile has been acknowledged. A record whose handler throws
 * is delivered again, up to {@code maxAttempts} times with exponential back-off, and then published to the
 * dead-letter topic {@code error.<topic>.<group>} with the exception in its headers; the stream goes on with the
 * next record.</li>
 * <li>A producer with a tap also publishes to the tap's topic while a tap consumer runs: one bound on this bus is
 * seen at once, one in another process within {@code tapRefreshInterval}.</li>
 * </ul>
 * Binding properties (deployment properties {@code module.<label>.producer.*} / {@code consumer.*}) override the
 * {@code xd.messagebus.kafka.default.*} settings; a dotted key such as {@code linger.ms} is passed to the Kafka
 * client as it is.
 */
public final class KafkaMessageBus implements MessageBus {

	private static final Logger logger = LoggerFactory.getLogger(KafkaMessageBus.class);

	private static final String BUS = "KafkaMessageBus";

	static final Set<String> PRODUCER_KEYS = Set.of("batchSize", "batchTimeout", "requiredAcks", "compressionCodec",
			"minPartitionCount", "replicationFactor", "partitionKeyExpression", "syncProducer");

	static final Set<String> CONSUMER_KEYS = Set.of("concurrency", "maxAttempts", "backOffInitialInterval",
			"backOffMaxInterval", "backOffMultiplier", "fetchSize", "minPartitionCount", "replicationFactor",
			"queueSize", "durableSubscription", "autoCommitOffsetEnabled");

	/** How long a commit refused for a stale member epoch is retried (see {@link StaleEpochCommitRetry}). */
	private static final Duration COMMIT_PATIENCE = Duration.ofSeconds(5);

	/** How long a poll's offsets wait for the sends its records caused (the producer's delivery timeout). */
	private static final Duration SEND_PATIENCE = Duration.ofMinutes(2);

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	private static final EvaluationContext KEY_CONTEXT = SimpleEvaluationContext.forReadOnlyDataBinding()
		.withInstanceMethods()
		.build();

	private final KafkaBusProperties settings;

	private final Admin admin;

	private final KafkaTopics topics;

	private final Map<Map<String, Object>, Producer<byte[], byte[]>> producers = new ConcurrentHashMap<>();

	private final KafkaTemplate<byte[], byte[]> deadLetters;

	private final DefaultKafkaProducerFactory<byte[], byte[]> deadLetterFactory;

	private final List<ConsumerBinding> consumers = new CopyOnWriteArrayList<>();

	private final List<KafkaProducerBinding> tappedProducers = new CopyOnWriteArrayList<>();

	private final Map<String, Integer> localTapConsumers = new ConcurrentHashMap<>();

	private volatile Set<String> remoteTapTopics = Set.of();

	private final ScheduledExecutorService tapRefresher;

	private volatile boolean closed;

	public KafkaMessageBus(KafkaBusProperties settings) {
		this.settings = settings;
		if (settings.getZkAddress() != null && !settings.getZkAddress().isBlank()) {
			logger.warn("xd.messagebus.kafka.zkAddress ({}) is ignored: Kafka 4 needs no ZooKeeper; the bus talks "
					+ "to the brokers at {}", settings.getZkAddress(), settings.getBrokers());
		}
		Map<String, Object> adminConfig = new HashMap<>();
		adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.getBrokers());
		adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) settings.getAdminTimeout());
		adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(settings.getAdminTimeout(),
				Integer.MAX_VALUE));
		this.admin = Admin.create(adminConfig);
		this.topics = new KafkaTopics(this.admin, Duration.ofMillis(settings.getAdminTimeout()));
		this.deadLetterFactory = new DefaultKafkaProducerFactory<>(producerConfig(BindingProperties.NONE),
				new ByteArraySerializer(), new ByteArraySerializer());
		this.deadLetters = new KafkaTemplate<>(this.deadLetterFactory);
		this.tapRefresher = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "xd-kafka-taps");
			thread.setDaemon(true);
			return thread;
		});
		this.tapRefresher.scheduleWithFixedDelay(this::refreshRemoteTaps, settings.getTapRefreshInterval(),
				settings.getTapRefreshInterval(), TimeUnit.MILLISECONDS);
	}

	@Override
	public ProducerBinding bindProducer(String name, String tapName, BindingProperties properties) {
		requirePointToPoint(name);
		return bindProducerTo(name, tapName, properties, true);
	}

	@Override
	public ProducerBinding bindPubSubProducer(String name, BindingProperties properties) {
		requirePublishSubscribe(name);
		return bindProducerTo(name, null, properties, false);
	}

	@Override
	public Binding bindConsumer(String name, MessageHandler handler, BindingProperties properties) {
		requirePointToPoint(name);
		String topic = KafkaTopics.topicName(name);
		return bindConsumerTo(name, topic, topic, "earliest", handler, properties, true);
	}

	@Override
	public Binding bindPubSubConsumer(String name, String group, MessageHandler handler,
			BindingProperties properties) {
		requirePublishSubscribe(name);
		String topic = KafkaTopics.topicName(name);
		String groupId = topic + "." + ((group == null) ? "anonymous-" + UUID.randomUUID() : group);
		ConsumerBinding binding = bindConsumerTo(name, topic, groupId, "latest", handler, properties, false);
		if (name.startsWith(ChannelNames.TAP_PREFIX)) {
			this.localTapConsumers.merge(topic, 1, Integer::sum);
			binding.onUnbind(() -> this.localTapConsumers.computeIfPresent(topic, (key, count) -> (count > 1)
					? count - 1 : null));
		}
		return binding;
	}

	/**
	 * Waits until every consumer bound on this bus owns its share of its topic's partitions, with its position
	 * fixed, so that a message sent after this returns reaches a consumer bound before.
	 * @return whether that happened within {@code timeout}
	 */
	public boolean awaitConsumersAssigned(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (allGroupsAssigned()) {
				return true;
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return false;
	}

	private boolean allGroupsAssigned() {
		Map<String, Integer> assignedByGroup = new HashMap<>();
		Map<String, Integer> partitionsByGroup = new HashMap<>();
		for (ConsumerBinding consumer : this.consumers) {
			assignedByGroup.merge(consumer.groupId, consumer.assigned.size(), Integer::sum);
			partitionsByGroup.put(consumer.groupId, consumer.partitions);
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
		this.tapRefresher.shutdownNow();
		for (ConsumerBinding consumer : new ArrayList<>(this.consumers)) {
			consumer.unbind();
		}
		this.producers.values().forEach(producer -> producer.close(Duration.ofSeconds(10)));
		this.producers.clear();
		this.deadLetterFactory.destroy();
		this.admin.close(Duration.ofSeconds(5));
	}

	// ---- producers

	private KafkaProducerBinding bindProducerTo(String name, String tapName, BindingProperties properties,
			boolean mayGrow) {
		requireKnownKeys(properties, PRODUCER_KEYS, "producer");
		String topic = KafkaTopics.topicName(name);
		int partitions = this.topics.provision(topic, intProperty(properties, "minPartitionCount",
				this.settings.getDefault().getMinPartitionCount()), replicationFactor(properties), mayGrow);
		String tapTopic = null;
		if (tapName != null) {
			tapTopic = KafkaTopics.topicName(tapName);
			this.topics.provision(tapTopic, this.settings.getDefault().getMinPartitionCount(),
					replicationFactor(BindingProperties.NONE), false);
		}
		Map<String, Object> config = producerConfig(properties);
		Producer<byte[], byte[]> producer = this.producers.computeIfAbsent(config,
				key -> new KafkaProducer<>(key, new ByteArraySerializer(), new ByteArraySerializer()));
		String keyExpression = properties.get("partitionKeyExpression", null);
		KafkaProducerBinding binding = new KafkaProducerBinding(name, topic, partitions, tapTopic, producer,
				(keyExpression == null) ? null : parseKeyExpression(keyExpression),
				Boolean.parseBoolean(properties.get("syncProducer",
						String.valueOf(this.settings.getDefault().isSyncProducer()))));
		if (tapTopic != null) {
			this.tappedProducers.add(binding);
		}
		return binding;
	}

	private Map<String, Object> producerConfig(BindingProperties properties) {
		KafkaBusProperties.Defaults defaults = this.settings.getDefault();
		Map<String, Object> config = new HashMap<>();
		config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.settings.getBrokers());
		config.put(ProducerConfig.ACKS_CONFIG, acks(properties.get("requiredAcks",
				String.valueOf(defaults.getRequiredAcks()))));
		config.put(ProducerConfig.BATCH_SIZE_CONFIG, intProperty(properties, "batchSize", defaults.getBatchSize()));
		config.put(ProducerConfig.LINGER_MS_CONFIG, intProperty(properties, "batchTimeout",
				defaults.getBatchTimeout()));
		config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, properties.get("compressionCodec",
				defaults.getCompressionCodec()));
		config.putAll(this.settings.getProducerProperties());
		passThrough(properties, config);
		return config;
	}

	private static String acks(String requiredAcks) {
		return switch (requiredAcks.trim()) {
			case "-1", "all" -> "all";
			case "0" -> "0";
			case "1" -> "1";
			default -> throw new IllegalArgumentException("requiredAcks must be -1 (all), 0 or 1, but was '"
					+ requiredAcks + "'");
		};
	}

	private static Expression parseKeyExpression(String text) {
		try {
			return PARSER.parseExpression(text);
		}
		catch (ParseException ex) {
			throw new IllegalArgumentException("partitionKeyExpression '" + text + "' is not a valid expression: "
					+ ex.getSimpleMessage());
		}
	}

	private boolean tapActive(String tapTopic) {
		return this.localTapConsumers.containsKey(tapTopic) || this.remoteTapTopics.contains(tapTopic);
	}

	private void refreshRemoteTaps() {
		if (this.tappedProducers.isEmpty()) {
			return;
		}
		try {
			Set<String> groups = this.topics.activeGroups();
			Set<String> active = ConcurrentHashMap.newKeySet();
			for (KafkaProducerBinding producer : this.tappedProducers) {
				String prefix = producer.tapTopic + ".";
				if (groups.stream().anyMatch(group -> group.startsWith(prefix))) {
					active.add(producer.tapTopic);
				}
			}
			this.remoteTapTopics = active;
		}
		catch (RuntimeException ex) {
			logger.debug("Could not refresh the tap subscribers; keeping the last known ones", ex);
		}
	}

	/** The sending end of a topic; sends are asynchronous unless {@code syncProducer}. */
	private final class KafkaProducerBinding implements ProducerBinding, MessageChannel, Callback {

		private final String name;

		private final String topic;

		private final int partitions;

		private final String tapTopic;

		private final Producer<byte[], byte[]> producer;

		private final Expression partitionKey;

		private final boolean sync;

		private final AtomicReference<Exception> failure = new AtomicReference<>();

		private final AtomicLong failures = new AtomicLong();

		private volatile boolean unbound;

		KafkaProducerBinding(String name, String topic, int partitions, String tapTopic,
				Producer<byte[], byte[]> producer, Expression partitionKey, boolean sync) {
			this.name = name;
			this.topic = topic;
			this.partitions = partitions;
			this.tapTopic = tapTopic;
			this.producer = producer;
			this.partitionKey = partitionKey;
			this.sync = sync;
		}

		@Override
		public boolean send(Message<?> message, long timeout) {
			if (this.unbound) {
				throw new MessageDeliveryException(message, "The producer of '" + this.name + "' is unbound");
			}
			Exception earlier = this.failure.getAndSet(null);
			if (earlier != null) {
				throw new MessageDeliveryException(message, "An earlier send to Kafka topic '" + this.topic
						+ "' failed (" + this.failures.get() + " failure(s) so far): " + earlier.getMessage(), earlier);
			}
			byte[] value;
			try {
				value = KafkaRecords.payload(message);
			}
			catch (IllegalArgumentException ex) {
				throw new MessageDeliveryException(message, ex.getMessage(), ex);
			}
			Headers headers = (KafkaMessageBus.this.settings.mode() == KafkaBusProperties.Mode.RAW) ? null
					: KafkaRecords.headers(message.getHeaders());
			Integer partition = (this.partitionKey != null) ? partitionOf(message) : null;
			var future = this.producer.send(new ProducerRecord<>(this.topic, partition, null, null, value, headers),
					InFlightSends.track(this));
			if (this.sync) {
				try {
					future.get(timeout > 0 ? timeout : 30_000, TimeUnit.MILLISECONDS);
				}
				catch (Exception ex) {
					throw new MessageDeliveryException(message, "Sending to Kafka topic '" + this.topic + "' failed: "
							+ ex.getMessage(), ex);
				}
			}
			if (this.tapTopic != null && tapActive(this.tapTopic)) {
				this.producer.send(new ProducerRecord<>(this.tapTopic, null, null, null, value, headers),
						InFlightSends.track(this));
			}
			return true;
		}

		private int partitionOf(Message<?> message) {
			Object key;
			try {
				key = this.partitionKey.getValue(KEY_CONTEXT, message);
			}
			catch (RuntimeException ex) {
				throw new MessageDeliveryException(message, "partitionKeyExpression '"
						+ this.partitionKey.getExpressionString() + "' failed: " + ex.getMessage(), ex);
			}
			if (key == null) {
				throw new MessageDeliveryException(message, "partitionKeyExpression '"
						+ this.partitionKey.getExpressionString() + "' gave no key for a message to '" + this.name + "'");
			}
			return Math.abs(key.hashCode() % this.partitions);
		}

		@Override
		public void onCompletion(RecordMetadata metadata, Exception exception) {
			if (exception != null) {
				if (this.failures.incrementAndGet() == 1 || this.failure.get() == null) {
					logger.error("Sending to Kafka topic '{}' failed", this.topic, exception);
				}
				this.failure.compareAndSet(null, exception);
			}
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public MessageChannel channel() {
			return this;
		}

		@Override
		public void unbind() {
			if (!this.unbound) {
				this.unbound = true;
				KafkaMessageBus.this.tappedProducers.remove(this);
				this.producer.flush();
			}
		}
	}

	// ---- consumers

	private ConsumerBinding bindConsumerTo(String name, String topic, String groupId, String offsetReset,
			MessageHandler handler, BindingProperties properties, boolean mayGrow) {
		requireKnownKeys(properties, CONSUMER_KEYS, "consumer");
		if ("false".equals(properties.get("autoCommitOffsetEnabled", "true"))) {
			throw new IllegalArgumentException(BUS + " always commits offsets after the handler returns; "
					+ "autoCommitOffsetEnabled=false is not supported");
		}
		KafkaBusProperties.Defaults defaults = this.settings.getDefault();
		int concurrency = intProperty(properties, "concurrency", defaults.getConcurrency());
		if (concurrency < 1) {
			throw new IllegalArgumentException("concurrency must be 1 or more, but was " + concurrency);
		}
		// every instance of the module gets partitions for each of its listener threads
		int partitions = this.topics.provision(topic, Math.max(concurrency * properties.instanceCount(),
				intProperty(properties, "minPartitionCount", defaults.getMinPartitionCount())),
				replicationFactor(properties), mayGrow);
		String deadLetterTopic = KafkaTopics.topicName("error." + topic + "." + groupId);
		this.topics.provision(deadLetterTopic, 1, replicationFactor(properties), false);

		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.settings.getBrokers());
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, offsetReset);
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, intProperty(properties, "fetchSize",
				defaults.getFetchSize()));
		config.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, this.settings.getSocketBufferSize());
		// incremental rebalancing: when an instance joins or leaves, only the partitions that move are revoked, so
		// the other consumers keep reading what they own; under the consumer protocol they also keep committing
		config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, this.settings.getGroupProtocol());
		if ("classic".equals(this.settings.getGroupProtocol())) {
			config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
		}
		config.putAll(this.settings.getConsumerProperties());
		passThrough(properties, config);

		ConsumerBinding binding = new ConsumerBinding(name, groupId, partitions);
		boolean raw = this.settings.mode() == KafkaBusProperties.Mode.RAW;
		ContainerProperties container = new ContainerProperties(topic);
		container.setGroupId(groupId);
		container.setAckMode(ContainerProperties.AckMode.BATCH);
		container.setMessageListener((BatchMessageListener<byte[], byte[]>) records -> handle(records, handler, raw));
		container.setConsumerRebalanceListener(binding);
		container.setShutdownTimeout(10_000);

		DefaultKafkaConsumerFactory<byte[], byte[]> factory = new DefaultKafkaConsumerFactory<>(config,
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
		factory.addPostProcessor(consumer -> StaleEpochCommitRetry.wrap(consumer, COMMIT_PATIENCE));
		ConcurrentMessageListenerContainer<byte[], byte[]> listener = new ConcurrentMessageListenerContainer<>(factory,
				container);
		listener.setConcurrency(Math.min(concurrency, partitions));
		listener.setBeanName("xd-kafka-" + topic);
		DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(this.deadLetters,
				(record, ex) -> new TopicPartition(deadLetterTopic, -1));
		DefaultErrorHandler errors = new DefaultErrorHandler((record, ex) -> {
			logger.error("Giving up on a record of '{}' (partition {}, offset {}) after its last attempt; it goes to "
					+ "the dead-letter topic {}", name, record.partition(), record.offset(), deadLetterTopic, ex);
			recoverer.accept(record, ex);
		}, backOff(properties));
		listener.setCommonErrorHandler(errors);
		binding.listener = listener;
		this.consumers.add(binding);
		listener.start();
		return binding;
	}

	/**
	 * Hands one poll's records to the module in order, then waits until what the module sent while handling them is
	 * acknowledged, so that the offsets committed after this returns never cover a record whose forwarded copy could
	 * still be lost. A record whose handler throws is reported by its index: the records before it are committed
	 * (their sends awaited first) and it is delivered again or goes to the dead-letter topic.
	 */
	private static void handle(List<ConsumerRecord<byte[], byte[]>> records, MessageHandler handler, boolean raw) {
		InFlightSends sends = InFlightSends.open();
		try {
			for (int i = 0; i < records.size(); i++) {
				ConsumerRecord<byte[], byte[]> record = records.get(i);
				try {
					handler.handleMessage(KafkaRecords.message(record.value(), record.headers(), raw));
				}
				catch (RuntimeException ex) {
					sends.awaitAll(SEND_PATIENCE);
					throw new BatchListenerFailedException(ex.getMessage(), ex, i);
				}
			}
			sends.awaitAll(SEND_PATIENCE);
		}
		finally {
			InFlightSends.close();
		}
	}

	private BackOff backOff(BindingProperties properties) {
		KafkaBusProperties.Defaults defaults = this.settings.getDefault();
		int maxAttempts = intProperty(properties, "maxAttempts", defaults.getMaxAttempts());
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be 1 or more, but was " + maxAttempts);
		}
		if (maxAttempts == 1) {
			return new FixedBackOff(0, 0);
		}
		ExponentialBackOffWithMaxRetries backOff = new ExponentialBackOffWithMaxRetries(maxAttempts - 1);
		backOff.setInitialInterval(longProperty(properties, "backOffInitialInterval",
				defaults.getBackOffInitialInterval()));
		backOff.setMaxInterval(longProperty(properties, "backOffMaxInterval", defaults.getBackOffMaxInterval()));
		backOff.setMultiplier(Double.parseDouble(properties.get("backOffMultiplier",
				String.valueOf(defaults.getBackOffMultiplier()))));
		return backOff;
	}

	/** A consumer binding: its listener container and the partitions it owns with their positions fixed. */
	private final class ConsumerBinding implements Binding, ConsumerAwareRebalanceListener {

		private final String name;

		private final String groupId;

		private final int partitions;

		private final Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();

		private final List<Runnable> onUnbind = new CopyOnWriteArrayList<>();

		private volatile ConcurrentMessageListenerContainer<byte[], byte[]> listener;

		private volatile boolean unbound;

		ConsumerBinding(String name, String groupId, int partitions) {
			this.name = name;
			this.groupId = groupId;
			this.partitions = partitions;
		}

		void onUnbind(Runnable action) {
			this.onUnbind.add(action);
		}

		@Override
		public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
			// resolve the starting positions now, so that "ready" means messages sent from now on are seen
			try {
				for (TopicPartition partition : partitions) {
					consumer.position(partition);
				}
			}
			catch (WakeupException ex) {
				// the binding is stopping: hand the wake-up on to the poll that runs this callback, which ends the
				// consumer loop, rather than failing the assignment (the client would log that as an error)
				consumer.wakeup();
				return;
			}
			this.assigned.addAll(partitions);
		}

		@Override
		public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
			this.assigned.removeAll(partitions);
		}

		@Override
		public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
			this.assigned.removeAll(partitions);
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public void unbind() {
			if (this.unbound) {
				return;
			}
			this.unbound = true;
			KafkaMessageBus.this.consumers.remove(this);
			// pause first: the consumer thread commits what the last poll's records were handled for before it
			// pauses, so stopping leaves nothing handled but uncommitted for the next owner to repeat
			this.listener.pause();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (!this.listener.isContainerPaused() && this.listener.isRunning() && System.nanoTime() < deadline) {
				try {
					Thread.sleep(10);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					break;
				}
			}
			this.listener.stop();
			this.assigned.clear();
			this.onUnbind.forEach(Runnable::run);
		}
	}

	// ---- properties

	private int replicationFactor(BindingProperties properties) {
		return intProperty(properties, "replicationFactor", this.settings.getDefault().getReplicationFactor());
	}

	private static void requireKnownKeys(BindingProperties properties, Set<String> known, String side) {
		List<String> unknown = properties.asMap()
			.keySet()
			.stream()
			.filter(key -> !known.contains(key) && !key.contains("."))
			.sorted()
			.toList();
		if (!unknown.isEmpty()) {
			throw new IllegalArgumentException(BUS + " does not support " + side + " propert"
					+ (unknown.size() == 1 ? "y" : "ies") + ": " + String.join(", ", unknown) + " (supported: "
					+ String.join(", ", known.stream().sorted().toList())
					+ ", and any Kafka client property such as linger.ms)");
		}
	}

	/** Dotted keys are Kafka client properties, passed through as they are. */
	private static void passThrough(BindingProperties properties, Map<String, Object> config) {
		properties.asMap().forEach((key, value) -> {
			if (key.contains(".")) {
				config.put(key, value);
			}
		});
	}

	private static int intProperty(BindingProperties properties, String key, int defaultValue) {
		String value = properties.get(key, null);
		if (value == null) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(key + " must be an integer, but was '" + value + "'");
		}
	}

	private static long longProperty(BindingProperties properties, String key, long defaultValue) {
		String value = properties.get(key, null);
		if (value == null) {
			return defaultValue;
		}
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(key + " must be an integer, but was '" + value + "'");
		}
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
