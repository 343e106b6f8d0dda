package io.xd.shell;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.springframework.shell.core.command.AbstractCommand;
import org.springframework.shell.core.command.CommandContext;
import org.springframework.shell.core.command.CommandOption;
import org.springframework.shell.core.command.ExitStatus;

/**
 * A command of the XD shell, in Spring Shell's command model.
 *
 * <p>Its name may have several words ({@code stream all undeploy}). Its options are long options only
 * ({@code --name value}); a flag is a {@code boolean} option that needs no value. At most one option is
 * <em>positional</em>: its value may also be given as the first word after the command name, so
 * {@code stream create ticktock --definition "time | log"} and
 * {@code stream create --name ticktock --definition "time | log"} are the same. {@link ShellCommandParser} enforces
 * required options and rejects unknown ones before the command runs, so an {@link Action} only reads values.
 */
public final class ShellCommand extends AbstractCommand {

	/**
	 * What a command does.
	 */
	@FunctionalInterface
	public interface Action {

		/**
		 * Runs the command. A failure the user should see as {@code Command failed: <message>} is thrown; a failure
		 * that has already printed its own message returns a status other than {@link ExitStatus#OK}.
		 * @param invocation the options given and the output to write to
		 * @return {@link ExitStatus#OK} on success
		 * @throws Exception on failure; its message is shown to the user
		 */
		ExitStatus run(Invocation invocation) throws Exception;

	}

	/**
	 * One run of a command: the option values given and the console.
	 */
	public static final class Invocation {

		private final CommandContext context;

		private final ShellCommand command;

		Invocation(CommandContext context, ShellCommand command) {
			this.context = context;
			this.command = command;
		}

		/**
		 * The value of an option.
		 * @param name the long name, without dashes
		 * @return the value, else the option's default when it has one, else {@code null} when the option was not
		 * given
		 */
		public String option(String name) {
			CommandOption option = this.context.getOptionByLongName(name);
			if (option != null) {
				return option.value();
			}
			CommandOption declared = this.command.findOption(name);
			return (declared != null) ? declared.defaultValue() : null;
		}

		/**
		 * Whether a flag was given (and not given the value {@code false}).
		 * @param name the long name, without dashes
		 * @return {@code true} when set
		 */
		public boolean flag(String name) {
			return Boolean.parseBoolean(option(name));
		}

		/**
		 * Where the command writes its output.
		 * @return the writer of the console or of the script transcript
		 */
		public PrintWriter out() {
			return this.context.outputWriter();
		}

		/**
		 * Asks the user for a line of input. Only meaningful in interactive mode.
		 * @param prompt what to show before the cursor
		 * @return the line typed, or {@code null} at the end of input
		 * @throws Exception when the console cannot be read
		 */
		public String readLine(String prompt) throws Exception {
			return this.context.inputReader().readInput(prompt);
		}

		/**
		 * Asks the user for a secret, not echoed. Only meaningful in interactive mode.
		 * @param prompt what to show before the cursor
		 * @return what was typed, or {@code null} at the end of input
		 * @throws Exception when the console cannot be read
		 */
		public char[] readPassword(String prompt) throws Exception {
			return this.context.inputReader().readPassword(prompt);
		}

	}

	private final String positionalOption;

	private final boolean positionalTakesRest;

	private final String usage;

	private final Action action;

	private ShellCommand(Builder builder) {
		super(builder.name, builder.description, builder.group);
		this.positionalOption = builder.positionalOption;
		this.positionalTakesRest = builder.positionalTakesRest;
		this.action = Objects.requireNonNull(builder.action, "action");
		setOptions(List.copyOf(builder.options));
		this.usage = buildUsage();
	}

	/**
	 * Starts the description of a command.
	 * @param name the command name, words separated by single spaces
	 * @return a builder
	 */
	public static Builder named(String name) {
		return new Builder(name);
	}

	/**
	 * The option whose value may be given as the first word after the command name.
	 * @return its long name, or {@code null} when the command takes no positional value
	 */
	public String positionalOption() {
		return this.positionalOption;
	}

	/**
	 * Whether the positional value is made of all the words not taken by options, joined by single spaces (as in
	 * {@code help stream create}), rather than of one word.
	 * @return {@code true} when the positional value takes the rest of the words
	 */
	public boolean positionalTakesRest() {
		return this.positionalTakesRest;
	}

	/**
	 * Finds an option of this command.
	 * @param longName the long name, without dashes
	 * @return the option, or {@code null} when the command has none by that name
	 */
	public CommandOption findOption(String longName) {
		for (CommandOption option : getOptions()) {
			if (longName.equals(option.longName())) {
				return option;
			}
		}
		return null;
	}

	/**
	 * Whether an option is a flag, which takes no value.
	 * @param option one of this command's options
	 * @return {@code true} for a flag
	 */
	public static boolean isFlag(CommandOption option) {
		return option.type() == boolean.class;
	}

	@Override
	public String getHelp() {
		return this.usage;
	}

	@Override
	public ExitStatus doExecute(CommandContext commandContext) throws Exception {
		return this.action.run(new Invocation(commandContext, this));
	}

	private String buildUsage() {
		StringBuilder synopsis = new StringBuilder(getName());
		for (CommandOption option : getOptions()) {
			String word = "--" + option.longName();
			if (option.longName().equals(this.positionalOption)) {
				word = "[" + word + "]";
			}
			if (!isFlag(option)) {
				word = word + " <" + option.longName() + ">";
			}
			synopsis.append(' ').append(Boolean.TRUE.equals(option.required()) ? word : "[" + word + "]");
		}
		StringBuilder help = new StringBuilder();
		help.append(getName()).append(" - ").append(getDescription()).append(System.lineSeparator());
		help.append("Usage: ").append(synopsis);
		if (!getOptions().isEmpty()) {
			help.append(System.lineSeparator()).append("Options:");
			int width = getOptions().stream().mapToInt(o -> o.longName().length()).max().orElse(0) + 2;
			for (CommandOption option : getOptions()) {
				help.append(System.lineSeparator()).append("  ");
				help.append(String.format("%-" + width + "s", "--" + option.longName())).append("  ");
				help.append(option.description());
				if (Boolean.TRUE.equals(option.required())) {
					help.append(" (required)");
				}
				else if (option.defaultValue() != null) {
					help.append(" (default: ").append(option.defaultValue()).append(')');
				}
			}
		}
		return help.toString();
	}

	/**
	 * Describes a {@link ShellCommand}.
	 */
	public static final class Builder {

		private final String name;

		private String description = "";

		private String group = "";

		private String positionalOption;

		private boolean positionalTakesRest;

		private final List<CommandOption> options = new ArrayList<>();

		private Action action;

		private Builder(String name) {
			this.name = name;
		}

		/**
		 * Sets the one-line description shown by {@code help}.
		 * @param description the description
		 * @return this builder
		 */
		public Builder description(String description) {
			this.description = description;
			return this;
		}

		/**
		 * Sets the group the command is listed under by {@code help}.
		 * @param group the group name
		 * @return this builder
		 */
		public Builder group(String group) {
			this.group = group;
			return this;
		}

		/**
		 * Adds a required option that may also be given as the first word after the command name.
		 * @param name the long name
		 * @param description what it means
		 * @return this builder
		 */
		public Builder positional(String name, String description) {
			this.positionalOption = name;
			return add(name, description, true, null, String.class);
		}

		/**
		 * Adds an optional option whose value may also be given as the words after the command name, however many.
		 * @param name the long name
		 * @param description what it means
		 * @return this builder
		 */
		public Builder positionalRest(String name, String description) {
			this.positionalOption = name;
			this.positionalTakesRest = true;
			return add(name, description, false, null, String.class);
		}

		/**
		 * Adds a required option that takes a value.
		 * @param name the long name
		 * @param description what it means
		 * @return this builder
		 */
		public Builder required(String name, String description) {
			return add(name, description, true, null, String.class);
		}

		/**
		 * Adds an optional option that takes a value.
		 * @param name the long name
		 * @param description what it means
		 * @return this builder
		 */
		public Builder optional(String name, String description) {
			return add(name, description, false, null, String.class);
		}

		/**
		 * Adds an optional option that takes a value and has a default, which {@code help} shows and
		 * {@link Invocation#option(String)} returns when the option is not given.
		 * @param name the long name
		 * @param description what it means
		 * @param defaultValue the value when the option is not given
		 * @return this builder
		 */
		public Builder optional(String name, String description, String defaultValue) {
			return add(name, description, false, defaultValue, String.class);
		}

		/**
		 * Adds a flag: an option that takes no value and is {@code false} unless given.
		 * @param name the long name
		 * @param description what it means
		 * @return this builder
		 */
		public Builder flag(String name, String description) {
			return add(name, description, false, "false", boolean.class);
		}

		/**
		 * Finishes the command.
		 * @param action what the command does
		 * @return the command
		 */
		public ShellCommand action(Action action) {
			this.action = action;
			return new ShellCommand(this);
		}

		private Builder add(String name, String description, boolean required, String defaultValue, Class<?> type) {
			CommandOption.Builder option = CommandOption.with()
				.longName(name)
				.description(description)
				.required(required)
				.type(type);
			if (defaultValue != null) {
				option.defaultValue(defaultValue);
			}
			this.options.add(option.build());
			return this;
		}

	}

}
