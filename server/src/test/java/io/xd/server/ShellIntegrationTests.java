package io.xd.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.xd.modules.internal.TestJars;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Drives a singlenode through the XD shell's non-interactive modes (a command file, and commands on standard input),
 * as a script or a CI job would.
 */
class ShellIntegrationTests {

	@TempDir
	static Path data;

	@RegisterExtension
	static final SingleNode node = SingleNode.perClass();

	@Test
	void createsDeploysListsUndeploysAndDestroysAStream() throws Exception {
		Path create = Files.writeString(data.resolve("create.xd"), """
				# comments and blank lines are skipped

				stream create ticktock --definition "time --fixedDelay=1 | log"
				stream deploy --name ticktock --properties "module.*.count=1"
				stream list
				""");
		ShellRun created = shell("--cmdfile", create.toString());
		assertThat(created.exitStatus()).as(created.output()).isZero();
		assertThat(created.output()).contains("xd:> stream create ticktock", "Created new stream 'ticktock'",
				"Deployed stream 'ticktock'", "Stream Name", "ticktock", "time --fixedDelay=1 | log");

		await().atMost(Duration.ofSeconds(20)).until(() -> node.status("ticktock").equals("deployed"));

		ShellRun inspected = shellWithInput("""
				runtime containers
				runtime modules
				module info source:time
				""");
		assertThat(inspected.exitStatus()).as(inspected.output()).isZero();
		assertThat(inspected.output()).contains("Container Id", "127.0.0.1", "ticktock.source.time.1",
				"ticktock.sink.log.1", "fixedDelay");

		ShellRun removed = shellWithInput("""
				stream undeploy ticktock
				stream destroy --name ticktock
				stream list
				""");
		assertThat(removed.exitStatus()).as(removed.output()).isZero();
		assertThat(removed.output()).contains("Un-deployed stream 'ticktock'", "Destroyed stream 'ticktock'")
			.doesNotContain("time --fixedDelay=1 | log");
		assertThat(node.get("/streams/definitions/ticktock").status()).isEqualTo(404);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> node.get("/runtime/modules").json().get("content").isEmpty());
	}

	@Test
	void stopsAtTheFirstFailingCommandWithExitStatusOneAndTheServersMessage() throws Exception {
		ShellRun shell = shellWithInput("""
				stream create broken --definition "time | | log"
				stream create never --definition "time | log"
				""");
		assertThat(shell.exitStatus()).isEqualTo(1);
		assertThat(shell.output()).contains("Command failed:", "time | | log", "^")
			.doesNotContain("xd:> stream create never");
		assertThat(node.get("/streams/definitions/never").status()).isEqualTo(404);
	}

	@Test
	void uploadsListsDescribesAndDeletesACustomModule() throws Exception {
		Path jar = TestJars.suffixProcessor().writeTo(data.resolve("myproc.jar"));
		ShellRun shell = shellWithInput("""
				module upload --type processor --name myproc --file %s
				module list
				module info processor:myproc
				module delete processor:myproc
				""".formatted(jar));
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		assertThat(shell.output()).contains("Successfully uploaded module 'processor:myproc' (SHA-256 ",
				"myproc (custom)", "Information about processor module 'myproc'", "appended to each payload",
				"Successfully destroyed module 'processor:myproc'");
		assertThat(node.get("/modules/processor/myproc").status()).isEqualTo(404);

		ShellRun refused = shellWithInput("module upload --type processor --name 'my proc' --file " + jar + "\n");
		assertThat(refused.exitStatus()).isEqualTo(1);
		assertThat(refused.output()).contains("Command failed:", "Invalid module name 'my proc'");
	}

	@Test
	void listsWhoDidWhatWithSecretsMasked() {
		ShellRun refused = shellWithInput("stream create audited --definition \"time | jdbc --password=hunter2\"\n");
		assertThat(refused.exitStatus()).as("a definition carries no password").isEqualTo(1);
		ShellRun shell = shellWithInput("""
				stream create audited --definition "time | log"
				stream destroy audited
				audit list --target audited
				""");
		assertThat(shell.exitStatus()).as(shell.output()).isZero();
		String table = shell.output().substring(shell.output().indexOf("Time "));
		assertThat(table).contains("User", "Action", "Target", "Outcome", "Details", "admin", "audited", "success",
				"failure 400", "definition=time | jdbc --password=******").doesNotContain("hunter2");
		assertThat(table.indexOf("stream.destroy")).as("newest first").isPositive()
			.isLessThan(table.indexOf("definition=time | log"))
			.isLessThan(table.indexOf("definition=time | jdbc"));
	}

	private static ShellRun shellWithInput(String commands) {
		return ShellRun.withInput(node, commands);
	}

	private static ShellRun shell(String... args) {
		return ShellRun.withArgs(node, args);
	}
}
