package io.xd.modules.builtin.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.builtin.file.ModuleFixtures;
import io.xd.modules.builtin.servers.RedisServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The redis sink against two Redis servers started for this class, one open and one with a password, read back with
 * a plain Lettuce client.
 */
class RedisSinkIntegrationTests {

	private static RedisServer open;

	private static RedisServer locked;

	private static RedisClient client;

	private static StatefulRedisConnection<String, String> plain;

	private static HostAccess access;

	@BeforeAll
	static void startServers() {
		open = RedisServer.start();
		locked = RedisServer.startWithPassword("s3cret");
		client = RedisClient.create();
		plain = client.connect(RedisURI.create("127.0.0.1", open.port()));
		access = HostAccess.defaults(ModuleContext.defaultDataDirectory())
			.withConnections(Map.of("redis", Connection.of("127.0.0.1", open.port()),
					"locked", new Connection("127.0.0.1", locked.port(), null, "s3cret", false, Map.of()),
					"wrong", new Connection("127.0.0.1", locked.port(), null, "not-it", false, Map.of())))
			.withConnectHosts(List.of("127.0.0.1"));
	}

	@AfterAll
	static void stopServers() {
		if (plain != null) {
			plain.close();
		}
		if (client != null) {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		if (open != null) {
			open.close();
		}
		if (locked != null) {
			locked.close();
		}
	}

	private static void write(Map<String, String> options, Object... payloadsOrMessages) {
		RedisSink sink = ModuleFixtures.create(new RedisSink.Provider(), options, access);
		sink.start();
		try {
			for (Object payload : payloadsOrMessages) {
				sink.handleMessage((payload instanceof org.springframework.messaging.Message<?> message) ? message
						: ModuleMessages.of(payload));
			}
		}
		finally {
			sink.stop();
		}
	}

	@Test
	void queuePushesOntoTheListsHead() {
		write(Map.of("queue", "jobs"), "first", "second".getBytes(StandardCharsets.UTF_8));
		RedisCommands<String, String> redis = plain.sync();
		assertThat(redis.lrange("jobs", 0, -1)).containsExactly("second", "first");
		assertThat(redis.rpop("jobs")).isEqualTo("first");
	}

	@Test
	void keyAddsToAListASetOrASortedSet() {
		write(Map.of("key", "log"), "a", "b");
		write(Map.of("key", "tags", "collectionType", "SET"), "red", "blue", "red");
		write(Map.of("key", "scores", "collectionType", "ZSET"),
				MessageBuilder.withPayload("ada").setHeader(RedisSink.ZSET_SCORE_HEADER, 3).build(), "bob",
				MessageBuilder.withPayload("ada").setHeader(RedisSink.ZSET_SCORE_HEADER, "2.5")
					.setHeader(RedisSink.ZSET_INCREMENT_HEADER, true).build());
		RedisCommands<String, String> redis = plain.sync();
		assertThat(redis.lrange("log", 0, -1)).containsExactly("a", "b");
		assertThat(redis.smembers("tags")).containsExactlyInAnyOrder("red", "blue");
		assertThat(redis.zscore("scores", "ada")).isEqualTo(5.5);
		assertThat(redis.zscore("scores", "bob")).isEqualTo(1.0);
	}

	@Test
	void keyExpressionNamesTheKeyPerMessage() {
		write(Map.of("keyExpression", "'orders:' + headers['region']"),
				MessageBuilder.withPayload("o1").setHeader("region", "eu").build(),
				MessageBuilder.withPayload("o2").setHeader("region", "us").build());
		assertThat(plain.sync().lrange("orders:eu", 0, -1)).containsExactly("o1");
		assertThat(plain.sync().lrange("orders:us", 0, -1)).containsExactly("o2");
	}

	@Test
	void topicPublishesToSubscribers() throws Exception {
		BlockingQueue<String> received = new LinkedBlockingQueue<>();
		try (StatefulRedisPubSubConnection<String, String> subscriber = client
			.connectPubSub(RedisURI.create("127.0.0.1", open.port()))) {
			subscriber.addListener(new RedisPubSubAdapter<>() {

				@Override
				public void message(String channel, String message) {
					received.add(channel + ":" + message);
				}
			});
			subscriber.sync().subscribe("news");
			write(Map.of("topic", "news"), "extra");
			assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo("news:extra");
		}
	}

	@Test
	void aDeclaredConnectionsPasswordAndDatabaseAreUsed() {
		write(Map.of("queue", "secured", "connection", "locked", "database", "2"), "in");
		try (StatefulRedisConnection<String, String> admin = client
			.connect(RedisURI.builder().withHost("127.0.0.1").withPort(locked.port()).withPassword("s3cret".toCharArray())
				.withDatabase(2).build())) {
			assertThat(admin.sync().lrange("secured", 0, -1)).containsExactly("in");
		}
	}

	@Test
	void aWrongOrMissingPasswordFailsTheStartWithoutShowingIt() {
		RedisSink wrong = ModuleFixtures.create(new RedisSink.Provider(), Map.of("queue", "q", "connection", "wrong"),
				access);
		assertThatIllegalStateException().isThrownBy(wrong::start)
			.withMessageContaining("The redis sink cannot use connection 'wrong' (127.0.0.1:" + locked.port() + ")")
			.withMessageNotContaining("not-it");
		RedisSink none = ModuleFixtures.create(new RedisSink.Provider(),
				Map.of("queue", "q", "hostname", "127.0.0.1", "port", Integer.toString(locked.port())), access);
		assertThatIllegalStateException().isThrownBy(none::start).withMessageContaining("NOAUTH");
	}

	@Test
	void literalHostOfAnAllowedHostWorksAndOthersAreRefused() {
		write(Map.of("queue", "literal", "hostname", "127.0.0.1", "port", Integer.toString(open.port())), "x");
		assertThat(plain.sync().lrange("literal", 0, -1)).containsExactly("x");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new RedisSink.Provider(),
					Map.of("queue", "q", "hostname", "localhost", "port", Integer.toString(open.port())), access))
			.withMessageContaining("option 'hostname': 'localhost:" + open.port() + "' is refused");
	}
}
