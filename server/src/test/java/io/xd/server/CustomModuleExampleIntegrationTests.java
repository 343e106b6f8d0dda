package io.xd.server;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The module author's example ({@code examples/reverse-processor}) built by its own Maven build against the module
 * SPI artifact of this build, its unit tests included, then uploaded to a singlenode and run in
 * {@code time | reverse | log}, before and after a restart. Keeps the example from rotting.
 */
class CustomModuleExampleIntegrationTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	/** The time source's default format (yyyy-MM-dd HH:mm:ss), reversed. */
	private static final String REVERSED_TIME = "\\d\\d:\\d\\d:\\d\\d \\d\\d-\\d\\d-\\d{4}";

	@TempDir
	Path work;

	@TempDir
	Path data;

	@Test
	void theExampleBuildsAndRunsInAStreamBeforeAndAfterARestart() throws Exception {
		Path jar = buildExample();

		try (SingleNode node = new SingleNode(this.data)) {
			AdminApi.Response upload = node.send(HttpRequest.newBuilder(URI.create(node.baseUri() + "/modules/processor/reverse"))
				.header("Content-Type", "application/octet-stream")
				.POST(HttpRequest.BodyPublishers.ofFile(jar)));
			assertThat(upload.status()).as(upload.body()).isEqualTo(201);
			assertThat(node.get("/modules/processor/reverse").json().get("options").get(0).get("name").asString())
				.isEqualTo("uppercase");

			ListAppender<ILoggingEvent> log = captureLogSink();
			assertThat(node.createStream("backwards", "time | reverse | log", true).status()).isEqualTo(201);
			awaitReversedTime(log);
		}

		try (SingleNode node = new SingleNode(this.data)) {
			ListAppender<ILoggingEvent> log = captureLogSink();
			await().atMost(Duration.ofSeconds(30)).until(() -> node.status("backwards").equals("deployed"));
			awaitReversedTime(log);
		}
	}

	/**
	 * Copies the example out of the source tree and packages it; the module API comes from a local repository of its
	 * own. Its dependency tree, written by the same build, lists the module API and what it needs, and nothing of the
	 * built-in modules or their drivers.
	 */
	private Path buildExample() throws IOException, InterruptedException {
		Path project = this.work.resolve("reverse-processor");
		copyTree(ROOT.resolve("examples/reverse-processor"), project);
		Path apiJar;
		try (Stream<Path> files = Files.list(ROOT.resolve("module-api/target"))) {
			apiJar = files.filter(file -> file.getFileName().toString().matches("xd-module-api-[^-]+(-SNAPSHOT)?\\.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("module-api/target has no xd-module-api jar: build with -am"));
		}
		String name = apiJar.getFileName().toString();
		String version = name.substring("xd-module-api-".length(), name.length() - ".jar".length());
		// what `mvn install` would put in a repository, without touching the user's own: the API's jar and pom and the
		// parent pom; every other artifact comes read-only from the user's repository (Maven 3.9's "tail")
		Path repository = this.work.resolve("repository");
		Path api = Files.createDirectories(repository.resolve("io/xd/xd-module-api/" + version));
		Files.copy(apiJar, api.resolve("xd-module-api-" + version + ".jar"));
		Files.copy(ROOT.resolve("module-api/pom.xml"), api.resolve("xd-module-api-" + version + ".pom"));
		Path parent = Files.createDirectories(repository.resolve("io/xd/xd-parent/" + version));
		Files.copy(ROOT.resolve("pom.xml"), parent.resolve("xd-parent-" + version + ".pom"));

		Path tree = this.work.resolve("dependency-tree.txt");
		Path userRepository = Path.of(System.getProperty("user.home"), ".m2", "repository");
		List<String> command = new ArrayList<>(List.of(ROOT.resolve("mvnw").toString(), "-B", "-ntp", "-o", "-f",
				project.resolve("pom.xml").toString(), "-Dmaven.repo.local=" + repository,
				"-Dmaven.repo.local.tail=" + userRepository, "-Dxd.version=" + version, "package", "dependency:tree",
				"-Dscope=compile", "-DoutputFile=" + tree));
		Path output = this.work.resolve("example-build.log");
		Process build = new ProcessBuilder(command).directory(project.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
		assertThat(build.waitFor(180, TimeUnit.SECONDS)).as("the example's build ends within 3 minutes").isTrue();
		String log = Files.readString(output, StandardCharsets.UTF_8);
		assertThat(build.exitValue()).as(log).isZero();
		assertThat(log).contains("Tests run: 3, Failures: 0, Errors: 0");
		assertThat(Files.readString(tree)).contains("io.xd:xd-module-api:jar:" + version + ":provided",
				"org.springframework:spring-messaging:jar:")
			.doesNotContain("xd-modules", "kafka", "h2database", "postgresql", "spring-integration", "micrometer",
					"HdrHistogram", "jackson", "json-path", "slf4j");
		return project.resolve("target/reverse-processor-1.0.0.jar");
	}

	private static ListAppender<ILoggingEvent> captureLogSink() {
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		Logger logger = (Logger) LoggerFactory.getLogger("xd.sink.log.backwards");
		// the tests' logback configuration logs warnings only
		logger.setLevel(Level.INFO);
		logger.addAppender(appender);
		return appender;
	}

	private static void awaitReversedTime(ListAppender<ILoggingEvent> log) {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> List.copyOf(log.list).stream().anyMatch(event -> event.getFormattedMessage().matches(REVERSED_TIME)));
	}

	private static void copyTree(Path from, Path to) throws IOException {
		try (Stream<Path> files = Files.walk(from)) {
			for (Path file : files.filter(f -> !from.relativize(f).startsWith("target")).toList()) {
				Path target = to.resolve(from.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(file, target);
				}
			}
		}
	}
}
