package io.xd.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import io.xd.testsupport.SharedKafkaBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stream whose processor fails every message shows it, on Kafka and on the local bus: its module's errors, dead
 * letters and last error in {@code /runtime/modules} and in the shell, the stream {@code degraded} while it fails and
 * {@code deployed} again a window after; the log has one stack trace for it, not one per message and attempt.
 */
class FailuresInSightIntegrationTests {

	/** Longer than the container's measuring interval (5 s), so that the failing stream is seen degraded. */
	private static final String WINDOW = "--xd.admin.degradedWindow=15s";

	/** 20 messages over a second, each of which fail-on refuses (on Kafka, dead-lettering one takes longer). */
	private static final String FAILING = "load-generator --messageCount=20 --rate=20 --messageSize=64"
			+ " --generateTimestamp=true | fail-on --every=1 | log";

	@TempDir
	static Path localData;

	@TempDir
	static Path kafkaData;

	private static SingleNode local;

	private static SingleNode kafka;

	private static final ListAppender<ILoggingEvent> log = new ListAppender<>();

	@BeforeAll
	static void start() {
		local = new SingleNode(localData, WINDOW);
		kafka = new SingleNode(kafkaData, WINDOW, "--transport=kafka",
				"--xd.messagebus.kafka.brokers=" + SharedKafkaBroker.brokers(),
				"--xd.messagebus.kafka.default.backOffInitialInterval=20");
		// after the nodes started: starting one sets logging up again, without this appender
		log.start();
		root().addAppender(log);
	}

	@AfterAll
	static void stop() {
		root().detachAppender(log);
		if (local != null) {
			local.close();
		}
		if (kafka != null) {
			kafka.close();
		}
	}

	@Test
	void onKafkaAFailingModuleShowsItsErrorsAndDeadLettersAndItsStreamIsDegradedUntilItStopsFailing() {
		kafka.createStream("sick", FAILING, false);
		assertThat(kafka.postForm("/streams/deployments/sick",
				Map.of("properties", "module.fail-on.consumer.maxAttempts=2")).status()).isEqualTo(201);

		showsTheFailuresThenRecovers(kafka, "sick");
		JsonNode failing = module(kafka, "sick.processor.fail-on.1");
		// every record was attempted twice, then dead-lettered
		assertThat(failing.get("errors").asLong()).isGreaterThanOrEqualTo(2 * failing.get("deadLetters").asLong());
		assertThat(loggedFrom("io.xd.bus.kafka.KafkaConsumerBinding", "sick")).as("a stack trace for the first dead "
				+ "letter alone").hasSize(1).allMatch(event -> event.getThrowableProxy() != null);
		assertThat(logged()).as("no error per attempt from Spring Kafka")
			.noneMatch(event -> event.getLoggerName().startsWith("org.springframework.kafka")
					&& event.getLevel() == Level.ERROR);
	}

	@Test
	void onTheLocalBusAFailingModuleShowsItsErrorsAndDeadLettersAndItsStreamIsDegradedUntilItStopsFailing() {
		local.createStream("ailing", FAILING, true);

		showsTheFailuresThenRecovers(local, "ailing");
		JsonNode failing = module(local, "ailing.processor.fail-on.1");
		// a direct binding does not deliver again: each failure went to topic:xd.errors once
		assertThat(failing.get("deadLetters").asLong()).isEqualTo(failing.get("errors").asLong());
		assertThat(loggedFrom("io.xd.bus.local.LocalMessageBus", "ailing")).as("a stack trace for the first failure "
				+ "alone").hasSize(1).allMatch(event -> event.getThrowableProxy() != null);
	}

	private static void showsTheFailuresThenRecovers(SingleNode node, String stream) {
		String moduleId = stream + ".processor.fail-on.1";
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			JsonNode module = module(node, moduleId);
			return module != null && module.path("deadLetters").asLong() > 0;
		});
		JsonNode failing = module(node, moduleId);
		assertThat(failing.get("deploymentStatus").asString()).isEqualTo("deployed");
		assertThat(failing.get("errors").asLong()).isPositive();
		assertThat(failing.get("errorRate").isNumber()).isTrue();
		assertThat(failing.get("lastError").get("reason").asString()).startsWith("fail-on refuses sequence number");
		assertThat(failing.get("lastError").get("time").asString()).matches("\\d{4}-\\d{2}-\\d{2}T.*Z");
		assertThat(node.status(stream)).isEqualTo("degraded");
		assertThat(node.get("/streams/definitions").json().get("content").findValues("status").stream()
			.map(JsonNode::asString)).contains("degraded");

		ShellRun shell = ShellRun.withInput(node, "runtime modules\nstream list\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).contains("Error Rate", "Errors", "Dead Letters", "degraded",
				"Module " + moduleId + " last failed on a message at ", ": fail-on refuses sequence number");

		// the source stops after its 20 messages: a window later the stream is deployed again
		await().atMost(Duration.ofSeconds(60)).until(() -> node.status(stream).equals("deployed"));
		assertThat(module(node, moduleId).get("lastError").get("reason").asString())
			.as("the last error stays for whoever looks").startsWith("fail-on refuses");
	}

	private static JsonNode module(SingleNode node, String moduleId) {
		JsonNode content = node.get("/runtime/modules?moduleId=" + moduleId).json().get("content");
		return content.isEmpty() ? null : content.get(0);
	}

	private static List<ILoggingEvent> loggedFrom(String logger, String text) {
		return logged().stream()
			.filter(event -> event.getLoggerName().equals(logger) && event.getLevel() == Level.ERROR
					&& event.getFormattedMessage().contains(text))
			.toList();
	}

	/** What was logged so far (the appender adds events under its own lock). */
	private static List<ILoggingEvent> logged() {
		synchronized (log) {
			return List.copyOf(log.list);
		}
	}

	private static Logger root() {
		return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
	}
}
