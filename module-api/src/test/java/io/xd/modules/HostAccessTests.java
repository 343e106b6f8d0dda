package io.xd.modules;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class HostAccessTests {

	@TempDir
	Path dir;

	@Test
	void theDefaultRootIsTheFilesFolderOfTheDataDirectory() {
		HostAccess access = HostAccess.defaults(this.dir.resolve("data"));

		assertThat(access.fileRoots()).containsExactly(this.dir.resolve("data/files"));
		assertThat(access.path("dir", "out")).isEqualTo(this.dir.resolve("data/files/out"));
	}

	@Test
	void noRootContainsTheDataDirectoryOrLiesOnASpecialFileSystem() {
		Path data = this.dir.resolve("data");
		for (Path root : List.of(this.dir, data, Path.of("/"), Path.of("/proc/self"), Path.of("/dev"),
				Path.of("/sys/fs"), Path.of("relative"))) {
			assertThatIllegalArgumentException().as(root.toString())
				.isThrownBy(() -> new HostAccess(List.of(root), data));
		}
	}

	@Test
	void refusesEveryPathThatLeavesTheRoots() {
		Path root = this.dir.resolve("root");
		HostAccess access = new HostAccess(List.of(root, this.dir.resolve("second")), this.dir.resolve("data"));

		assertThat(access.path("dir", "a/b/../c")).isEqualTo(root.resolve("a/c"));
		assertThat(access.path("dir", this.dir.resolve("second/x").toString())).isEqualTo(this.dir.resolve("second/x"));
		for (String text : List.of("..", "../root-sibling", this.dir + "/root-sibling", this.dir.toString(),
				this.dir + "/data/credentials.properties", "/etc/passwd", "/proc/self/environ", "a\0b")) {
			assertThatExceptionOfType(ModuleOptionException.class).as(text)
				.isThrownBy(() -> access.path("dir", text))
				.withMessageContaining("option 'dir'")
				.withMessageContaining(root.toString());
		}
	}

	@Test
	void networkSourcesListenOnLoopbackUnprivilegedPortsThatAreNotXdsUnlessAllowed() {
		HostAccess access = HostAccess.defaults(this.dir).withReservedPorts(() -> List.of(9393, 2181));

		assertThat(access.bindAddress("127.0.0.1", 9000).getAddress().isLoopbackAddress()).isTrue();
		assertThat(access.bindAddress("localhost", 0).getPort()).isZero();
		assertThat(access.bindAddress("::1", 1024).getAddress().isLoopbackAddress()).isTrue();
		for (String address : List.of("0.0.0.0", "::", "10.1.2.3")) {
			assertThatExceptionOfType(ModuleOptionException.class).as(address)
				.isThrownBy(() -> access.bindAddress(address, 9000))
				.withMessageContaining("option 'address'")
				.withMessageContaining("xd.modules.network.bind-addresses");
		}
		for (int port : new int[] { 80, 1023, 9393, 2181, 65536, -1 }) {
			assertThatExceptionOfType(ModuleOptionException.class).as(Integer.toString(port))
				.isThrownBy(() -> access.bindAddress("127.0.0.1", port))
				.withMessageContaining("option 'port'");
		}
		HostAccess everywhere = access.withBindAddresses(List.of("0.0.0.0"));
		assertThat(everywhere.bindAddress("0.0.0.0", 9000).getAddress().isAnyLocalAddress()).isTrue();
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> everywhere.bindAddress("0.0.0.0", 9393));
	}

	@Test
	void connectingModulesReachAllowedHostsOnlyAndNeverLinkLocalOrMetadataAddresses() {
		HostAccess none = HostAccess.defaults(this.dir);
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> none.checkDestination("url", URI.create("http://127.0.0.1:8080/")))
			.withMessageContaining("xd.modules.http-client.allowed-hosts");
		HostAccess access = none.withAllowedHosts(List.of("LOCALHOST", "[::1]", "169.254.169.254", "100.100.100.200"))
			.withReservedPorts(() -> List.of(9393));

		assertThat(access.checkDestination("url", URI.create("http://localhost:8080/x"))).isNotEmpty()
			.allMatch(InetAddress::isLoopbackAddress);
		assertThat(access.checkDestination("url", URI.create("http://[::1]:8080/x"))).isNotEmpty();
		for (String url : List.of("http://localhost:9393/streams/definitions", "http://169.254.169.254/latest/",
				"http://100.100.100.200/", "http://localhost.:8080/", "http://sub.localhost:8080/", "http:///x")) {
			assertThatExceptionOfType(ModuleOptionException.class).as(url)
				.isThrownBy(() -> access.checkDestination("url", URI.create(url)))
				.withMessageContaining("option 'url'");
		}
	}

	@Test
	void connectorsNameDeclaredConnectionsOrAllowedHostsOnly() {
		HostAccess none = HostAccess.defaults(this.dir).withReservedPorts(() -> List.of(9393));
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> none.connection("connection", "rabbit"))
			.withMessageContaining("no connection of that name")
			.withMessageContaining("xd.connections.<name>.host");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> none.checkConnectHost("host", "127.0.0.1", 5672))
			.withMessageContaining("xd.modules.connect.allowed-hosts");

		Connection rabbit = new Connection("mq.internal", 5671, "xd", "s3cret", true, Map.of("virtual-host", "/xd"));
		HostAccess access = none.withConnections(Map.of("rabbit", rabbit))
			.withConnectHosts(List.of("LocalHost", "169.254.169.254"));
		assertThat(access.connection("connection", "rabbit")).isSameAs(rabbit);
		assertThat(access.connectionNames()).containsExactly("rabbit");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> access.connection("connection", "other"))
			.withMessageContaining("(declared: rabbit)");
		assertThat(rabbit.toString()).doesNotContain("s3cret").contains("******");
		assertThat(access.toString()).doesNotContain("s3cret");

		assertThat(access.checkConnectHost("host", "localhost", 5672)).allMatch(InetAddress::isLoopbackAddress);
		for (String host : List.of("169.254.169.254", "127.0.0.1", "localhost.", "mq.internal")) {
			assertThatExceptionOfType(ModuleOptionException.class).as(host)
				.isThrownBy(() -> access.checkConnectHost("host", host, 5672))
				.withMessageContaining("option 'host'");
		}
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> access.checkConnectHost("host", "localhost", 9393))
			.withMessageContaining("a port of XD itself");
	}

	@Test
	void namesTheModuleWhenItsProviderRefuses() {
		ModuleProvider provider = new AbstractModuleProvider(new ModuleMetadata(ModuleType.SINK, "archive", "Archives",
				List.of()), context -> (Sink) message -> {
				}) {

			@Override
			public void checkAccess(ModuleOptions options, HostAccess access) {
				access.path("dir", "/etc");
			}
		};

		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> HostAccess.defaults(this.dir).check(provider, provider.metadata().resolve(Map.of())))
			.withMessageStartingWith("Invalid options for module sink:archive: option 'dir': '/etc' is refused");
	}

	@Test
	void followsLinksToTheirRealPath() throws IOException {
		Path root = Files.createDirectories(this.dir.resolve("root"));
		Path outside = Files.createDirectories(this.dir.resolve("outside"));
		Files.createSymbolicLink(root.resolve("out"), outside);
		Files.createSymbolicLink(root.resolve("in"), Files.createDirectories(root.resolve("real")));
		HostAccess access = new HostAccess(List.of(root), this.dir.resolve("data"));

		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> access.path("dir", "out/deeper/still"))
			.withMessageContaining("symbolic link");
		assertThat(access.path("dir", "in/sub")).isEqualTo(root.resolve("in/sub"));
		assertThatExceptionOfType(AccessDeniedException.class)
			.isThrownBy(() -> access.checkRealPath(root.resolve("out/file")));
		assertThat(access.checkRealPath(root.resolve("in/file"))).isEqualTo(root.resolve("in/file"));
	}

	@Test
	void givesAnExistingFilesRealPathToOpenAndNoneForAMissingFileOrALinkOut() throws IOException {
		Path root = Files.createDirectories(this.dir.resolve("root")).toRealPath();
		Path outside = Files.writeString(this.dir.resolve("secret.txt"), "secret");
		Path inside = Files.writeString(root.resolve("app.log"), "line");
		Files.createSymbolicLink(root.resolve("out.log"), outside);
		Files.createSymbolicLink(root.resolve("in.log"), inside);
		HostAccess access = new HostAccess(List.of(root), this.dir.resolve("data"));

		assertThat(access.existingRealPath(root.resolve("in.log"))).isEqualTo(inside);
		assertThatExceptionOfType(AccessDeniedException.class)
			.isThrownBy(() -> access.existingRealPath(root.resolve("out.log")));
		// where checkRealPath passes a missing file on its parent's say-so, this one does not pass it at all
		assertThat(access.checkRealPath(root.resolve("later.log"))).isEqualTo(root.resolve("later.log"));
		assertThatExceptionOfType(NoSuchFileException.class)
			.isThrownBy(() -> access.existingRealPath(root.resolve("later.log")));
	}
}
