package io.xd.shell;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.xd.shell.ShellCommand.Invocation;
import tools.jackson.databind.JsonNode;

import org.springframework.shell.core.command.ExitStatus;

/**
 * The {@code stream ...} commands: create, deploy, undeploy, destroy and list stream definitions.
 */
final class StreamCommands {

	private static final String GROUP = "Stream Commands";

	private static final String DEFINITIONS = "/streams/definitions";

	private static final String DEPLOYMENTS = "/streams/deployments";

	private final ShellSession session;

	StreamCommands(ShellSession session) {
		this.session = session;
	}

	List<ShellCommand> commands() {
		return List.of(
				ShellCommand.named("stream create")
					.group(GROUP)
					.description("Create a new stream definition")
					.positional("name", "the name to give to the stream")
					.required("definition", "the stream definition, in the DSL, such as \"time | log\"")
					.flag("deploy", "whether to deploy the stream right away")
					.action(this::create),
				ShellCommand.named("stream deploy")
					.group(GROUP)
					.description("Deploy a previously created stream")
					.positional("name", "the name of the stream to deploy")
					.optional("properties", "deployment properties, such as \"module.log.count=2,module.*.criteria=groups.contains('a')\"")
					.optional("propertiesFile", "a Java properties file with the deployment properties")
					.action(this::deploy),
				ShellCommand.named("stream update")
					.group(GROUP)
					.description("Update a deployed stream: only the modules whose settings change are restarted")
					.positional("name", "the name of the stream to update")
					.optional("properties", "changed deployment properties and module options, such as "
							+ "\"module.log.count=2,app.transform.expression=payload.trim()\"")
					.optional("propertiesFile", "a Java properties file with the changed properties")
					.action(this::update),
				ShellCommand.named("stream scale app instances")
					.group(GROUP)
					.description("Scale one module of a deployed stream to a number of instances")
					.required("name", "the name of the stream")
					.required("applicationName", "the label of the module to scale")
					.required("count", "the number of instances")
					.action(this::scale),
				ShellCommand.named("stream history")
					.group(GROUP)
					.description("List the versions of a stream's deployment, newest first")
					.positional("name", "the name of the stream")
					.action(this::history),
				ShellCommand.named("stream rollback")
					.group(GROUP)
					.description("Deploy again the properties of an earlier version of a stream's deployment")
					.positional("name", "the name of the stream")
					.optional("releaseVersion", "the version to roll back to; the one before the current by default")
					.action(this::rollback),
				ShellCommand.named("stream manifest")
					.group(GROUP)
					.description("Show what a version of a stream's deployment deployed")
					.positional("name", "the name of the stream")
					.optional("releaseVersion", "the version; the current one by default")
					.action(this::manifest),
				ShellCommand.named("stream undeploy")
					.group(GROUP)
					.description("Un-deploy a previously deployed stream")
					.positional("name", "the name of the stream to un-deploy")
					.action(this::undeploy),
				ShellCommand.named("stream destroy")
					.group(GROUP)
					.description("Destroy an existing stream, un-deploying it first")
					.positional("name", "the name of the stream to destroy")
					.action(this::destroy),
				ShellCommand.named("stream list")
					.group(GROUP)
					.description("List the stream definitions and their status")
					.action(this::list),
				ShellCommand.named("stream all undeploy")
					.group(GROUP)
					.description("Un-deploy all the streams")
					.flag("force", "do not ask for confirmation")
					.action(this::undeployAll),
				ShellCommand.named("stream all destroy")
					.group(GROUP)
					.description("Destroy all the streams")
					.flag("force", "do not ask for confirmation")
					.action(this::destroyAll));
	}

	private ExitStatus create(Invocation invocation) {
		String name = invocation.option("name");
		boolean deploy = invocation.flag("deploy");
		Map<String, String> form = new LinkedHashMap<>();
		form.put("name", name);
		form.put("definition", invocation.option("definition"));
		// Always sent, so that what the shell asks for is plain in the request and its logs.
		form.put("deploy", Boolean.toString(deploy));
		this.session.admin().postForm(DEFINITIONS, form);
		invocation.out()
			.println((deploy ? "Created and deployed new stream '" : "Created new stream '") + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus deploy(Invocation invocation) throws IOException {
		String name = invocation.option("name");
		JsonNode result = this.session.admin()
			.postForm(DEPLOYMENTS + "/" + AdminClient.pathSegment(name), propertiesForm(invocation));
		printMessage(invocation, result, "Deployed stream '" + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus update(Invocation invocation) throws IOException {
		String name = invocation.option("name");
		JsonNode result = this.session.admin()
			.postForm(DEPLOYMENTS + "/update/" + AdminClient.pathSegment(name), propertiesForm(invocation));
		printMessage(invocation, result, "Updated stream '" + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus scale(Invocation invocation) {
		String name = invocation.option("name");
		String label = invocation.option("applicationName");
		int count;
		try {
			count = Integer.parseInt(invocation.option("count").strip());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--count must be a number, not '" + invocation.option("count") + "'");
		}
		JsonNode result = this.session.admin()
			.postForm(DEPLOYMENTS + "/scale/" + AdminClient.pathSegment(name) + "/" + AdminClient.pathSegment(label)
					+ "/instances/" + count, Map.of());
		printMessage(invocation, result, "Scaled " + label + " of stream '" + name + "' to " + count);
		return ExitStatus.OK;
	}

	private ExitStatus history(Invocation invocation) {
		String name = invocation.option("name");
		Table table = new Table("Version", "Last updated", "Status", "Description", "Properties");
		for (JsonNode release : releases(name)) {
			table.row(Json.text(release, "version"), Json.text(release, "time"), Json.text(release, "status"),
					Json.text(release, "description"), pairs(release.path("properties")));
		}
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus rollback(Invocation invocation) {
		String name = invocation.option("name");
		String version = invocation.option("releaseVersion");
		if (version == null) {
			JsonNode releases = releases(name);
			if (releases.size() < 2) {
				throw new IllegalArgumentException("Stream '" + name + "' has no version before the current one");
			}
			version = Json.text(releases.get(1), "version");
		}
		JsonNode result = this.session.admin()
			.postForm(DEPLOYMENTS + "/rollback/" + AdminClient.pathSegment(name) + "/" + AdminClient.pathSegment(
					version.strip()), Map.of());
		printMessage(invocation, result, "Rolled back stream '" + name + "' to version " + version);
		return ExitStatus.OK;
	}

	private ExitStatus manifest(Invocation invocation) {
		String name = invocation.option("name");
		String version = invocation.option("releaseVersion");
		if (version == null) {
			JsonNode releases = releases(name);
			if (releases.isEmpty()) {
				throw new IllegalArgumentException("Stream '" + name + "' was never deployed");
			}
			version = Json.text(releases.get(0), "version");
		}
		JsonNode manifest = this.session.admin()
			.get(DEPLOYMENTS + "/manifest/" + AdminClient.pathSegment(name) + "/" + AdminClient.pathSegment(
					version.strip()));
		invocation.out().println("Stream '" + name + "', version " + Json.text(manifest, "version") + ": "
				+ Json.text(manifest, "definition"));
		Table table = new Table("Module", "Name", "Type", "Options", "Deployment Properties");
		for (JsonNode module : manifest.path("modules")) {
			table.row(Json.text(module, "label"), Json.text(module, "name"), Json.text(module, "type"),
					pairs(module.path("options")), pairs(module.path("deploymentProperties")));
		}
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	/** The stream's releases, newest first ({@code GET /streams/deployments/history/{name}}). */
	private JsonNode releases(String name) {
		return this.session.admin().get(DEPLOYMENTS + "/history/" + AdminClient.pathSegment(name));
	}

	private static String pairs(JsonNode object) {
		List<String> pairs = new java.util.ArrayList<>();
		object.properties().forEach(entry -> pairs.add(entry.getKey() + "=" + entry.getValue().asString()));
		return String.join(",", pairs);
	}

	private static Map<String, String> propertiesForm(Invocation invocation) throws IOException {
		String properties = invocation.option("properties");
		String propertiesFile = invocation.option("propertiesFile");
		if (properties != null && propertiesFile != null) {
			throw new IllegalArgumentException("You cannot specify both --properties and --propertiesFile");
		}
		if (propertiesFile != null) {
			properties = readProperties(Path.of(propertiesFile));
		}
		Map<String, String> form = new LinkedHashMap<>();
		if (properties != null && !properties.isBlank()) {
			form.put("properties", properties);
		}
		return form;
	}

	/** The server's own message when it sent one (an update, or nothing to change), else {@code otherwise}. */
	private static void printMessage(Invocation invocation, JsonNode result, String otherwise) {
		String message = Json.text(result, "message");
		invocation.out().println(message.isEmpty() ? otherwise : message);
	}

	private ExitStatus undeploy(Invocation invocation) {
		String name = invocation.option("name");
		this.session.admin().delete(DEPLOYMENTS + "/" + AdminClient.pathSegment(name));
		invocation.out().println("Un-deployed stream '" + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus destroy(Invocation invocation) {
		String name = invocation.option("name");
		this.session.admin().delete(DEFINITIONS + "/" + AdminClient.pathSegment(name));
		invocation.out().println("Destroyed stream '" + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus list(Invocation invocation) {
		JsonNode page = this.session.admin().get(DEFINITIONS + "?size=1000");
		Table table = new Table("Stream Name", "Stream Definition", "Status");
		for (JsonNode stream : Json.content(page)) {
			table.row(Json.text(stream, "name"), Json.text(stream, "definition"), Json.text(stream, "status"));
		}
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus undeployAll(Invocation invocation) throws Exception {
		if (invocation.flag("force") || confirm(invocation, "Really undeploy all streams? [y, n]:")) {
			this.session.admin().delete(DEPLOYMENTS);
			invocation.out().println("Un-deployed all the streams");
		}
		return ExitStatus.OK;
	}

	private ExitStatus destroyAll(Invocation invocation) throws Exception {
		if (invocation.flag("force") || confirm(invocation, "Really destroy all streams? [y, n]:")) {
			this.session.admin().delete(DEFINITIONS);
			invocation.out().println("Destroyed all the streams");
		}
		return ExitStatus.OK;
	}

	/**
	 * Asks a yes/no question until answered. A script cannot answer, and whoever wrote it meant what it says: outside
	 * interactive mode the answer is yes.
	 */
	private boolean confirm(Invocation invocation, String question) throws Exception {
		if (!this.session.interactive()) {
			return true;
		}
		while (true) {
			String answer = invocation.readLine(question + " ");
			if (answer == null) {
				return false;
			}
			switch (answer.strip().toLowerCase(Locale.ROOT)) {
				case "y", "yes" -> {
					return true;
				}
				case "n", "no" -> {
					return false;
				}
				default -> {
					// ask again
				}
			}
		}
	}

	/**
	 * Reads deployment properties from a file, in the {@code k=v,k2=v2} form of {@code --properties}, sorted by key so
	 * that the request does not depend on hash order.
	 */
	static String readProperties(Path file) throws IOException {
		if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
			throw new IllegalArgumentException("Cannot read the properties file '" + file + "'");
		}
		Properties properties = new Properties();
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			properties.load(reader);
		}
		return new TreeSet<>(properties.stringPropertyNames()).stream()
			.map(key -> key + "=" + properties.getProperty(key))
			.collect(Collectors.joining(","));
	}

}
