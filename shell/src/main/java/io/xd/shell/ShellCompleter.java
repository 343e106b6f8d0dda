package io.xd.shell;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;

import org.springframework.shell.core.command.Command;
import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.CommandRegistry;

/**
 * Tab completion of command names, word by word ({@code st} → {@code stream}, {@code stream c} → {@code create}),
 * then of the options of the command not typed yet ({@code --definition}, {@code --deploy}).
 *
 * <p>Option values are not completed: they are stream names and definitions the admin server would have to be asked
 * for.
 */
public final class ShellCompleter implements Completer {

	private final CommandRegistry registry;

	/**
	 * Creates a completer.
	 * @param registry the commands to complete
	 */
	public ShellCompleter(CommandRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
		List<String> before = line.words().subList(0, line.wordIndex());
		String current = line.word().substring(0, Math.min(line.wordCursor(), line.word().length()));
		int nameLength = commandNameLength(before);
		if (nameLength == 0) {
			completeCommandWord(before, current, candidates);
			return;
		}
		ShellCommand command = (ShellCommand) this.registry.getCommandByName(String.join(" ",
				before.subList(0, nameLength)));
		if (before.size() > nameLength) {
			String previous = before.get(before.size() - 1);
			if (previous.startsWith("--")) {
				CommandOption option = command.findOption(previous.substring(2));
				if (option != null && !ShellCommand.isFlag(option)) {
					// the user is about to type the option's value
					return;
				}
			}
		}
		for (CommandOption option : command.getOptions()) {
			String word = "--" + option.longName();
			if (word.startsWith(current) && !before.contains(word)) {
				candidates.add(new Candidate(word, word, null, option.description(), null, null, true));
			}
		}
	}

	/**
	 * The number of leading words that name a command, the longest match winning.
	 */
	private int commandNameLength(List<String> words) {
		for (int length = words.size(); length > 0; length--) {
			Command command = this.registry.getCommandByName(String.join(" ", words.subList(0, length)));
			if (command instanceof ShellCommand) {
				return length;
			}
		}
		return 0;
	}

	private void completeCommandWord(List<String> before, String current, List<Candidate> candidates) {
		Set<String> words = new LinkedHashSet<>();
		for (Command command : this.registry.getCommands()) {
			List<String> nameWords = List.of(command.getName().split(" "));
			if (nameWords.size() > before.size() && nameWords.subList(0, before.size()).equals(before)
					&& nameWords.get(before.size()).startsWith(current)) {
				words.add(nameWords.get(before.size()));
			}
		}
		words.stream().sorted().forEach(word -> candidates.add(new Candidate(word)));
	}

}
