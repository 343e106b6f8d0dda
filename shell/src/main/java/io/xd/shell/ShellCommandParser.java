package io.xd.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.xd.shell.CommandLineTokenizer.Token;

import org.springframework.shell.core.command.Command;
import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.CommandParser;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.core.command.ParsedInput;

/**
 * Turns a command line into Spring Shell's {@link ParsedInput}, checked against the registered
 * {@link ShellCommand}s.
 *
 * <p>The command is the longest run of leading unquoted words that names a registered command. The words after it
 * are {@code --option value} pairs, flags ({@code --deploy}, optionally followed by {@code true} or
 * {@code false}), and at most one positional value, which becomes the command's
 * {@linkplain ShellCommand#positionalOption() positional option}. {@code --help} anywhere asks for the usage of the
 * command. Unknown commands and options, missing values and missing required options are reported as
 * {@link CommandLineException} before anything runs, which matters in scripts: a typo must not reach the admin
 * server with half its options.
 *
 * <p>Spring Shell's own parser splits on white space with a regular expression that counts quotes, which breaks on
 * an escaped quote inside a quoted stream definition, hence this one.
 */
public final class ShellCommandParser implements CommandParser {

	private static final String HELP = "help";

	private final CommandRegistry registry;

	private final CommandLineTokenizer tokenizer = new CommandLineTokenizer();

	/**
	 * Creates a parser for the commands of a registry.
	 * @param registry the commands; read on every parse, so commands registered later are seen
	 */
	public ShellCommandParser(CommandRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Parses and checks a command line.
	 * @param input a non-blank command line
	 * @return the command name (first word), its other words as sub-commands, and its options with their values
	 * @throws CommandLineException when the line does not make a valid command
	 */
	@Override
	public ParsedInput parse(String input) {
		List<Token> tokens = this.tokenizer.tokenize(input);
		if (tokens.isEmpty()) {
			throw new CommandLineException("No command given");
		}
		int nameLength = commandNameLength(tokens);
		List<String> nameWords = tokens.subList(0, nameLength).stream().map(Token::value).toList();
		String name = String.join(" ", nameWords);
		Command command = this.registry.getCommandByName(name);
		ShellCommand shellCommand = (command instanceof ShellCommand sc) ? sc : null;

		Map<String, String> values = new LinkedHashMap<>();
		List<String> positional = new ArrayList<>();
		boolean help = false;
		for (int i = nameLength; i < tokens.size(); i++) {
			Token token = tokens.get(i);
			if (!isOptionName(token)) {
				positional.add(token.value());
				continue;
			}
			String optionName = token.value().startsWith("--") ? token.value().substring(2) : "";
			if (optionName.equals(HELP) || token.value().equals("-h")) {
				help = true;
				continue;
			}
			CommandOption option = findOption(command, optionName);
			if (option == null) {
				throw new CommandLineException("Unknown option '" + token.value() + "' for command '" + name + "'"
						+ knownOptions(command));
			}
			if (values.containsKey(optionName)) {
				throw new CommandLineException("Option '--" + optionName + "' is given more than once");
			}
			Token next = (i + 1 < tokens.size()) ? tokens.get(i + 1) : null;
			if (ShellCommand.isFlag(option)) {
				if (next != null && !next.quoted() && isBoolean(next.value())) {
					values.put(optionName, next.value().toLowerCase());
					i++;
				}
				else {
					values.put(optionName, "true");
				}
			}
			else {
				if (next == null || isOptionName(next)) {
					throw new CommandLineException("Option '--" + optionName + "' needs a value");
				}
				values.put(optionName, next.value());
				i++;
			}
		}
		if (!positional.isEmpty()) {
			assignPositional(shellCommand, name, positional, values);
		}

		ParsedInput.Builder parsed = ParsedInput.builder().commandName(nameWords.get(0));
		nameWords.subList(1, nameWords.size()).forEach(parsed::addSubCommand);
		if (help) {
			// Spring Shell's AbstractCommand prints the usage when the only option is --help.
			parsed.addOption(CommandOption.with().longName(HELP).value("true").type(boolean.class).build());
			return parsed.build();
		}
		for (CommandOption option : command.getOptions()) {
			if (Boolean.TRUE.equals(option.required()) && !values.containsKey(option.longName())) {
				throw new CommandLineException("Missing required option '--" + option.longName() + "' for command '"
						+ name + "'");
			}
		}
		values.forEach((key, value) -> parsed.addOption(CommandOption.with()
			.longName(key)
			.value(value)
			.type(findOption(command, key).type())
			.build()));
		return parsed.build();
	}

	private int commandNameLength(List<Token> tokens) {
		int unquotedWords = 0;
		while (unquotedWords < tokens.size() && !tokens.get(unquotedWords).quoted()
				&& !tokens.get(unquotedWords).value().startsWith("-")) {
			unquotedWords++;
		}
		for (int length = unquotedWords; length > 0; length--) {
			String candidate = tokens.subList(0, length).stream().map(Token::value).collect(Collectors.joining(" "));
			if (this.registry.getCommandByName(candidate) != null) {
				return length;
			}
		}
		String attempted = tokens.subList(0, Math.max(unquotedWords, 1))
			.stream()
			.map(Token::value)
			.collect(Collectors.joining(" "));
		List<String> related = this.registry.getCommandsByPrefix(tokens.get(0).value() + " ")
			.stream()
			.map(Command::getName)
			.sorted()
			.toList();
		if (!related.isEmpty()) {
			throw new CommandLineException("Unknown command '" + attempted + "'. Did you mean one of: "
					+ String.join(", ", related) + "?");
		}
		throw new CommandLineException("Unknown command '" + attempted + "'. Type 'help' to list the commands.");
	}

	private void assignPositional(ShellCommand command, String name, List<String> positional,
			Map<String, String> values) {
		String target = (command != null) ? command.positionalOption() : null;
		if (target == null) {
			throw new CommandLineException("Unexpected argument '" + positional.get(0) + "' for command '" + name
					+ "'");
		}
		if (positional.size() > 1 && !command.positionalTakesRest()) {
			throw new CommandLineException("Unexpected argument '" + positional.get(1) + "' for command '" + name
					+ "'; quote values that contain spaces");
		}
		if (values.containsKey(target)) {
			throw new CommandLineException("Option '--" + target + "' is given both by position ('"
					+ positional.get(0) + "') and by name");
		}
		values.put(target, String.join(" ", positional));
	}

	private static CommandOption findOption(Command command, String longName) {
		for (CommandOption option : command.getOptions()) {
			if (longName.equals(option.longName())) {
				return option;
			}
		}
		return null;
	}

	private static String knownOptions(Command command) {
		if (command.getOptions().isEmpty()) {
			return ", which takes no options";
		}
		return "; its options are " + command.getOptions()
			.stream()
			.map(o -> "--" + o.longName())
			.collect(Collectors.joining(", "));
	}

	private static boolean isOptionName(Token token) {
		return !token.quoted() && token.value().startsWith("-") && token.value().length() > 1
				&& !Character.isDigit(token.value().charAt(1));
	}

	private static boolean isBoolean(String word) {
		return word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false");
	}

}
