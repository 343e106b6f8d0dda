package io.xd.modules.builtin.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.ModuleOptionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

class FileSourceTests {

	@TempDir
	Path dir;

	private final ModuleFixtures.Collecting output = new ModuleFixtures.Collecting();

	private FileSource source;

	@AfterEach
	void stop() {
		if (this.source != null) {
			this.source.stop();
		}
	}

	private void start(Map<String, String> options) {
		this.source = ModuleFixtures.create(new FileSource.Provider(), options, ModuleFixtures.rootedAt(this.dir));
		this.source.start(this.output);
	}

	@Test
	void sendsContentsOfMatchingFilesAndPicksUpLaterOnes() throws IOException {
		Files.writeString(this.dir.resolve("a.txt"), "alpha");
		Files.writeString(this.dir.resolve("skip.csv"), "no");
		start(Map.of("dir", this.dir.toString(), "pattern", "*.txt", "fixedDelay", "1"));
		await().atMost(5, TimeUnit.SECONDS).until(() -> this.output.messages.size() == 1);

		Files.writeString(this.dir.resolve("b.txt"), "beta");
		await().atMost(5, TimeUnit.SECONDS).until(() -> this.output.messages.size() == 2);

		assertThat(this.output.payloads()).map(payload -> new String((byte[]) payload, StandardCharsets.UTF_8))
			.containsExactly("alpha", "beta");
		assertThat(this.output.messages.get(1).getHeaders()).containsEntry(FileSource.FILE_NAME_HEADER, "b.txt");
	}

	@Test
	void linesModeSendsEachLineAsText() throws IOException {
		Files.writeString(this.dir.resolve("l.txt"), "one\ntwo\n");
		start(Map.of("dir", this.dir.toString(), "mode", "lines"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> this.output.messages.size() == 2);
		assertThat(this.output.payloads()).containsExactly("one", "two");
	}

	@Test
	void refModeSendsTheAbsolutePathAsAString() throws IOException {
		Path file = Files.writeString(this.dir.resolve("r.txt"), "x");
		start(Map.of("dir", this.dir.toString(), "mode", "ref"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> this.output.messages.size() == 1);
		assertThat(this.output.payloads()).containsExactly(file.toAbsolutePath().normalize().toString());
	}

	@Test
	void withoutPreventDuplicatesEveryPollSendsTheFileAgain() throws IOException {
		Files.writeString(this.dir.resolve("d.txt"), "x");
		start(Map.of("dir", this.dir.toString(), "preventDuplicates", "false", "fixedDelay", "1"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> this.output.messages.size() >= 2);
	}

	@Test
	void skipsSymbolicLinksThatCouldLeadOutOfTheDirectory(@TempDir Path elsewhere) throws IOException {
		Path secret = Files.writeString(elsewhere.resolve("secret"), "s");
		Files.createSymbolicLink(this.dir.resolve("link.txt"), secret);
		Files.writeString(this.dir.resolve("real.txt"), "r");
		start(Map.of("dir", this.dir.toString(), "mode", "ref", "fixedDelay", "1"));

		await().atMost(5, TimeUnit.SECONDS).until(() -> this.output.messages.size() == 1);
		assertThat((String) this.output.payloads().get(0)).endsWith("real.txt");
	}

	@Test
	void defaultsToADirectoryNamedAfterTheStreamUnderTheFirstRoot() {
		FileSource source = ModuleFixtures.create(new FileSource.Provider(), Map.of(),
				ModuleFixtures.rootedAt(this.dir));

		assertThat(source.directory()).isEqualTo(this.dir.resolve("input/teststream"));
	}

	@Test
	void refusesDirectoriesOutsideTheRootsAndLinksOutOfThem(@TempDir Path elsewhere) throws IOException {
		for (String dir : new String[] { elsewhere.toString(), this.dir + "/../" + elsewhere.getFileName(), "/proc/self",
				"/etc" }) {
			assertThatExceptionOfType(ModuleOptionException.class).as(dir)
				.isThrownBy(() -> start(Map.of("dir", dir)))
				.withMessageContaining("option 'dir'")
				.withMessageContaining("is not under a file root")
				.withMessageContaining(this.dir.toString());
		}
		Files.writeString(elsewhere.resolve("secret.txt"), "s");
		Files.createSymbolicLink(this.dir.resolve("out"), elsewhere);
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> start(Map.of("dir", this.dir.resolve("out").toString())))
			.withMessageContaining("symbolic link");
	}

	@Test
	void aDirectoryTurnedIntoALinkAfterTheCheckIsNotRead(@TempDir Path elsewhere) throws IOException {
		Files.writeString(elsewhere.resolve("secret.txt"), "s");
		Path dir = this.dir.resolve("in");
		FileSource source = ModuleFixtures.create(new FileSource.Provider(), Map.of("dir", dir.toString()),
				ModuleFixtures.rootedAt(this.dir));
		Files.createSymbolicLink(dir, elsewhere);

		assertThatIllegalStateException().isThrownBy(() -> source.start(this.output))
			.withMessageContaining("may not read");
		assertThat(this.output.messages).isEmpty();
	}

	@Test
	void refusesPatternsWithADirectory() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleFixtures.create(new FileSource.Provider(), Map.of("pattern", "../*")))
			.withMessageContaining("option 'pattern' must be a glob pattern");
	}
}
