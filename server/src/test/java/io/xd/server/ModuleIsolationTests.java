package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.ModuleType;
import io.xd.modules.internal.CustomModule;
import io.xd.modules.internal.JarLimits;
import io.xd.modules.internal.ModuleJar;
import io.xd.modules.internal.TestJars;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On the server's whole class path (admin, container, bus, built-in modules and their drivers), a custom module's code
 * loads the module API and nothing else of XD's: what it does not ship is not there for it.
 */
class ModuleIsolationTests {

	@TempDir
	Path dir;

	@Test
	void aCustomModuleLoadsNoClassOfTheServerThatItDoesNotShip() throws Exception {
		List<String> server = List.of("org.h2.Driver", "org.apache.kafka.clients.producer.KafkaProducer",
				"io.xd.admin.dsl.StreamParser", "io.xd.container.ContainerServer", "io.xd.bus.MessageBus",
				"io.xd.core.ChannelNames", "io.xd.server.XdApplication",
				"org.springframework.boot.SpringApplication", "org.apache.curator.framework.CuratorFramework");
		for (String name : server) {
			assertThat(Class.forName(name)).as("on the server's class path").isNotNull();
		}
		Path jar = TestJars.classProbe().writeTo(this.dir.resolve("probe.jar"));
		ModuleJar.check(jar, JarLimits.DEFAULT);
		CustomModule probe = ModuleJar.load(jar, ModuleType.PROCESSOR, "probe", ModuleJar.sha256(jar),
				Duration.ofSeconds(10));

		try (ModuleTestDriver driver = ModuleTestDriver.of(probe)) {
			server.forEach(driver::send);
			driver.send("io.xd.modules.ModuleContext");

			List<Object> expected = new ArrayList<>(Collections.nCopies(server.size(), "ClassNotFoundException"));
			expected.add("loaded io.xd.modules.ModuleContext");
			assertThat(driver.receivedPayloads()).containsExactlyElementsOf(expected);
		}
	}
}
