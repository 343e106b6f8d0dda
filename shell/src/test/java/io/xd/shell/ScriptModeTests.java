package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.xd.shell.FakeAdminServer.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The non-interactive shell, as started by {@code java -jar xd-shell.jar}: commands from a file or from standard
 * input, echoed, stopping at the first failure.
 */
class ScriptModeTests {

	private FakeAdminServer admin;

	private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

	@BeforeEach
	void startAdmin() throws IOException {
		this.admin = new FakeAdminServer();
		this.admin.answer("POST", "/streams/definitions", 201, "{}");
		this.admin.answer("POST", "/streams/deployments/ticktock", 201, "");
		this.admin.answer("GET", "/streams/definitions?size=1000", 200,
				"{\"content\":[{\"name\":\"ticktock\",\"definition\":\"time | log\",\"status\":\"deployed\"}],"
						+ "\"page\":{\"size\":1000,\"totalElements\":1,\"totalPages\":1,\"number\":0},\"links\":[]}");
		this.admin.answer("DELETE", "/streams/definitions/ticktock", 200, "");
	}

	@AfterEach
	void stopAdmin() {
		this.admin.close();
	}

	private int shell(InputStream stdin, String... args) {
		return XdShell.run(args, stdin, new PrintStream(this.stdout, true, StandardCharsets.UTF_8), false);
	}

	private String stdout() {
		return this.stdout.toString(StandardCharsets.UTF_8);
	}

	private static InputStream noInput() {
		return new ByteArrayInputStream(new byte[0]);
	}

	@Test
	void runsCommandFileEchoingEachCommand(@TempDir Path dir) throws IOException {
		Path script = Files.writeString(dir.resolve("setup.xd"), """
				# create and deploy a stream

				stream create ticktock --definition "time | log"
				   stream deploy ticktock --properties "module.log.count=2"
				stream list
				""");
		int status = shell(noInput(), "--uri", this.admin.uri().toString(), "--cmdfile", script.toString());
		assertThat(status).isZero();
		assertThat(stdout()).isEqualTo("""
				xd:> stream create ticktock --definition "time | log"
				Created new stream 'ticktock'
				xd:> stream deploy ticktock --properties "module.log.count=2"
				Deployed stream 'ticktock'
				xd:> stream list
				Stream Name  Stream Definition  Status
				-----------  -----------------  --------
				ticktock     time | log         deployed
				""");
		assertThat(this.admin.requests()).extracting(Request::toString)
			.containsExactly("POST /streams/definitions name=ticktock&definition=time+%7C+log&deploy=false",
					"POST /streams/deployments/ticktock properties=module.log.count%3D2",
					"GET /streams/definitions?size=1000");
	}

	@Test
	void readsCommandsFromStandardInputAndStopsAtTheFirstFailure() {
		this.admin.answer("POST", "/streams/deployments/nope", 404,
				"[{\"logref\":\"NoSuchDefinitionException\",\"message\":\"There is no stream definition named 'nope'\"}]");
		String commands = """
				stream create ticktock --definition "time | log" --deploy
				stream deploy nope
				stream destroy ticktock
				""";
		int status = shell(new ByteArrayInputStream(commands.getBytes(Charset.defaultCharset())),
				"--uri=" + this.admin.uri());
		assertThat(status).isEqualTo(1);
		assertThat(stdout()).isEqualTo("""
				xd:> stream create ticktock --definition "time | log" --deploy
				Created and deployed new stream 'ticktock'
				xd:> stream deploy nope
				Command failed: There is no stream definition named 'nope'
				""");
		assertThat(this.admin.requests()).extracting(Request::path)
			.containsExactly("/streams/definitions", "/streams/deployments/nope");
	}

	@Test
	void stopsAtACommandLineError() {
		String commands = "stream create ticktock\nstream list\n";
		int status = shell(new ByteArrayInputStream(commands.getBytes(Charset.defaultCharset())), "--uri",
				this.admin.uri().toString());
		assertThat(status).isEqualTo(1);
		assertThat(stdout()).isEqualTo("""
				xd:> stream create ticktock
				Command failed: Missing required option '--definition' for command 'stream create'
				""");
		assertThat(this.admin.requests()).isEmpty();
	}

	@Test
	void quitEndsTheScriptSuccessfully() {
		String commands = "stream destroy ticktock\nquit\nstream list\n";
		int status = shell(new ByteArrayInputStream(commands.getBytes(Charset.defaultCharset())), "--uri",
				this.admin.uri().toString());
		assertThat(status).isZero();
		assertThat(stdout()).isEqualTo("xd:> stream destroy ticktock\nDestroyed stream 'ticktock'\nxd:> quit\n");
		assertThat(this.admin.requests()).hasSize(1);
	}

	@Test
	void failsWhenTheAdminServerIsDown() throws IOException {
		String uri = ShellCommandsTests.closedPort().toString();
		int status = shell(new ByteArrayInputStream("stream list\n".getBytes(Charset.defaultCharset())), "--uri",
				uri);
		assertThat(status).isEqualTo(1);
		assertThat(stdout()).isEqualTo("xd:> stream list\nCommand failed: Unable to contact XD Admin Server at '" + uri
				+ "'.\n");
	}

	@Test
	void emptyInputSucceeds() {
		assertThat(shell(noInput())).isZero();
		assertThat(stdout()).isEmpty();
	}

	@Test
	void reportsMissingCommandFile(@TempDir Path dir) {
		Path missing = dir.resolve("missing.xd");
		assertThat(shell(noInput(), "--cmdfile", missing.toString())).isEqualTo(1);
		assertThat(stdout()).isEqualTo("Cannot read the command file '" + missing + "'\n");
	}

	@Test
	void rejectsUnknownArgumentsAndBadUris() {
		assertThat(shell(noInput(), "--port", "9393")).isEqualTo(2);
		assertThat(stdout()).startsWith("Unknown argument: --port\nUsage: xd-shell");
		this.stdout.reset();
		assertThat(shell(noInput(), "--uri", "localhost:9393")).isEqualTo(2);
		assertThat(stdout()).startsWith("Not an http or https URI with a host: 'localhost:9393'\nUsage: xd-shell");
	}

}
