package io.xd.modules;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

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
}
