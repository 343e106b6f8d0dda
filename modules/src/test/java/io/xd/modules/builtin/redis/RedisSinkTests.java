package io.xd.modules.builtin.redis;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleProvider;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/** The redis sink's options and what they may reach, checked as the admin checks them at stream create. */
class RedisSinkTests {

	private static final HostAccess ACCESS = HostAccess.defaults(ModuleContext.defaultDataDirectory())
		.withConnections(Map.of("redis", new Connection("127.0.0.1", 0, null, "s3cret", false, Map.of())))
		.withConnectHosts(List.of("127.0.0.1"));

	private static void check(Map<String, String> given) {
		RedisSink.Provider provider = new RedisSink.Provider();
		ModuleOptions options = provider.metadata().resolve(given);
		ACCESS.check(provider, options);
	}

	@Test
	void needsExactlyOneDestination() {
		assertThatNoException().isThrownBy(() -> check(Map.of("queue", "jobs")));
		assertThatNoException().isThrownBy(() -> check(Map.of("keyExpression", "headers['k']", "collectionType", "set")));
		assertThatExceptionOfType(ModuleOptionException.class).isThrownBy(() -> check(Map.of()))
			.withMessageContaining("give exactly one of the options queue, queueExpression, key, keyExpression, "
					+ "topic, topicExpression");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(Map.of("queue", "a", "topic", "b")))
			.withMessageContaining("(given: queue, topic)");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(Map.of("topic", "b", "collectionType", "SET")))
			.withMessageContaining("option 'collectionType' goes with key or keyExpression only");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(Map.of("key", "b", "collectionType", "MAP")))
			.withMessageContaining("expects one of LIST, SET, ZSET");
	}

	/** Deploys through the module test kit, which checks the options as the admin and the container do. */
	private static void deploy(ModuleProvider provider, Map<String, String> given) {
		ModuleTestDriver.of(provider, given, ModuleContext.defaultDataDirectory(), ACCESS).close();
	}

	@Test
	void refusesAPasswordPointingToTheConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> deploy(new RedisSink.Provider(), Map.of("queue", "q", "hostname", "127.0.0.1", "password", "x")))
			.withMessageContaining("option 'password' is refused")
			.withMessageContaining("xd.connections.<name>");
	}

	@Test
	void refusesAHostTheOperatorDidNotAllowAndAnUnknownConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(Map.of("queue", "q", "hostname", "cache.example.com")))
			.withMessageContaining("option 'hostname': 'cache.example.com:6379' is refused")
			.withMessageContaining("xd.modules.connect.allowed-hosts");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(Map.of("queue", "q", "connection", "cache")))
			.withMessageContaining("option 'connection': 'cache' is refused")
			.withMessageContaining("(declared: redis)");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(Map.of("queue", "q", "port", "6380")))
			.withMessageContaining("option 'port' is refused with a connection");
		assertThatNoException().isThrownBy(() -> check(Map.of("queue", "q", "hostname", "127.0.0.1", "port", "6380")));
	}
}
