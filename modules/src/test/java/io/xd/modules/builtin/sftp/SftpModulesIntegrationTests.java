package io.xd.modules.builtin.sftp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The sftp sink and source against Apache MINA SSHD's SFTP server (the version Spring Integration SFTP's client
 * uses), started on a loopback port with a password authenticator and a virtual file system on a temporary folder.
 */
class SftpModulesIntegrationTests {

	private static final String LOOPBACK = "127.0.0.1";

	@TempDir
	Path temp;

	private Path remoteRoot;

	private Path data;

	private Path knownHosts;

	private SshServer server;

	@BeforeEach
	void startServer() throws IOException, GeneralSecurityException {
		this.remoteRoot = Files.createDirectories(this.temp.resolve("remote"));
		this.data = Files.createDirectories(this.temp.resolve("data"));
		this.server = SshServer.setUpDefaultServer();
		this.server.setHost(LOOPBACK);
		this.server.setPort(0);
		SimpleGeneratorHostKeyProvider keys = new SimpleGeneratorHostKeyProvider(this.temp.resolve("host.key"));
		this.server.setKeyPairProvider(keys);
		this.server.setPasswordAuthenticator((user, password, session) -> user.equals("xd")
				&& password.equals("pw-sftp"));
		this.server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
		this.server.setFileSystemFactory(new VirtualFileSystemFactory(this.remoteRoot));
		this.server.start();
		PublicKey hostKey = keys.loadKeys(null).iterator().next().getPublic();
		this.knownHosts = this.temp.resolve("known_hosts");
		Files.writeString(this.knownHosts, "[" + LOOPBACK + "]:" + this.server.getPort() + " "
				+ PublicKeyEntry.toString(hostKey) + "\n");
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.stop(true);
	}

	private HostAccess access(Map<String, String> properties) {
		return HostAccess.defaults(this.data).withConnections(Map.of("sftp",
				new Connection(LOOPBACK, this.server.getPort(), "xd", "pw-sftp", false, properties)));
	}

	private HostAccess knowingTheServer() {
		return access(Map.of("known-hosts", this.knownHosts.toString()));
	}

	private static Message<String> file(String name, String contents) {
		return MessageBuilder.withPayload(contents).setHeader("file_name", name).build();
	}

	@Test
	void sinkWritesFilesThatAppearOnTheServer() throws IOException {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSink.Provider(),
				Map.of("remoteDir", "upload/daily", "mode", "FAIL"), this.data, knowingTheServer())) {
			driver.send(file("report.csv", "a,b\n1,2\n"));
			driver.send(MessageBuilder.withPayload("unnamed".getBytes(StandardCharsets.UTF_8)).build());

			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(file("report.csv", "again")));
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(file("../escaped.csv", "out")))
				.withMessageContaining("plain name");
		}

		Path upload = this.remoteRoot.resolve("upload/daily");
		assertThat(upload.resolve("report.csv")).hasContent("a,b\n1,2");
		assertThat(files(upload)).hasSize(2)
			.contains("report.csv")
			.anyMatch(name -> name.endsWith(".msg") && !name.contains(".writing"));
		assertThat(this.remoteRoot.resolve("upload/escaped.csv")).doesNotExist();
	}

	@Test
	void sinkAppendsInAppendMode() throws IOException {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSink.Provider(),
				Map.of("mode", "APPEND"), this.data, knowingTheServer())) {
			driver.send(file("log.txt", "one\n"));
			driver.send(file("log.txt", "two\n"));
		}
		assertThat(Files.readString(this.remoteRoot.resolve("log.txt"))).isEqualTo("one\ntwo\n");
	}

	@Test
	void sourceCopiesMatchingFilesSendsTheirContentsAndDeletesThemRemotely() throws IOException {
		Path in = Files.createDirectories(this.remoteRoot.resolve("in"));
		Files.writeString(in.resolve("orders.csv"), "id,qty\n7,2\n");
		Files.writeString(in.resolve("notes.txt"), "not for us");
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSource.Provider(),
				Map.of("remoteDir", "in", "pattern", "*.csv", "deleteRemoteFiles", "true", "localDir", "sftp-in"),
				this.data, knowingTheServer())) {
			List<Message<?>> received = driver.awaitReceived(1, Duration.ofSeconds(10));

			assertThat(new String((byte[]) received.get(0).getPayload(), StandardCharsets.UTF_8))
				.isEqualTo("id,qty\n7,2\n");
			assertThat(received.get(0).getHeaders()).containsEntry("file_name", "orders.csv");
			await().atMost(Duration.ofSeconds(5)).until(() -> !Files.exists(in.resolve("orders.csv")));
			assertThat(in.resolve("notes.txt")).exists();
			assertThat(this.data.resolve("files/sftp-in/orders.csv")).hasContent("id,qty\n7,2");

			Files.writeString(in.resolve("later.csv"), "9,1\n");
			await().atMost(Duration.ofSeconds(10)).until(() -> driver.received().size() == 2);
			assertThat(driver.received().get(1).getHeaders()).containsEntry("file_name", "later.csv");
		}
	}

	@Test
	void sourceSendsTheLocalPathInRefMode() throws IOException {
		Files.writeString(this.remoteRoot.resolve("data.bin"), "bytes");
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSource.Provider(),
				Map.of("mode", "ref", "localDir", "copies"), this.data, knowingTheServer())) {
			List<Message<?>> received = driver.awaitReceived(1, Duration.ofSeconds(10));

			Path local = this.data.resolve("files/copies/data.bin");
			assertThat(received.get(0).getPayload()).isEqualTo(local.toString());
			assertThat(local).hasContent("bytes");
			assertThat(this.remoteRoot.resolve("data.bin")).exists();
		}
	}

	@Test
	void refusesAnUnknownHostKeyUnlessTheConnectionAllowsIt() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSink.Provider(), Map.of(), this.data,
				access(Map.of()))) {
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(file("secret.txt", "never")));
		}
		assertThat(this.remoteRoot.resolve("secret.txt")).doesNotExist();

		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSink.Provider(), Map.of(), this.data,
				access(Map.of("allow-unknown-keys", "true")))) {
			driver.send(file("allowed.txt", "by the operator"));
		}
		assertThat(this.remoteRoot.resolve("allowed.txt")).hasContent("by the operator");
	}

	@Test
	void refusesAHostKeyThatIsNotTheOneKnown() throws IOException, GeneralSecurityException {
		PublicKey otherKey = new SimpleGeneratorHostKeyProvider(this.temp.resolve("other.key")).loadKeys(null)
			.iterator()
			.next()
			.getPublic();
		Files.writeString(this.knownHosts, "[" + LOOPBACK + "]:" + this.server.getPort() + " "
				+ PublicKeyEntry.toString(otherKey) + "\n");
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSink.Provider(), Map.of(), this.data,
				knowingTheServer())) {
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(file("secret.txt", "never")));
		}
		assertThat(this.remoteRoot.resolve("secret.txt")).doesNotExist();
	}

	private static List<String> files(Path directory) throws IOException {
		try (var files = Files.list(directory)) {
			return files.map(path -> path.getFileName().toString()).toList();
		}
	}
}
