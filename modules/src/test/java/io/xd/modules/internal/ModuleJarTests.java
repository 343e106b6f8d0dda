package io.xd.modules.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModuleJarTests {

	@TempDir
	Path dir;

	@Test
	void loadsTheJarsProviderUnderTheRegisteredName() {
		CustomModule module = load(TestJars.suffixProcessor(), "myproc");

		assertThat(module.metadata().qualifiedName()).isEqualTo("processor:myproc");
		assertThat(module.metadata().option("suffix")).isPresent();
		assertThat(module.sha256()).isEqualTo("abc");
		try (ModuleTestDriver driver = ModuleTestDriver.of(module, Map.of("suffix", "!"))) {
			driver.send("hello");
			assertThat(driver.receivedPayloads()).containsExactly("hello!");
		}
	}

	@Test
	void runsTwoVersionsOfOneLibrarySideBySide() {
		CustomModule one = load(TestJars.suffixProcessor("1.0"), "one");
		CustomModule two = load(TestJars.suffixProcessor("2.0"), "two");

		try (ModuleTestDriver first = ModuleTestDriver.of(one); ModuleTestDriver second = ModuleTestDriver.of(two)) {
			first.send("x");
			second.send("x");
			assertThat(first.receivedPayloads()).containsExactly("x-1.0");
			assertThat(second.receivedPayloads()).containsExactly("x-2.0");
		}
	}

	@Test
	void aModuleSeesOnlyTheSpiSpringMessagingAndTheJdk() throws Exception {
		ClassLoader loader = load(TestJars.suffixProcessor(), "myproc").classLoader();

		assertThat(loader.loadClass(Processor.class.getName())).isSameAs(Processor.class);
		assertThat(loader.loadClass("org.springframework.messaging.Message"))
			.isSameAs(org.springframework.messaging.Message.class);
		assertThat(loader.loadClass("java.util.List")).isSameAs(java.util.List.class);
		for (String hidden : new String[] { "tools.jackson.databind.json.JsonMapper", ModuleRegistry.class.getName(),
				"io.xd.modules.builtin.TimeSource", "org.slf4j.Logger", "org.springframework.util.Assert" }) {
			assertThatThrownBy(() -> loader.loadClass(hidden)).as(hidden).isInstanceOf(ClassNotFoundException.class);
		}
		assertThat(Collections.list(loader.getResources(ModuleJar.SERVICE_FILE))).hasSize(1);
	}

	@Test
	void aModuleCannotLoadTheBuiltInModulesOrTheirDriversWithoutShippingThem() throws Exception {
		List<String> notShipped = List.of("org.h2.Driver", "org.postgresql.Driver",
				"org.apache.kafka.clients.producer.KafkaProducer", "com.jayway.jsonpath.JsonPath",
				"org.springframework.integration.ip.tcp.serializer.TcpCodecs", "io.micrometer.core.instrument.Metrics",
				"io.xd.modules.internal.ModuleRegistry", "io.xd.modules.builtin.TimeSource");
		List<String> api = List.of("io.xd.modules.Processor", "io.xd.modules.expression.SafeExpression",
				"io.xd.modules.testkit.ModuleTestDriver", "org.springframework.messaging.support.GenericMessage",
				"org.springframework.integration.channel.DirectChannel");
		for (String name : notShipped) {
			assertThat(Class.forName(name)).as("on XD's class path").isNotNull();
		}

		try (ModuleTestDriver driver = ModuleTestDriver.of(load(TestJars.classProbe(), "probe"))) {
			notShipped.forEach(driver::send);
			api.forEach(driver::send);
			assertThat(driver.receivedPayloads()).containsExactlyElementsOf(Stream
				.concat(notShipped.stream().map(name -> "ClassNotFoundException"), api.stream().map(name -> "loaded " + name))
				.toList());
		}
	}

	@Test
	void refusesAProviderThatFailsToLoad() {
		assertThatThrownBy(() -> load(TestJars.failingToLoad(), "myproc")).isInstanceOf(ModuleJarException.class)
			.hasMessageContaining("fails to load")
			.hasMessageContaining("no licence key");
	}

	@Test
	void refusesAProviderWhoseMetadataThrows() {
		assertThatThrownBy(() -> load(TestJars.failingInMetadata(), "myproc")).isInstanceOf(ModuleJarException.class)
			.hasMessageContaining("failed in metadata()")
			.hasMessageContaining("metadata unavailable");
	}

	@Test
	void refusesAProviderThatDoesNotDescribeItselfInTime() {
		Path jar = TestJars.hangingInMetadata().writeTo(this.dir.resolve("hang.jar"));

		assertThatThrownBy(() -> ModuleJar.load(jar, ModuleType.PROCESSOR, "hang", "abc", Duration.ofMillis(300)))
			.isInstanceOf(ModuleJarException.class)
			.hasMessage("The module provider did not load and describe itself within PT0.3S (xd.modules.loadTimeout)");
	}

	@Test
	void refusesAModuleOfAnotherType() {
		assertThatThrownBy(() -> load(TestJars.declaringType("SINK"), "myproc")).isInstanceOf(ModuleJarException.class)
			.hasMessage("The jar's module suffix is a sink, but it was uploaded as a processor");
	}

	@Test
	void refusesAJarWithoutProvider() {
		Path jar = TestJars.suffixProcessor().without(ModuleJar.SERVICE_FILE).writeTo(this.dir.resolve("m.jar"));

		assertThatThrownBy(() -> ModuleJar.check(jar, JarLimits.DEFAULT)).isInstanceOf(ModuleJarException.class)
			.hasMessageContaining("has no META-INF/services/io.xd.modules.ModuleProvider");
	}

	@Test
	void refusesWhatIsNotAJar() throws IOException {
		Path text = Files.writeString(this.dir.resolve("m.jar"), "#!/bin/sh\necho hello\n");

		assertThatThrownBy(() -> ModuleJar.check(text, JarLimits.DEFAULT)).isInstanceOf(ModuleJarException.class)
			.hasMessageStartingWith("The body is not a jar (zip) file");
	}

	@Test
	void refusesEntriesThatClimbOutOrAreAbsolute() {
		for (String name : new String[] { "../evil.sh", "lib/../../evil.sh", "/etc/cron.d/evil", "C:/evil",
				"a\\..\\evil" }) {
			Path jar = TestJars.suffixProcessor().withResource(name, new byte[1]).writeTo(this.dir.resolve("m.jar"));
			assertThatThrownBy(() -> ModuleJar.check(jar, JarLimits.DEFAULT)).as(name)
				.isInstanceOf(ModuleJarException.class)
				.hasMessageContaining("unsafe name");
		}
	}

	@Test
	void refusesAZipBombByRatioAndByExpandedSize() throws IOException {
		Path bomb = zeros(this.dir.resolve("bomb.jar"), 4 * 1024 * 1024);

		assertThatThrownBy(() -> ModuleJar.check(bomb, JarLimits.DEFAULT)).isInstanceOf(ModuleJarException.class)
			.hasMessageContaining("zeros.bin' expands")
			.hasMessageContaining("possible zip bomb");
		assertThatThrownBy(() -> ModuleJar.check(bomb, new JarLimits(100, 1024 * 1024, 100_000)))
			.isInstanceOf(ModuleJarException.class)
			.hasMessageContaining("expands to more than 1048576 bytes")
			.hasMessageContaining("possible zip bomb");
		assertThatThrownBy(() -> ModuleJar.check(bomb, new JarLimits(1, 1 << 30, 100_000)))
			.isInstanceOf(ModuleJarException.class)
			.hasMessageContaining("The jar has 2 entries; at most 1 are allowed");
	}

	@Test
	void aRetiredModuleClosesItsClassLoaderAfterItsLastInstance() {
		CustomModule module = load(TestJars.suffixProcessor(), "myproc");
		assertThat(module.retain()).isTrue();

		module.retire();
		assertThat(module.isClosed()).isFalse();
		module.release();

		assertThat(module.isClosed()).isTrue();
		assertThat(module.retain()).isFalse();
	}

	private CustomModule load(TestJars jars, String name) {
		Path jar = jars.writeTo(this.dir.resolve(name + ".jar"));
		ModuleJar.check(jar, JarLimits.DEFAULT);
		return ModuleJar.load(jar, ModuleType.PROCESSOR, name, "abc", Duration.ofSeconds(10));
	}

	/** A jar with a service file and an entry of {@code size} zero bytes, which deflate to almost nothing. */
	static Path zeros(Path jar, int size) throws IOException {
		try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
			zip.putNextEntry(new ZipEntry(ModuleJar.SERVICE_FILE));
			zip.write(TestJars.SUFFIX_PROVIDER.getBytes(StandardCharsets.UTF_8));
			zip.putNextEntry(new ZipEntry("zeros.bin"));
			zip.write(new byte[size]);
			zip.closeEntry();
		}
		return jar;
	}
}
