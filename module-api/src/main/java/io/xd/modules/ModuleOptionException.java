package io.xd.modules;

import java.util.List;

/**
 * Thrown when the options given to a module are not acceptable: an unknown name, a value that does not parse as
 * the option's type, or a value that breaks the option's validation rule. The message names every problem found,
 * and for unknown names lists the options the module does have.
 */
public class ModuleOptionException extends IllegalArgumentException {

	private final List<String> problems;

	public ModuleOptionException(String module, List<String> problems) {
		super("Invalid options for module " + module + ": " + String.join("; ", problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * A value refused for what it reaches, before the module is known ({@link HostAccess#check} names the module):
	 * {@code option 'dir': '/etc' is refused: <reason>}, the value cut at 200 characters.
	 */
	public static ModuleOptionException refused(String option, String value, String reason) {
		String shown = (value.length() > 200) ? value.substring(0, 200) + "..." : value;
		return new ModuleOptionException(List.of("option '" + option + "': '" + shown.replace('\0', '?')
				+ "' is refused: " + reason));
	}

	/** Problems found before the module is known: {@link HostAccess#check} names the module. */
	ModuleOptionException(List<String> problems) {
		super("Invalid options: " + String.join("; ", problems));
		this.problems = List.copyOf(problems);
	}

	/** One sentence per problem, in the order the options were given. */
	public List<String> problems() {
		return this.problems;
	}
}
