package io.xd.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ServerLaunchTests {

	@TempDir
	Path target;

	@Test
	void runsTheExtractedJarWithItsArchiveWhenTheArchiveIsNotOlderThanTheJar() throws IOException {
		Path jar = file("xd.jar", 1_000);
		file("xd/xd.jar", 1_010);
		Path archive = file("xd/xd.jsa", 1_020);

		assertThat(ServerLaunch.jarArguments(this.target)).containsExactly("-XX:SharedArchiveFile=" + archive,
				"-Xlog:cds=off", "-jar", this.target.resolve("xd/xd.jar").toString());
		Files.setLastModifiedTime(archive, Files.getLastModifiedTime(jar));
		assertThat(ServerLaunch.jarArguments(this.target)).contains("-XX:SharedArchiveFile=" + archive);
	}

	@Test
	void runsTheJarItselfWhenItWasBuiltAfterTheArchive() throws IOException {
		// a build with -Dxd.cds.skip: a new xd.jar, the extracted form of an older one left behind
		file("xd/xd.jar", 1_000);
		file("xd/xd.jsa", 1_000);
		Path jar = file("xd.jar", 2_000);

		assertThat(ServerLaunch.jarArguments(this.target)).containsExactly("-jar", jar.toString());
	}

	@Test
	void runsTheJarItselfWithoutAnArchiveOrAnExtractedJar() throws IOException {
		Path jar = file("xd.jar", 1_000);
		assertThat(ServerLaunch.jarArguments(this.target)).containsExactly("-jar", jar.toString());

		file("xd/xd.jsa", 2_000);
		assertThat(ServerLaunch.jarArguments(this.target)).containsExactly("-jar", jar.toString());
	}

	private Path file(String name, long secondsSinceEpoch) throws IOException {
		Path file = this.target.resolve(name);
		Files.createDirectories(file.getParent());
		Files.writeString(file, name);
		Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(secondsSinceEpoch)));
		return file.toAbsolutePath();
	}

}
