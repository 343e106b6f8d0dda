package io.xd.server;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.analytics.AnalyticsLimits;
import io.xd.modules.analytics.RedisAnalyticsStore;
import io.xd.modules.analytics.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code xd.analytics.store: redis} against a real {@code redis-server} started by the test: a singlenode whose
 * streams count in Redis, reached through a declared connection, and a second store on the same Redis, as a container
 * on another host would have, add to the same counters; the admin's REST API shows the sums.
 */
class AnalyticsRedisIntegrationTests {

	@TempDir
	static Path data;

	private static RedisTestServer redis;

	private static SingleNode node;

	private static RedisAnalyticsStore otherContainer;

	@BeforeAll
	static void start() {
		redis = RedisTestServer.start(data.resolve("redis"));
		node = new SingleNode(data.resolve("node"), "--xd.analytics.store=redis",
				"--xd.analytics.redis.connection=analytics", "--xd.connections.analytics.host=127.0.0.1",
				"--xd.connections.analytics.port=" + redis.port());
		otherContainer = new RedisAnalyticsStore(RedisURI.create("127.0.0.1", redis.port()), "xd.analytics.",
				AnalyticsLimits.DEFAULTS, Clock.systemUTC());
	}

	@AfterAll
	static void stop() {
		if (otherContainer != null) {
			otherContainer.close();
		}
		if (node != null) {
			node.close();
		}
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void twoContainersAddToOneCounterAndOneFieldValueCounterInRedis() throws Exception {
		int port = AbstractModuleLibraryIntegrationTests.freePort();
		ShellRun shell = ShellRun.withInput(node, "stream create devices --definition \"http --port=" + port
				+ " | field-value-counter --fieldName=device\" --deploy\n"
				+ "stream create shared --definition \"tap:stream:devices > counter\" --deploy\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> node.status("devices").equals("deployed") && node.status("shared").equals("deployed"));

		for (String device : new String[] { "phone", "tablet", "phone" }) {
			AnalyticsIntegrationTests.post(port, "application/json", "{\"device\":\"" + device + "\"}");
		}
		for (int i = 0; i < 5; i++) {
			otherContainer.incrementCounter("shared", 1);
			otherContainer.incrementFieldValue("devices", "phone", 1);
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> node.get("/metrics/counters/shared").body().contains("\"value\":8"));
		assertThat(node.get("/metrics/field-value-counters/devices").body())
			.contains("\"counts\":{\"phone\":7.0,\"tablet\":1.0}");
		assertThat(otherContainer.counter("shared")).hasValue(8);

		assertThat(ShellRun.withInput(node, "counter display shared\n").output()).contains("8\n");
		assertThat(node.delete("/metrics/counters/shared").status()).isEqualTo(200);
		assertThat(otherContainer.counter("shared")).isEmpty();
	}
}
