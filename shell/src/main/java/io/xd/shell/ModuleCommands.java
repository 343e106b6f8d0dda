package io.xd.shell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
					.action(this::info),
				ShellCommand.named("module upload")
					.group(GROUP)
					.description("Upload a custom module's jar")
					.required("type", "the module type: source, processor or sink")
					.required("name", "the name streams will use for the module")
					.required("file", "the module's jar")
					.flag("force", "replace a custom module of that name")
					.action(this::upload),
				ShellCommand.named("module register")
					.group(GROUP)
					.description("Register a custom module's jar by its Maven coordinates")
					.required("type", "the module type: source, processor or sink")
					.required("name", "the name streams will use for the module")
					.required("uri", "maven://groupId:artifactId[:extension[:classifier]]:version")
					.flag("force", "replace a custom module of that name")
					.action(this::register),
				ShellCommand.named("module delete")
					.group(GROUP)
					.description("Delete a custom module")
					.positional("name", "the module, as type:name, such as processor:myproc")
					.flag("force", "delete even when deployed streams use it")
					.action(this::delete));
	}

	private ExitStatus list(Invocation invocation) {
		JsonNode page = this.session.admin().get("/modules?size=1000");
		Map<String, List<String>> namesByType = new LinkedHashMap<>();
		TYPES.forEach(type -> namesByType.put(type, new ArrayList<>()));
		for (JsonNode module : Json.content(page)) {
			String type = Json.text(module, "type").toLowerCase(Locale.ROOT);
			String name = Json.text(module, "name") + (module.path("custom").asBoolean() ? " (custom)" : "");
			namesByType.computeIfAbsent(type, t -> new ArrayList<>()).add(name);
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
		String[] typeAndName = typeAndName(invocation.option("name"));
		String type = typeAndName[0];
		String name = typeAndName[1];
		JsonNode module = this.session.admin().get(modulePath(type, name));
		Table table = new Table("Option Name", "Description", "Default", "Type");
		for (JsonNode option : module.path("options")) {
			table.row(Json.text(option, "name"), Json.text(option, "description"), Json.text(option, "defaultValue"),
					Json.text(option, "type"));
		}
		invocation.out().println("Information about " + type + " module '" + name + "':");
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus upload(Invocation invocation) throws IOException {
		String type = invocation.option("type");
		String name = invocation.option("name");
		Path file = Path.of(invocation.option("file"));
		if (!Files.isRegularFile(file)) {
			throw new IllegalArgumentException("There is no file '" + file + "'");
		}
		String force = invocation.flag("force") ? "?force=true" : "";
		JsonNode module = this.session.admin().postFile(modulePath(type, name) + force, file);
		invocation.out().println("Successfully uploaded module '" + type + ":" + name + "' (SHA-256 "
				+ Json.text(module, "sha256") + ")");
		return ExitStatus.OK;
	}

	private ExitStatus register(Invocation invocation) {
		String type = invocation.option("type");
		String name = invocation.option("name");
		Map<String, String> form = new LinkedHashMap<>();
		form.put("uri", invocation.option("uri"));
		form.put("force", Boolean.toString(invocation.flag("force")));
		JsonNode module = this.session.admin().postForm(modulePath(type, name), form);
		invocation.out().println("Successfully registered module '" + type + ":" + name + "' from "
				+ invocation.option("uri") + " (SHA-256 " + Json.text(module, "sha256") + ")");
		return ExitStatus.OK;
	}

	private ExitStatus delete(Invocation invocation) {
		String[] typeAndName = typeAndName(invocation.option("name"));
		String force = invocation.flag("force") ? "?force=true" : "";
		this.session.admin().delete(modulePath(typeAndName[0], typeAndName[1]) + force);
		invocation.out().println("Successfully destroyed module '" + typeAndName[0] + ":" + typeAndName[1] + "'");
		return ExitStatus.OK;
	}

	private static String[] typeAndName(String qualified) {
		int colon = qualified.indexOf(':');
		if (colon <= 0 || colon == qualified.length() - 1) {
			throw new IllegalArgumentException("A module is named as type:name, such as 'source:time', not '"
					+ qualified + "'");
		}
		return new String[] { qualified.substring(0, colon), qualified.substring(colon + 1) };
	}

	private static String modulePath(String type, String name) {
		return "/modules/" + AdminClient.pathSegment(type) + "/" + AdminClient.pathSegment(name);
	}

	private static String title(String type) {
		return type.isEmpty() ? "Other" : Character.toUpperCase(type.charAt(0)) + type.substring(1);
	}

}
