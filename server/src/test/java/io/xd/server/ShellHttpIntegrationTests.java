package io.xd.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shell's {@code http post} and {@code http get} against a singlenode, as the Spring XD tutorials use them: a
 * stream with an {@code http} source is deployed and fed from the shell.
 */
class ShellHttpIntegrationTests {

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass();

	@Test
	void postsToAnHttpSourceDeployedWithTheShell() throws Exception {
		int port = freePort();
		String target = "http://127.0.0.1:" + port;
		ShellRun deployed = ShellRun.withInput(node,
				"stream create posted --definition \"http --port=" + port + " | file --dir=posted --name=out\" --deploy\n");
		assertThat(deployed.exitStatus()).as(deployed.output()).isZero();
		await().atMost(Duration.ofSeconds(30)).until(() -> node.status("posted").equals("deployed"));

		ShellRun posted = ShellRun.withInput(node, """
				http post --target %s --data hello
				http get %s/streams/definitions/posted
				""".formatted(target, node.baseUri()));
		assertThat(posted.exitStatus()).as(posted.output()).isZero();
		assertThat(posted.output()).contains("> POST (text/plain; charset=utf-8) " + target + " hello",
				"> 202 Accepted", "> GET " + node.baseUri() + "/streams/definitions/posted", "> 200 OK",
				"\"name\" : \"posted\"");

		Path file = node.dataDirectory().resolve("files").resolve("posted").resolve("out.out");
		await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(file) && !Files.readString(file).isEmpty());
		assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly("hello");
	}

	@Test
	void failsTheScriptWhenTheHttpSourceIsNotThere() throws Exception {
		String target = "http://127.0.0.1:" + freePort();
		ShellRun shell = ShellRun.withInput(node, "http post --target " + target + " --data hello\nstream list\n");
		assertThat(shell.exitStatus()).isEqualTo(1);
		assertThat(shell.output()).contains("Command failed: Unable to reach " + target + ": connection refused")
			.doesNotContain("xd:> stream list");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
