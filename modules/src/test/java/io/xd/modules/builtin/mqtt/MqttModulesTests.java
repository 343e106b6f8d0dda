package io.xd.modules.builtin.mqtt;

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

/** The mqtt modules' options and what they may reach, checked as the admin checks them at stream create. */
class MqttModulesTests {

	private static final HostAccess ACCESS = HostAccess.defaults(ModuleContext.defaultDataDirectory())
		.withConnections(Map.of("mqtt", new Connection("127.0.0.1", 0, "xd", "s3cret", false, Map.of())))
		.withConnectHosts(List.of("127.0.0.1"));

	private static void check(ModuleProvider provider, Map<String, String> given) {
		ModuleOptions options = provider.metadata().resolve(given);
		ACCESS.check(provider, options);
	}

	@Test
	void usesTheDeclaredConnectionNamedMqttByDefaultOrAnAllowedUrl() {
		assertThatNoException().isThrownBy(() -> check(new MqttSource.Provider(), Map.of("topics", "a/+/c,d/#")));
		assertThatNoException().isThrownBy(() -> check(new MqttSink.Provider(),
				Map.of("url", "tcp://127.0.0.1:1884,ssl://127.0.0.1", "username", "sensor")));
	}

	/** Deploys through the module test kit, which checks the options as the admin and the container do. */
	private static void deploy(ModuleProvider provider, Map<String, String> given) {
		ModuleTestDriver.of(provider, given, ModuleContext.defaultDataDirectory(), ACCESS).close();
	}

	@Test
	void refusesAPasswordPointingToTheConnection() {
		for (ModuleProvider provider : List.of(new MqttSource.Provider(), new MqttSink.Provider())) {
			assertThatExceptionOfType(ModuleOptionException.class)
				.isThrownBy(() -> deploy(provider, Map.of("url", "tcp://127.0.0.1:1883", "password", "guest")))
				.withMessageContaining("option 'password' is refused")
				.withMessageContaining("xd.connections.<name>");
		}
	}

	@Test
	void refusesAHostTheOperatorDidNotAllow() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSource.Provider(), Map.of("url", "tcp://broker.example.com:1883")))
			.withMessageContaining("option 'url': 'broker.example.com:1883' is refused")
			.withMessageContaining("xd.modules.connect.allowed-hosts");
	}

	@Test
	void refusesAnUnknownConnectionAndAUserBesideAConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSink.Provider(), Map.of("connection", "nope")))
			.withMessageContaining("option 'connection': 'nope' is refused")
			.withMessageContaining("(declared: mqtt)");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSink.Provider(), Map.of("username", "admin")))
			.withMessageContaining("option 'username' is refused with a connection");
	}

	@Test
	void checksTopicsUrlsAndQualityOfService() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSource.Provider(), Map.of("topics", "a/#/b")))
			.withMessageContaining("option 'topics' must be a comma-separated list of MQTT topic filters");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSink.Provider(), Map.of("topic", "a/+")))
			.withMessageContaining("option 'topic' must be an MQTT topic name, without wildcards");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSource.Provider(), Map.of("topics", "a,b,c", "qos", "0,1")))
			.withMessageContaining("option 'qos' gives 2 levels for 3 topics");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSink.Provider(), Map.of("qos", "3")))
			.withMessageContaining("option 'qos' must be at least 0 and be at most 2");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSink.Provider(), Map.of("url", "http://127.0.0.1:1883")))
			.withMessageContaining("option 'url' must be tcp://host[:port] or ssl://host[:port]");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new MqttSource.Provider(), Map.of("persistence", "file")))
			.withMessageContaining("unknown option 'persistence'");
	}

	@Test
	void givesUrlsTheSchemesDefaultPorts() {
		assertThat(MqttConnections.urls("tcp://a, ssl://b,tcp://c:1884").stream().map(Object::toString))
			.containsExactly("tcp://a:1883", "ssl://b:8883", "tcp://c:1884");
	}
}
