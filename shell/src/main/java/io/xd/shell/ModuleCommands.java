package io.xd.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.xd.shell.ShellCommand.Invocation;
import tools.jackson.databind.JsonNode;

import org.springframework.shell.core.command.ExitStatus;

/**
 * The {@code module ...} commands: the modules streams can be built from, and their options.
 */
final class ModuleCommands {

	private static final String GROUP = "Module Commands";

	/** The module types that always have a column in {@code module list}, in pipeline order. */
	private static final List<String> TYPES = List.of("source", "processor", "sink");

	private final ShellSession session;

	ModuleCommands(ShellSession session) {
		this.session = session;
	}

	List<ShellCommand> commands() {
		return List.of(
				ShellCommand.named("module list")
					.group(GROUP)
					.description("List the available modules, by type")
					.action(this::list),
				ShellCommand.named("module info")
					.group(GROUP)
					.description("Show the options of a module")
					.positional("name", "the module, as type:name, such as source:time")
					.action(this::info));
	}

	private ExitStatus list(Invocation invocation) {
		JsonNode page = this.session.admin().get("/modules?size=1000");
		Map<String, List<String>> namesByType = new LinkedHashMap<>();
		TYPES.forEach(type -> namesByType.put(type, new ArrayList<>()));
		for (JsonNode module : Json.content(page)) {
			String type = Json.text(module, "type").toLowerCase(Locale.ROOT);
			namesByType.computeIfAbsent(type, t -> new ArrayList<>()).add(Json.text(module, "name"));
		}
		List<String> types = new ArrayList<>(namesByType.keySet());
		Table table = new Table(types.stream().map(ModuleCommands::title).toArray(String[]::new));
		int rows = namesByType.values().stream().mapToInt(List::size).max().orElse(0);
		for (int row = 0; row < rows; row++) {
			String[] cells = new String[types.size()];
			for (int column = 0; column < types.size(); column++) {
				List<String> names = namesByType.get(types.get(column));
				cells[column] = (row < names.size()) ? names.get(row) : "";
			}
			table.row(cells);
		}
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus info(Invocation invocation) {
		String qualified = invocation.option("name");
		int colon = qualified.indexOf(':');
		if (colon <= 0 || colon == qualified.length() - 1) {
			throw new IllegalArgumentException("A module is named as type:name, such as 'source:time', not '"
					+ qualified + "'");
		}
		String type = qualified.substring(0, colon);
		String name = qualified.substring(colon + 1);
		JsonNode module = this.session.admin()
			.get("/modules/" + AdminClient.pathSegment(type) + "/" + AdminClient.pathSegment(name));
		Table table = new Table("Option Name", "Description", "Default", "Type");
		for (JsonNode option : module.path("options")) {
			table.row(Json.text(option, "name"), Json.text(option, "description"), Json.text(option, "defaultValue"),
					Json.text(option, "type"));
		}
		invocation.out().println("Information about " + type + " module '" + name + "':");
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private static String title(String type) {
		return type.isEmpty() ? "Other" : Character.toUpperCase(type.charAt(0)) + type.substring(1);
	}

}
