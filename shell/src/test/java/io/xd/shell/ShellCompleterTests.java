package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import org.jline.reader.Candidate;
import org.jline.reader.ParsedLine;
import org.jline.reader.Parser.ParseContext;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;

class ShellCompleterTests {

	private final ShellCompleter completer = new ShellCompleter(new CommandRunner(
			new ShellSession(URI.create("http://127.0.0.1:1"), false, AdminClient.newHttpClient())).registry());

	private List<String> complete(String buffer) {
		ParsedLine line = new DefaultParser().parse(buffer, buffer.length(), ParseContext.COMPLETE);
		List<Candidate> candidates = new ArrayList<>();
		this.completer.complete(null, line, candidates);
		return candidates.stream().map(Candidate::value).toList();
	}

	@Test
	void completesFirstWords() {
		assertThat(complete("")).containsExactly("admin", "aggregate-counter", "audit", "counter", "exit",
				"field-value-counter", "gauge", "help", "http", "module", "quit", "rich-gauge", "runtime", "stream");
		assertThat(complete("st")).containsExactly("stream");
	}

	@Test
	void completesFollowingWords() {
		assertThat(complete("stream ")).containsExactly("all", "create", "deploy", "destroy", "history", "list",
				"manifest", "rollback", "scale", "undeploy", "update");
		assertThat(complete("stream d")).containsExactly("deploy", "destroy");
		assertThat(complete("stream all u")).containsExactly("undeploy");
		assertThat(complete("http ")).containsExactly("get", "post");
	}

	@Test
	void completesOptionsNotGivenYet() {
		assertThat(complete("stream create ticktock ")).containsExactly("--name", "--definition", "--deploy");
		assertThat(complete("stream create ticktock --definition \"time | log\" --d")).containsExactly("--deploy");
		assertThat(complete("http post --data hello ")).containsExactly("--target", "--file", "--contentType");
	}

	@Test
	void leavesOptionValuesToTheUser() {
		assertThat(complete("stream create --name ")).isEmpty();
	}

}
