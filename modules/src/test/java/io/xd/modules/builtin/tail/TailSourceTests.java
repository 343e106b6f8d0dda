package io.xd.modules.builtin.tail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The tail source following real files under a file root of the test's. */
class TailSourceTests {

	@TempDir
	Path dir;

	private Path root;

	private ModuleTestDriver driver;

	@BeforeEach
	void root() throws IOException {
		this.root = Files.createDirectories(this.dir.resolve("files")).toRealPath();
	}

	@AfterEach
	void close() {
		if (this.driver != null) {
			this.driver.close();
		}
	}

	private ModuleTestDriver tail(String... options) {
		Map<String, String> all = new HashMap<>(Map.of("name", "app.log", "delay", "20", "fileDelay", "20"));
		for (int i = 0; i < options.length; i += 2) {
			all.put(options[i], options[i + 1]);
		}
		this.driver = ModuleTestDriver.of(new TailSource.Provider(), all, this.dir.resolve("data"),
				new HostAccess(List.of(this.root), this.dir.resolve("data")));
		return this.driver;
	}

	private void append(Path file, String text) throws IOException {
		Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

	private List<Object> lines(int count) {
		return this.driver.awaitReceived(count, Duration.ofSeconds(5)).stream().map(m -> (Object) m.getPayload())
			.toList();
	}

	@Test
	void sendsTheLinesAppendedAfterTheLastLinesAskedFor() throws IOException {
		Path log = this.root.resolve("app.log");
		append(log, "old 1\nold 2\nold 3\n");
		tail("lines", "2");
		assertThat(lines(2)).containsExactly("old 2", "old 3");

		append(log, "new 1\r\nnew ");
		append(log, "2\n");

		assertThat(lines(4)).containsExactly("old 2", "old 3", "new 1", "new 2");
	}

	@Test
	void startsAtTheEndByDefaultOrAtTheBeginningWithoutFromEnd() throws IOException {
		Path log = this.root.resolve("app.log");
		append(log, "before\n");
		tail();
		append(log, "after\n");
		assertThat(lines(1)).containsExactly("after");
		this.driver.close();

		tail("fromEnd", "false");
		assertThat(lines(2)).containsExactly("before", "after");
	}

	@Test
	void waitsForTheFileAndFollowsItAcrossRotationWithoutLoss() throws IOException {
		Path log = this.root.resolve("app.log");
		tail();
		append(log, "a\n");
		assertThat(lines(1)).containsExactly("a");

		// the writer adds a line, the file is rotated, and the new file is already longer than the old one
		append(log, "b\n");
		Files.move(log, this.root.resolve("app.log.1"));
		append(log, "the new file's first line, longer than the old file\nc\n");

		assertThat(lines(4)).containsExactly("a", "b", "the new file's first line, longer than the old file", "c");
	}

	@Test
	void readsATruncatedFileFromItsBeginning() throws IOException {
		Path log = this.root.resolve("app.log");
		append(log, "");
		tail();
		append(log, "first line\n");
		assertThat(lines(1)).containsExactly("first line");

		Files.writeString(log, "");
		append(log, "x\n");

		assertThat(lines(2)).containsExactly("first line", "x");
	}

	@Test
	void cutsALineLongerThanMaxLineLength() throws IOException {
		Path log = this.root.resolve("app.log");
		append(log, "");
		tail("maxLineLength", "4");
		append(log, "abcdefghij\nok\n");

		assertThat(lines(2)).containsExactly("abcd", "ok");
	}

	@Test
	void refusesAFileOutsideTheRoots() throws IOException {
		assertThatExceptionOfType(ModuleOptionException.class).isThrownBy(() -> tail("name", "/etc/passwd"))
			.withMessageContaining("option 'name'");
		assertThatExceptionOfType(ModuleOptionException.class).isThrownBy(() -> tail("name", "../escape.log"))
			.withMessageContaining("option 'name'");

		// a link under the root to a file outside it: refused when the stream is created, and when the source opens
		// a link made after that
		Path outside = Files.writeString(this.dir.resolve("secret.txt"), "secret\n");
		Files.createSymbolicLink(this.root.resolve("link.log"), outside);
		assertThatExceptionOfType(ModuleOptionException.class).isThrownBy(() -> tail("name", "link.log"))
			.withMessageContaining("a symbolic link on its way leads out of the file roots");
		tail("name", "later.log", "fromEnd", "false");
		Files.createSymbolicLink(this.root.resolve("later.log"), outside);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.driver.failure().isPresent());
		assertThat(this.driver.failure().get()).hasMessageContaining("later.log");
		assertThat(this.driver.received()).isEmpty();
	}

	@Test
	void neverFollowsALinkThatAppearsBetweenTheCheckAndTheOpen() throws Exception {
		// an attacker who may write under the root makes a link to a file outside it come and go as fast as they can,
		// so that it may be missing when the source looks at the path and there when it opens it: each try ends when
		// the source sees the link and refuses it; not one may read the file outside
		Path outside = Files.writeString(this.dir.resolve("secret.txt"), "secret\n");
		for (int attempt = 0; attempt < 40; attempt++) {
			Path link = this.root.resolve("flapping-" + attempt + ".log");
			ModuleTestDriver source = tail("name", link.getFileName().toString(), "fromEnd", "false", "fileDelay",
					"10");
			AtomicBoolean flapping = new AtomicBoolean(true);
			Thread attacker = new Thread(() -> {
				while (flapping.get()) {
					try {
						Files.createSymbolicLink(link, outside);
						Files.deleteIfExists(link);
					}
					catch (IOException ex) {
						// there already or gone already: go on
					}
				}
			});
			attacker.start();
			try {
				await().atMost(Duration.ofSeconds(10)).until(() -> source.failure().isPresent()
						|| !source.received().isEmpty());
			}
			finally {
				flapping.set(false);
				attacker.join();
			}
			assertThat(source.received()).as("lines read through the link, try %d", attempt).isEmpty();
			assertThat(source.failure().get()).hasMessageContaining(link.getFileName().toString());
			source.close();
		}
	}
}
