package io.xd.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.ParsedInput;

class ShellCommandParserTests {

	private final CommandRunner runner = new CommandRunner(
			new ShellSession(URI.create("http://127.0.0.1:1"), false, AdminClient.newHttpClient()));

	private final ShellCommandParser parser = new ShellCommandParser(this.runner.registry());

	private static Map<String, String> options(ParsedInput parsed) {
		Map<String, String> options = new LinkedHashMap<>();
		for (CommandOption option : parsed.options()) {
			options.put(option.longName(), option.value());
		}
		return options;
	}

	@Test
	void takesFirstWordAfterCommandAsPositionalOption() {
		ParsedInput parsed = this.parser.parse("stream create ticktock --definition \"time | log\"");
		assertThat(parsed.commandName()).isEqualTo("stream");
		assertThat(parsed.subCommands()).containsExactly("create");
		assertThat(options(parsed)).containsExactly(Map.entry("definition", "time | log"),
				Map.entry("name", "ticktock"));
	}

	@Test
	void acceptsPositionalOptionByName() {
		ParsedInput parsed = this.parser.parse("stream create --definition \"time | log\" --name ticktock --deploy");
		assertThat(options(parsed)).containsExactly(Map.entry("definition", "time | log"),
				Map.entry("name", "ticktock"), Map.entry("deploy", "true"));
	}

	@Test
	void acceptsPositionalAfterOptions() {
		ParsedInput parsed = this.parser.parse("stream create --definition \"time | log\" ticktock");
		assertThat(options(parsed)).containsEntry("name", "ticktock");
	}

	@Test
	void flagTakesAnExplicitBoolean() {
		ParsedInput parsed = this.parser.parse("stream create x --deploy false --definition \"time | log\"");
		assertThat(options(parsed)).containsEntry("deploy", "false").containsEntry("definition", "time | log");
	}

	@Test
	void keepsEscapedQuotesInValues() {
		ParsedInput parsed = this.parser
			.parse("stream create x --definition \"http | transform --expression=\\\"'a b'\\\" | log\"");
		assertThat(options(parsed)).containsEntry("definition", "http | transform --expression=\"'a b'\" | log");
	}

	@Test
	void quotedValueThatLooksLikeAnOptionIsAValue() {
		ParsedInput parsed = this.parser.parse("stream create x --definition \"--weird\"");
		assertThat(options(parsed)).containsEntry("definition", "--weird");
	}

	@Test
	void resolvesTheLongestCommandName() {
		ParsedInput parsed = this.parser.parse("stream all destroy --force");
		assertThat(parsed.commandName()).isEqualTo("stream");
		assertThat(parsed.subCommands()).containsExactly("all", "destroy");
		assertThat(options(parsed)).containsExactly(Map.entry("force", "true"));
	}

	@Test
	void helpTakesTheRestOfTheWords() {
		ParsedInput parsed = this.parser.parse("help stream create");
		assertThat(options(parsed)).containsExactly(Map.entry("command", "stream create"));
	}

	@Test
	void helpOptionSkipsRequiredOptions() {
		ParsedInput parsed = this.parser.parse("stream create --help");
		assertThat(options(parsed)).containsExactly(Map.entry("help", "true"));
	}

	@Test
	void rejectsUnknownCommand() {
		assertThatThrownBy(() -> this.parser.parse("strem list")).isInstanceOf(CommandLineException.class)
			.hasMessage("Unknown command 'strem list'. Type 'help' to list the commands.");
	}

	@Test
	void suggestsSubCommandsOfAKnownFirstWord() {
		assertThatThrownBy(() -> this.parser.parse("runtime foo")).isInstanceOf(CommandLineException.class)
			.hasMessage("Unknown command 'runtime foo'. Did you mean one of: runtime containers, runtime modules?");
	}

	@Test
	void rejectsUnknownOption() {
		assertThatThrownBy(() -> this.parser.parse("stream list --all")).isInstanceOf(CommandLineException.class)
			.hasMessage("Unknown option '--all' for command 'stream list', which takes no options");
	}

	@Test
	void rejectsMissingRequiredOption() {
		assertThatThrownBy(() -> this.parser.parse("stream create ticktock")).isInstanceOf(CommandLineException.class)
			.hasMessage("Missing required option '--definition' for command 'stream create'");
	}

	@Test
	void rejectsOptionWithoutValue() {
		assertThatThrownBy(() -> this.parser.parse("stream create x --definition"))
			.isInstanceOf(CommandLineException.class)
			.hasMessage("Option '--definition' needs a value");
	}

	@Test
	void rejectsSecondPositionalWord() {
		assertThatThrownBy(() -> this.parser.parse("stream create ticktock time | log"))
			.isInstanceOf(CommandLineException.class)
			.hasMessageStartingWith("Unexpected argument 'time' for command 'stream create'");
	}

	@Test
	void rejectsPositionalGivenTwice() {
		assertThatThrownBy(() -> this.parser.parse("stream destroy a --name b"))
			.isInstanceOf(CommandLineException.class)
			.hasMessageContaining("given both by position");
	}

	@Test
	void rejectsRepeatedOption() {
		assertThatThrownBy(() -> this.parser.parse("stream create a --definition x --definition y"))
			.isInstanceOf(CommandLineException.class)
			.hasMessage("Option '--definition' is given more than once");
	}

}
