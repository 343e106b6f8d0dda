package io.xd.modules.builtin.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.ConnectorServer;
import io.xd.modules.builtin.ConnectorServer.DefaultPort;
import io.xd.modules.builtin.ConnectorServer.ServerOptions;
import io.xd.modules.builtin.ModuleSupport;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code redis} sink, Spring XD's: pushes each payload onto a list ({@code queue}, LPUSH, for a consumer that pops
 * from the other end), adds it to the collection at a key ({@code key}: a LIST, RPUSH; a SET, SADD; a ZSET, ZADD with
 * the score of header {@code redis_zsetScore}, 1 by default, added to the member's score when header
 * {@code redis_zsetIncrementScore} is true), or publishes it on a channel ({@code topic}, PUBLISH). The name may be an
 * expression on the message ({@code queueExpression}, {@code keyExpression}, {@code topicExpression}). Values are the
 * payload's bytes: {@code byte[]} as is, anything else as the UTF-8 of its {@code toString()}. Spring Data Redis with
 * the Lettuce client does the talking; each write is done before {@code handleMessage} returns, and a failure goes back
 * to the bus. At start the sink connects and pings, so a wrong server or password fails the start.
 */
public final class RedisSink implements Sink {

	/** The header with a sorted set member's score, as Spring Integration names it. */
	public static final String ZSET_SCORE_HEADER = "redis_zsetScore";

	/** The header saying the score is added to the member's score, as Spring Integration names it. */
	public static final String ZSET_INCREMENT_HEADER = "redis_zsetIncrementScore";

	private static final int PORT = 6379;

	static final ModuleOption<String> QUEUE = ModuleOption.ofString("queue")
		.withRule(name -> !name.isEmpty(), "be a key")
		.withDescription("the list each payload is pushed onto (LPUSH)");

	static final ModuleOption<SafeExpression> QUEUE_EXPRESSION = ModuleOption.ofExpression("queueExpression")
		.withDescription("a SpEL expression giving each message's list, instead of queue");

	static final ModuleOption<String> KEY = ModuleOption.ofString("key")
		.withRule(name -> !name.isEmpty(), "be a key")
		.withDescription("the key of the collection (collectionType) each payload is added to");

	static final ModuleOption<SafeExpression> KEY_EXPRESSION = ModuleOption.ofExpression("keyExpression")
		.withDescription("a SpEL expression giving each message's key, instead of key");

	static final ModuleOption<String> TOPIC = ModuleOption.ofString("topic")
		.withRule(name -> !name.isEmpty(), "be a channel name")
		.withDescription("the channel each payload is published on (PUBLISH)");

	static final ModuleOption<SafeExpression> TOPIC_EXPRESSION = ModuleOption.ofExpression("topicExpression")
		.withDescription("a SpEL expression giving each message's channel, instead of topic");

	static final ModuleOption<String> COLLECTION_TYPE = ModuleOption.ofChoice("collectionType", "LIST", "SET", "ZSET")
		.withDefault("LIST")
		.withDescription("with key: LIST appends (RPUSH), SET adds (SADD), ZSET adds with a score (ZADD)");

	static final ModuleOption<String> CONNECTION = ConnectorServer.connectionOption("redis",
			"host, port, username, password, tls", "hostname");

	static final ModuleOption<String> HOSTNAME = ConnectorServer.hostOption("hostname", "a password");

	static final ModuleOption<Integer> PORT_OPTION = ConnectorServer.portOption("hostname", Integer.toString(PORT))
		.withDefault(PORT);

	static final ModuleOption<String> PASSWORD = ConnectorServer.passwordOption();

	static final ModuleOption<Integer> DATABASE = ModuleOption.ofInt("database")
		.withDefault(0)
		.withMin(0)
		.withDescription("the database index");

	private static final List<ModuleOption<?>> DESTINATIONS = List.of(QUEUE, QUEUE_EXPRESSION, KEY, KEY_EXPRESSION,
			TOPIC, TOPIC_EXPRESSION);

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "redis",
			"Pushes each payload onto a Redis list, adds it to a set or sorted set, or publishes it on a channel",
			List.of(QUEUE, QUEUE_EXPRESSION, KEY, KEY_EXPRESSION, TOPIC, TOPIC_EXPRESSION, COLLECTION_TYPE, CONNECTION,
					HOSTNAME, PORT_OPTION, PASSWORD, DATABASE));

	/** A declared connection, or an allowed host reached without a password. */
	static final ServerOptions SERVER = ConnectorServer
		.singleHost("redis", CONNECTION, HOSTNAME, PORT_OPTION, DefaultPort.of(PORT))
		.refusing("xd.connections.<name>.host, .port, .username, .password", PASSWORD);

	private static final Logger logger = LoggerFactory.getLogger(RedisSink.class);

	private enum Kind {
		QUEUE, LIST, SET, ZSET, TOPIC
	}

	private final ModuleContext context;

	private final Kind kind;

	private final String name;

	private final SafeExpression nameExpression;

	private volatile LettuceConnectionFactory factory;

	private volatile RedisTemplate<String, byte[]> template;

	private String shown;

	public RedisSink(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		ModuleOption<?> destination = destination(options);
		if (destination == QUEUE || destination == QUEUE_EXPRESSION) {
			this.kind = Kind.QUEUE;
		}
		else if (destination == TOPIC || destination == TOPIC_EXPRESSION) {
			this.kind = Kind.TOPIC;
		}
		else {
			this.kind = Kind.valueOf(options.get(COLLECTION_TYPE));
		}
		Object value = options.get(destination);
		this.name = (value instanceof String text) ? text : null;
		this.nameExpression = (value instanceof SafeExpression expression) ? expression : null;
	}

	/** The one destination option a definition gives. */
	private static ModuleOption<?> destination(ModuleOptions options) {
		List<ModuleOption<?>> given = DESTINATIONS.stream().filter(option -> options.get(option) != null).toList();
		if (given.size() != 1) {
			throw new ModuleOptionException("redis", List.of("give exactly one of the options queue, queueExpression, "
					+ "key, keyExpression, topic, topicExpression" + (given.isEmpty() ? ""
							: " (given: " + String.join(", ", given.stream().map(ModuleOption::name).toList()) + ")")));
		}
		return given.get(0);
	}

	static void check(ModuleOptions options, HostAccess access) {
		server(options, access);
	}

	/** Checks a definition's options, and resolves the server they name. */
	private static ConnectorServer server(ModuleOptions options, HostAccess access) {
		ModuleOption<?> destination = destination(options);
		if (options.isGiven(COLLECTION_TYPE) && destination != KEY && destination != KEY_EXPRESSION) {
			throw new ModuleOptionException("redis", List.of("option 'collectionType' goes with key or keyExpression "
					+ "only"));
		}
		return SERVER.resolve(options, access);
	}

	@Override
	public synchronized void start() {
		ModuleOptions options = this.context.options();
		ConnectorServer target = server(options, this.context.hostAccess());
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration();
		LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(10))
			.clientName(this.context.threadName("redis"));
		server.setHostName(target.host());
		server.setPort(target.port());
		if (target.username() != null) {
			server.setUsername(target.username());
		}
		if (target.password() != null) {
			server.setPassword(RedisPassword.of(target.password()));
		}
		if (target.tls()) {
			client.useSsl();
		}
		this.shown = target.shown();
		server.setDatabase(options.get(DATABASE));
		LettuceConnectionFactory created = new LettuceConnectionFactory(server, client.build());
		created.afterPropertiesSet();
		created.start();
		RedisTemplate<String, byte[]> redis = new RedisTemplate<>();
		redis.setConnectionFactory(created);
		redis.setKeySerializer(RedisSerializer.string());
		redis.setValueSerializer(RedisSerializer.byteArray());
		redis.setEnableDefaultSerializer(false);
		redis.afterPropertiesSet();
		try {
			redis.execute(connection -> connection.ping(), true);
		}
		catch (DataAccessException ex) {
			created.destroy();
			throw new IllegalStateException("The redis sink cannot use " + this.shown + ": " + ModuleSupport.reason(ex), ex);
		}
		this.factory = created;
		this.template = redis;
		logger.info("Stream '{}': the redis sink writes to {}", this.context.streamName(), this.shown);
	}

	@Override
	public void handleMessage(Message<?> message) {
		RedisTemplate<String, byte[]> redis = this.template;
		if (redis == null) {
			throw new MessagingException(message, "The redis sink is not started");
		}
		String target = name(message);
		Object payload = message.getPayload();
		byte[] value = (payload instanceof byte[] bytes) ? bytes
				: String.valueOf(payload).getBytes(StandardCharsets.UTF_8);
		try {
			switch (this.kind) {
				case QUEUE -> redis.opsForList().leftPush(target, value);
				case LIST -> redis.opsForList().rightPush(target, value);
				case SET -> redis.opsForSet().add(target, value);
				case ZSET -> addScored(redis, target, value, message);
				case TOPIC -> redis.convertAndSend(target, value);
			}
		}
		catch (DataAccessException ex) {
			throw new MessagingException(message, "The redis sink could not write to '" + target + "' on " + this.shown
					+ ": " + ModuleSupport.reason(ex), ex);
		}
	}

	private static void addScored(RedisTemplate<String, byte[]> redis, String key, byte[] value, Message<?> message) {
		Object header = message.getHeaders().get(ZSET_SCORE_HEADER);
		double score;
		if (header == null) {
			score = 1;
		}
		else if (header instanceof Number number) {
			score = number.doubleValue();
		}
		else {
			try {
				score = Double.parseDouble(header.toString());
			}
			catch (NumberFormatException ex) {
				throw new MessagingException(message, "The redis sink's header " + ZSET_SCORE_HEADER + " is not a "
						+ "number: " + header);
			}
		}
		Object increment = message.getHeaders().get(ZSET_INCREMENT_HEADER);
		if (Boolean.TRUE.equals(increment) || "true".equalsIgnoreCase(String.valueOf(increment))) {
			redis.opsForZSet().incrementScore(key, value, score);
		}
		else {
			redis.opsForZSet().add(key, value, score);
		}
	}

	private String name(Message<?> message) {
		if (this.nameExpression == null) {
			return this.name;
		}
		Object value = this.nameExpression.evaluate(message);
		if (value == null || value.toString().isEmpty()) {
			throw new MessagingException(message, "The redis sink's expression gave no key or channel");
		}
		return value.toString();
	}

	@Override
	public synchronized void stop() {
		this.template = null;
		if (this.factory != null) {
			this.factory.destroy();
			this.factory = null;
		}
	}

	/** Declares and creates the {@code redis} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, RedisSink::new, RedisSink::check);
		}
	}
}
