package io.xd.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.mail.internet.MimeMessage;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.Test;

import io.xd.modules.builtin.servers.MosquittoServer;
import io.xd.modules.builtin.servers.RabbitServer;
import io.xd.modules.builtin.servers.RedisServer;
import io.xd.modules.builtin.servers.TestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The second shelf tried as a Spring XD user would, each stream created and deployed with the XD shell on a
 * singlenode: {@code rabbit | router} to two {@code queue:}s, {@code mqtt | field-value-counter} whose counts
 * {@code field-value-counter display} shows, also after a restart, {@code jdbc | transform | redis} and
 * {@code tail | filter | mail}, against the real servers (RabbitMQ, Mosquitto, Redis, PostgreSQL, GreenMail's SMTP)
 * started once for the JVM. A subclass runs them on its transport; the operator declares each server as a connection.
 */
abstract class AbstractSecondShelfIntegrationTests {

	/** The singlenode of the class, started (and restarted) on {@link #dataDirectory()} with {@link #arguments()}. */
	abstract SingleNode node();

	/** Stops the singlenode and starts it again on the same data directory. */
	abstract void restart();

	/** A name for {@code name} on this transport: classes sharing the servers and a Kafka broker keep apart. */
	abstract String name(String name);

	/** The operator's settings: the servers as declared connections, the database as a data source. */
	static String[] arguments(String... transportArguments) {
		Servers servers = Servers.get();
		List<String> args = new ArrayList<>(List.of(
				"--xd.connections.rabbit.host=127.0.0.1", "--xd.connections.rabbit.port=" + servers.rabbit.port(),
				"--xd.connections.rabbit.username=guest", "--xd.connections.rabbit.password=guest",
				"--xd.connections.mqtt.host=127.0.0.1", "--xd.connections.mqtt.port=" + servers.mqtt.port(),
				"--xd.connections.redis.host=127.0.0.1", "--xd.connections.redis.port=" + servers.redis.port(),
				"--xd.connections.mail.host=127.0.0.1", "--xd.connections.mail.port=" + servers.mail.getSmtp().getPort(),
				"--xd.datasources.shop.url=jdbc:postgresql://localhost:" + servers.postgres.getPort() + "/postgres",
				"--xd.datasources.shop.username=postgres"));
		args.addAll(List.of(transportArguments));
		return args.toArray(String[]::new);
	}

	@Test
	void ordersFromARabbitQueueAreRoutedByContentToTwoNamedQueues() throws Exception {
		String urgent = name("urgent");
		String normal = name("normal");
		Path dir = node().dataDirectory().resolve("files").resolve(name("routed"));
		deployWithShell(urgent, "queue:" + urgent + " > file --dir=" + dir.getFileName() + " --name=urgent");
		deployWithShell(normal, "queue:" + normal + " > file --dir=" + dir.getFileName() + " --name=normal");
		String queue = name("orders");
		ConnectionFactory factory = new ConnectionFactory();
		factory.setHost("127.0.0.1");
		factory.setPort(Servers.get().rabbit.port());
		try (com.rabbitmq.client.Connection connection = factory.newConnection();
				Channel channel = connection.createChannel()) {
			channel.queueDeclare(queue, true, false, false, null);
			deployWithShell(name("rabbitorders"), "rabbit --queues=" + queue + " | router --inputType=text/plain"
					+ " --expression=\"payload.contains('urgent') ? 'queue:" + urgent + "' : 'queue:" + normal + "'\"");
			for (String order : List.of("urgent: 1", "order 2", "urgent: 3", "order 4")) {
				channel.basicPublish("", queue, null, order.getBytes(StandardCharsets.UTF_8));
			}
		}

		assertThat(awaitLines(dir.resolve("urgent.out"), 2)).containsExactly("urgent: 1", "urgent: 3");
		assertThat(awaitLines(dir.resolve("normal.out"), 2)).containsExactly("order 2", "order 4");
	}

	@Test
	void devicesOverMqttAreCountedByFieldValueAndTheCountsOutliveARestart() throws Exception {
		String counter = name("devices");
		deployWithShell(counter, "mqtt --topics=sensors/+ --qos=1 | field-value-counter --fieldName=device --name="
				+ counter);
		try (MqttClient client = new MqttClient(Servers.get().mqtt.url(), MqttClient.generateClientId(),
				new MemoryPersistence())) {
			client.connect(new MqttConnectOptions());
			for (String device : List.of("phone", "tablet", "phone", "watch", "phone", "tablet")) {
				MqttMessage message = new MqttMessage(("{\"device\":\"" + device + "\",\"temperature\":21}")
					.getBytes(StandardCharsets.UTF_8));
				message.setQos(1);
				client.publish("sensors/" + device, message);
			}
			client.disconnect();
		}

		await().atMost(Duration.ofSeconds(30)).until(() -> node().get("/metrics/field-value-counters/" + counter)
			.status() == 200 && total(counter) == 6);
		assertCounts(counter);
		restart();
		assertCounts(counter);
	}

	private long total(String counter) {
		long total = 0;
		for (var count : node().get("/metrics/field-value-counters/" + counter).json().get("counts")) {
			total += count.asLong();
		}
		return total;
	}

	private void assertCounts(String counter) {
		ShellRun shell = ShellRun.withInput(node(), "field-value-counter display --name " + counter + "\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).containsPattern("phone\\s+3\\n")
			.containsPattern("tablet\\s+2\\n")
			.containsPattern("watch\\s+1\\n");
	}

	@Test
	void rowsAQueryReadsAreMarkedTransformedAndPushedToARedisList() throws Exception {
		String table = name("people");
		try (Connection connection = Servers.get().postgres.getPostgresDatabase().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + table + " (id SERIAL PRIMARY KEY, name TEXT, seen BOOLEAN DEFAULT "
					+ "FALSE)");
			statement.execute("INSERT INTO " + table + " (name) VALUES ('ada'), ('grace'), ('barbara')");
		}
		String list = name("names");
		deployWithShell(name("people"), "jdbc --dataSource=shop --query='SELECT id, name FROM " + table
				+ " WHERE seen = FALSE ORDER BY id' --update='UPDATE " + table + " SET seen = TRUE WHERE id = :id'"
				+ " --fixedDelay=1 | transform --expression=payload.name.toUpperCase() | redis --queue=" + list);

		RedisClient redis = RedisClient.create("redis://127.0.0.1:" + Servers.get().redis.port());
		try (StatefulRedisConnection<String, String> connection = redis.connect()) {
			await().atMost(Duration.ofSeconds(30)).until(() -> connection.sync().llen(list) >= 3);
			// the sink pushes each on the left, as Spring XD's did
			assertThat(connection.sync().lrange(list, 0, -1)).containsExactly("BARBARA", "GRACE", "ADA");
		}
		finally {
			redis.shutdown();
		}
		assertThat(unseen(table)).isZero();
	}

	private static long unseen(String table) throws SQLException {
		try (Connection connection = Servers.get().postgres.getPostgresDatabase().getConnection();
				var rows = connection.createStatement().executeQuery("SELECT count(*) FROM " + table
						+ " WHERE NOT seen")) {
			rows.next();
			return rows.getLong(1);
		}
	}

	@Test
	void errorLinesOfAFollowedLogAreMailed() throws Exception {
		String stream = name("alerts");
		Path log = Files.createDirectories(node().dataDirectory().resolve("files").resolve("logs"))
			.resolve(stream + ".log");
		Files.writeString(log, "INFO before the stream\n");
		String recipient = stream + "@example.com";
		deployWithShell(stream, "tail --name=logs/" + stream + ".log | filter --expression=\"payload.contains('ERROR')\""
				+ " | mail --to=" + recipient + " --from=xd@example.com --subject=alert");

		GreenMail mail = Servers.get().mail;
		// the source follows from the end of the file as it was when the stream started: retry until it reads
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			Files.writeString(log, "INFO ok\nERROR disk full\n", StandardOpenOption.APPEND);
			return mailsTo(mail, recipient).size() >= 1;
		});
		Files.writeString(log, "ERROR again\nINFO fine\n", StandardOpenOption.APPEND);

		await().atMost(Duration.ofSeconds(30)).until(() -> mailsTo(mail, recipient).stream()
			.anyMatch(body -> body.contains("ERROR again")));
		assertThat(mailsTo(mail, recipient)).allSatisfy(body -> assertThat(body).contains("ERROR"))
			.noneMatch(body -> body.contains("INFO"));
	}

	private static List<String> mailsTo(GreenMail mail, String recipient) throws Exception {
		List<String> bodies = new ArrayList<>();
		for (MimeMessage message : mail.getReceivedMessages()) {
			if (message.getAllRecipients()[0].toString().equals(recipient)) {
				assertThat(message.getSubject()).isEqualTo("alert");
				bodies.add(GreenMailUtil.getBody(message).strip());
			}
		}
		return bodies;
	}

	/** Creates and deploys a stream with {@code stream create ... --deploy}, and waits until it is deployed. */
	void deployWithShell(String name, String definition) {
		ShellRun shell = ShellRun.withInput(node(), "stream create " + name + " --definition \""
				+ definition.replace("\"", "\\\"") + "\" --deploy\n");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		await().atMost(Duration.ofSeconds(30)).until(() -> node().status(name).equals("deployed"));
	}

	static List<String> awaitLines(Path file, int count) throws IOException {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8).size() >= count);
		return Files.readAllLines(file, StandardCharsets.UTF_8);
	}

	/** The real servers, started once for the JVM (both transports' classes share them) and stopped at its exit. */
	static final class Servers {

		private static Servers servers;

		final RabbitServer rabbit = RabbitServer.start();

		final MosquittoServer mqtt = MosquittoServer.start(Map.of());

		final RedisServer redis = RedisServer.start();

		final EmbeddedPostgres postgres;

		final GreenMail mail = new GreenMail(new ServerSetup(TestServer.freePort(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));

		private Servers() throws IOException {
			this.postgres = EmbeddedPostgres.start();
			this.mail.start();
			Runtime.getRuntime().addShutdownHook(new Thread(this::close));
		}

		static synchronized Servers get() {
			if (servers == null) {
				try {
					servers = new Servers();
				}
				catch (IOException ex) {
					throw new IllegalStateException("Could not start PostgreSQL", ex);
				}
			}
			return servers;
		}

		private void close() {
			this.mail.stop();
			this.rabbit.close();
			this.mqtt.close();
			this.redis.close();
			try {
				this.postgres.close();
			}
			catch (IOException ex) {
				// the JVM exits
			}
		}
	}
}
