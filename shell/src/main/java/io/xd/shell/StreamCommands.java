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
		// Always sent: the admin server deploys by default when the field is absent, the shell does not.
		form.put("deploy", Boolean.toString(deploy));
		this.session.admin().postForm(DEFINITIONS, form);
		invocation.out()
			.println((deploy ? "Created and deployed new stream '" : "Created new stream '") + name + "'");
		return ExitStatus.OK;
	}

	private ExitStatus deploy(Invocation invocation) throws IOException {
		String name = invocation.option("name");
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
		this.session.admin().postForm(DEPLOYMENTS + "/" + AdminClient.pathSegment(name), form);
		invocation.out().println("Deployed stream '" + name + "'");
		return ExitStatus.OK;
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
