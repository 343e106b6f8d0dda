package io.xd.shell;

import java.util.Comparator;
import java.util.List;

import io.xd.shell.ShellCommand.Invocation;

import org.springframework.shell.core.command.Command;
import org.springframework.shell.core.command.CommandRegistry;
import org.springframework.shell.core.command.ExitStatus;

/**
 * {@code help}, {@code quit} and {@code exit}.
 */
final class BuiltInCommands {

	private static final String GROUP = "Built-In Commands";

	private final ShellSession session;

	private final CommandRegistry registry;

	BuiltInCommands(ShellSession session, CommandRegistry registry) {
		this.session = session;
		this.registry = registry;
	}

	List<ShellCommand> commands() {
		return List.of(
				ShellCommand.named("help")
					.group(GROUP)
					.description("List the commands, or show the usage of one")
					.positionalRest("command", "the command to describe, such as stream create")
					.action(this::help),
				ShellCommand.named("quit").group(GROUP).description("Leave the shell").action(this::quit),
				ShellCommand.named("exit").group(GROUP).description("Leave the shell").action(this::quit));
	}

	private ExitStatus help(Invocation invocation) {
		String name = invocation.option("command");
		if (name != null) {
			Command command = this.registry.getCommandByName(name);
			if (command == null) {
				throw new CommandLineException("Unknown command '" + name + "'. Type 'help' to list the commands.");
			}
			invocation.out().println(command.getHelp());
			return ExitStatus.OK;
		}
		List<Command> commands = this.registry.getCommands()
			.stream()
			.filter(command -> !command.isHidden())
			.sorted(Comparator.comparing(Command::getName))
			.toList();
		int width = commands.stream().mapToInt(command -> command.getName().length()).max().orElse(0);
		invocation.out().println("Available commands:");
		for (Command command : commands) {
			invocation.out().println("  " + String.format("%-" + width + "s", command.getName()) + "  "
					+ command.getDescription());
		}
		invocation.out().println("Type 'help <command>' or '<command> --help' for the options of a command.");
		return ExitStatus.OK;
	}

	private ExitStatus quit(Invocation invocation) {
		this.session.requestExit();
		return ExitStatus.OK;
	}

}
