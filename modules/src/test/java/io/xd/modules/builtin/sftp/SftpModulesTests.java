package io.xd.modules.builtin.sftp;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleProvider;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The sftp source's and sink's options and refusals, without a server. */
class SftpModulesTests {

	@TempDir
	Path data;

	private HostAccess access() {
		return HostAccess.defaults(this.data)
			.withConnections(Map.of("sftp", new Connection("files.example.com", 0, "xd", "pw", false, Map.of())))
			.withConnectHosts(List.of("127.0.0.1"));
	}

	private void check(ModuleProvider provider, Map<String, String> options) {
		access().check(provider, provider.metadata().resolve(options));
	}

	@Test
	void refusesCredentialsAndUnknownHostKeysInTheDefinition() {
		for (ModuleProvider provider : List.of(new SftpSource.Provider(), new SftpSink.Provider())) {
			assertThatExceptionOfType(ModuleOptionException.class)
				.isThrownBy(() -> check(provider, Map.of("password", "pw", "privateKey", "/home/x/.ssh/id_rsa",
						"passPhrase", "p")))
				.withMessageContaining("option 'password' is refused")
				.withMessageContaining("option 'privateKey' is refused")
				.withMessageContaining("option 'passPhrase' is refused");
			assertThatExceptionOfType(ModuleOptionException.class)
				.isThrownBy(() -> check(provider, Map.of("allowUnknownKeys", "true")))
				.withMessageContaining("known-hosts");
			check(provider, Map.of("allowUnknownKeys", "false"));
		}
		assertThat(SftpServers.PRIVATE_KEY.isSecret()).isTrue();
		assertThat(SftpServers.PASSWORD.isSecret()).isTrue();
	}

	@Test
	void refusesAHostNotAllowedAnUnknownConnectionAndAUserBesideAConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new SftpSource.Provider(), Map.of("host", "files.attacker.example")))
			.withMessageContaining("option 'host'")
			.withMessageContaining("files.attacker.example:22");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new SftpSink.Provider(), Map.of("connection", "nope")))
			.withMessageContaining("no connection of that name");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new SftpSink.Provider(), Map.of("user", "root")))
			.withMessageContaining("option 'user' is refused with a connection");
		check(new SftpSink.Provider(), Map.of("host", "127.0.0.1", "port", "2222", "user", "guest"));
	}

	@Test
	void refusesALocalDirOutsideTheFileRoots() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new SftpSource.Provider(), Map.of("localDir", "/etc")))
			.withMessageContaining("option 'localDir'")
			.withMessageContaining("xd.modules.file.roots");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> check(new SftpSource.Provider(), Map.of("localDir", "in/../../escape")))
			.withMessageContaining("option 'localDir'");
		check(new SftpSource.Provider(), Map.of("localDir", "in/sftp"));
	}

	@Test
	void remotePathsHaveNoDotDotSegmentsAndFileNamesAreOneName() {
		for (String bad : List.of("../etc", "in/../../x", "a\\b", "in\nx", "..")) {
			assertThat(SftpServers.isRemoteDirectory(bad)).as(bad).isFalse();
		}
		for (String good : List.of(".", "in", "/srv/in", "in/daily", "in/..data")) {
			assertThat(SftpServers.isRemoteDirectory(good)).as(good).isTrue();
		}
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SftpSink.Provider().metadata().resolve(Map.of("remoteDir", "up/../../root")))
			.withMessageContaining("option 'remoteDir'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SftpSource.Provider().metadata().resolve(Map.of("pattern", "../*.csv")))
			.withMessageContaining("option 'pattern'");
		assertThat(SftpServers.isFileName("report.csv")).isTrue();
		assertThat(List.of("..", ".", "a/b", "a\\b", "")).noneMatch(SftpServers::isFileName);
	}

	@Test
	void sinkRefusesAFileNameHeaderThatLeavesTheRemoteDirBeforeConnecting() {
		try (ModuleTestDriver driver = ModuleTestDriver.of(new SftpSink.Provider(), Map.of(), this.data, access())) {
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(MessageBuilder.withPayload("x").setHeader("file_name", "../../etc/x")
					.build()))
				.withMessageContaining("plain name");
			assertThatExceptionOfType(MessageHandlingException.class)
				.isThrownBy(() -> driver.send(MessageBuilder.withPayload(42).build()))
				.withMessageContaining("String or byte[]");
		}
	}
}
