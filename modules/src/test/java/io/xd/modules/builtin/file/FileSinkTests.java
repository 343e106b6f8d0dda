package io.xd.modules.builtin.file;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class FileSinkTests {

	@TempDir
	Path dir;

	private FileSink sink(Map<String, String> options) {
		return ModuleFixtures.create(new FileSink.Provider(), options, ModuleFixtures.rootedAt(this.dir));
	}

	@Test
	void writesOneLinePerMessageToNameDotSuffixAndFlushesEachLine() throws IOException {
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "out"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("first"));
		sink.handleMessage(ModuleMessages.of("s\u00e9cond".getBytes(StandardCharsets.UTF_8)));

		assertThat(Files.readAllLines(this.dir.resolve("out.out"))).containsExactly("first", "s\u00e9cond");
		sink.stop();
	}

	@Test
	void defaultsToTheStreamNameAndAppendsToAnExistingFile() throws IOException {
		Files.writeString(this.dir.resolve("teststream.txt"), "before\n");
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "suffix", "txt"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("after"));
		sink.stop();

		assertThat(Files.readAllLines(this.dir.resolve("teststream.txt"))).containsExactly("before", "after");
	}

	@Test
	void replaceModeStartsTheFileAfresh() throws IOException {
		Files.writeString(this.dir.resolve("f.out"), "old\n");
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "f", "mode", "replace"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("new"));
		sink.stop();

		assertThat(Files.readAllLines(this.dir.resolve("f.out"))).containsExactly("new");
	}

	@Test
	void failModeRefusesAnExistingFileAtStart() throws IOException {
		Files.writeString(this.dir.resolve("f.out"), "old\n");
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "f", "mode", "FAIL"));

		assertThatIllegalStateException().isThrownBy(sink::start).withMessageContaining("already exists");
	}

	@Test
	void binaryWritesBytesWithoutSeparators() throws IOException {
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "b", "suffix", "", "binary", "true"));
		sink.start();
		sink.handleMessage(ModuleMessages.of(new byte[] { 1, 2 }));
		sink.handleMessage(ModuleMessages.of(new byte[] { 3 }));
		sink.stop();

		assertThat(Files.readAllBytes(this.dir.resolve("b"))).containsExactly(1, 2, 3);
	}

	@Test
	void encodesTextInTheChosenCharset() throws IOException {
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "l", "charset", "ISO-8859-1"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("\u00e9"));
		sink.stop();

		assertThat(Files.readAllBytes(this.dir.resolve("l.out"))).startsWith((byte) 0xe9);
	}

	@Test
	void encodesTheLineSeparatorInTheCharsetToo() throws IOException {
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "u", "charset", "UTF-16BE"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("a"));
		sink.stop();

		assertThat(Files.readString(this.dir.resolve("u.out"), StandardCharsets.UTF_16BE))
			.isEqualTo("a" + System.lineSeparator());
	}

	@Test
	void gzipCompressesAndAddsGz() throws IOException {
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "z", "compression", "gzip"));
		sink.start();
		sink.handleMessage(ModuleMessages.of("zipped"));
		sink.stop();

		try (InputStream in = new GZIPInputStream(Files.newInputStream(this.dir.resolve("z.out.gz")))) {
			assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("zipped" + System.lineSeparator());
		}
	}

	@Test
	void aDirectoryThatCannotBeCreatedFailsTheStartWithTheReason() throws IOException {
		Path notADirectory = Files.writeString(this.dir.resolve("plain"), "x");
		FileSink sink = sink(Map.of("dir", notADirectory.resolve("sub").toString(), "name", "f"));

		assertThatIllegalStateException().isThrownBy(sink::start).withMessageContaining("cannot create the directory");
	}

	@Test
	void refusesNamesThatLeaveTheDirectory() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("name", "../escape")))
			.withMessageContaining("option 'name' must be a file name without a directory");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("dir", "/tmp/a\0b")))
			.withMessageContaining("option 'dir' must be a directory path");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink(Map.of("suffix", "x/y")));
	}

	@Test
	void resolvesARelativeDirectoryUnderTheFirstRootAndRefusesWhatLeavesIt(@TempDir Path elsewhere) {
		assertThat(sink(Map.of("dir", "reports/daily", "name", "n")).file())
			.isEqualTo(this.dir.resolve("reports/daily/n.out"));
		for (String dir : new String[] { "../escape", "a/../../escape", elsewhere.toString(), "/dev/shm", "/proc/1",
				"/sys/kernel", this.dir + "/../" + this.dir.getFileName() + "-sibling" }) {
			assertThatExceptionOfType(ModuleOptionException.class).as(dir)
				.isThrownBy(() -> sink(Map.of("dir", dir, "name", "n")))
				.withMessageContaining("option 'dir'")
				.withMessageContaining("xd.modules.file.roots");
		}
	}

	@Test
	void neverWritesThroughASymbolicLinkItDidNotCreate(@TempDir Path elsewhere) throws IOException {
		Path target = Files.writeString(elsewhere.resolve("victim"), "untouched\n");
		Files.createSymbolicLink(this.dir.resolve("f.out"), target);
		FileSink sink = sink(Map.of("dir", this.dir.toString(), "name", "f"));

		assertThatIllegalStateException().isThrownBy(sink::start).withMessageContaining("cannot open");
		assertThat(Files.readString(target)).isEqualTo("untouched\n");
	}

	@Test
	void aDirectoryTurnedIntoALinkAfterTheCheckFailsTheStart(@TempDir Path elsewhere) throws IOException {
		FileSink sink = sink(Map.of("dir", this.dir.resolve("out").toString(), "name", "f"));
		Files.createSymbolicLink(this.dir.resolve("out"), elsewhere);

		assertThatIllegalStateException().isThrownBy(sink::start).withMessageContaining("may not write");
		try (Stream<Path> files = Files.list(elsewhere)) {
			assertThat(files).isEmpty();
		}
	}

	@Test
	void normalisesTheDirectory() {
		FileSink sink = sink(Map.of("dir", this.dir + "/a/../b", "name", "n"));

		assertThat(sink.file()).isEqualTo(this.dir.resolve("b/n.out"));
	}
}
