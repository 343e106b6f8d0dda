package io.xd.modules.builtin.rabbit;

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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/** The rabbit modules' options and what they may reach, checked as the admin checks them at stream create. */
class RabbitModulesTests {

	private static final HostAccess ACCESS = HostAccess.defaults(ModuleContext.defaultDataDirectory())
		.withConnections(Map.of("rabbit", new Connection("127.0.0.1", 5672, "xd", "s3cret", false, Map.of())))
		.withConnectHosts(List.of("127.0.0.1"));

	private static void check(ModuleProvider provider, Map<String, String> given) {
		ModuleOptions options = provider.metadata().resolve(given);
		ACCESS.check(provider, options);
	}

	@Test
	void usesTheDeclaredConnectionNamedRabbitByDefault() {
		assertThatNoException().isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("queues", "orders")));
		assertThatNoException().isThrownBy(() -> check(new RabbitSink.Provider(), Map.of()));
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> HostAccess.defaults(ModuleContext.defaultDataDirectory())
				.check(new RabbitSink.Provider(), new RabbitSink.Provider().metadata().resolve(Map.of())))
			.withMessageContaining("option 'connection': 'rabbit' is refused")
			.withMessageContaining("xd.connections.<name>.host");
	}

	/** Deploys through the module test kit, which checks the options as the admin and the container do. */
	private static void deploy(ModuleProvider provider, Map<String, String> given) {
		ModuleTestDriver.of(provider, given, ModuleContext.defaultDataDirectory(), ACCESS).close();
	}

	@Test
	void refusesAPasswordPointingToTheConnection() {
		for (ModuleProvider provider : List.of(new RabbitSource.Provider(), new RabbitSink.Provider())) {
			assertThatExceptionOfType(ModuleOptionException.class)
				.isThrownBy(() -> deploy(provider, Map.of("addresses", "127.0.0.1", "password", "guest")))
				.withMessageContaining("option 'password' is refused")
				.withMessageContaining("xd.connections.<name>");
		}
	}

	@Test
	void refusesAHostTheOperatorDidNotAllow() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("addresses", "127.0.0.1:5672,10.1.2.3")))
			.withMessageContaining("option 'addresses': '10.1.2.3:5672' is refused")
			.withMessageContaining("xd.modules.connect.allowed-hosts")
			.withMessageContaining("declared: rabbit");
		assertThatNoException()
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("addresses", "127.0.0.1:5673", "vhost", "v")));
	}

	@Test
	void refusesAnUnknownConnectionListingTheDeclaredOnes() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("connection", "other")))
			.withMessageContaining("option 'connection': 'other' is refused")
			.withMessageContaining("(declared: rabbit)");
	}

	@Test
	void refusesHostOptionsBesideAConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("connection", "rabbit", "addresses", "127.0.0.1")))
			.withMessageContaining("options 'connection' and 'addresses' are refused together");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("vhost", "other")))
			.withMessageContaining("option 'vhost' is refused with a connection");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("username", "admin")))
			.withMessageContaining("option 'username' is refused with a connection");
	}

	@Test
	void checksTheSourceOptions() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("ackMode", "MANUAL")))
			.withMessageContaining("option 'ackMode' expects one of AUTO, NONE");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("ackMode", "none", "transacted", "true")))
			.withMessageContaining("option 'transacted' needs ackMode AUTO");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("prefetch", "1001")))
			.withMessageContaining("option 'prefetch' must be at least 1 and be at most 1000");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("converterClass", "x.Y")))
			.withMessageContaining("unknown option 'converterClass'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSource.Provider(), Map.of("queues", " , ")))
			.withMessageContaining("option 'queues' must be a comma-separated list");
	}

	@Test
	void checksTheSinkOptions() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("routingKey", "a", "routingKeyExpression",
					"headers['k']")))
			.withMessageContaining("options 'routingKey' and 'routingKeyExpression' are refused together");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("routingKeyExpression", "T(java.lang.Runtime)")))
			.withMessageContaining("option 'routingKeyExpression'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("deliveryMode", "FAST")))
			.withMessageContaining("expects one of PERSISTENT, NON_PERSISTENT");
	}

	@Test
	void readsAQuotedRoutingKeyAsSpringXdsLiteral() {
		assertThat(RabbitSink.literalKey("'orders'")).isEqualTo("orders");
		assertThat(RabbitSink.literalKey("\"orders\"")).isEqualTo("orders");
		assertThat(RabbitSink.literalKey("orders.eu")).isEqualTo("orders.eu");
		assertThat(RabbitSink.literalKey("'")).isEqualTo("'");
	}

	@Test
	void parsesAddressesWithTheDefaultPorts() {
		assertThat(RabbitConnections.addresses("a, b:1234,[::1]", false).stream().map(uri -> uri.getHost() + ":"
				+ uri.getPort())).containsExactly("a:5672", "b:1234", "[::1]:5672");
		assertThat(RabbitConnections.addresses("a", true).get(0).getPort()).isEqualTo(5671);
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new RabbitSink.Provider(), Map.of("addresses", "user@host/vhost")))
			.withMessageContaining("option 'addresses' must be host[:port]");
	}
}
