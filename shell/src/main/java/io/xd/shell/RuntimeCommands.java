package io.xd.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.xd.shell.ShellCommand.Invocation;
import tools.jackson.databind.JsonNode;

import org.springframework.shell.core.command.ExitStatus;

/**
 * The {@code runtime ...} commands: what the cluster is running right now.
 */
final class RuntimeCommands {

	private static final String GROUP = "Runtime Commands";

	/** The container attributes that have columns of their own; the others are shown as custom attributes. */
	private static final Set<String> STANDARD_ATTRIBUTES = Set.of("id", "host", "ip", "pid", "groups");

	private final ShellSession session;

	RuntimeCommands(ShellSession session) {
		this.session = session;
	}

	List<ShellCommand> commands() {
		return List.of(
				ShellCommand.named("runtime containers")
					.group(GROUP)
					.description("List the running containers")
					.action(this::containers),
				ShellCommand.named("runtime modules")
					.group(GROUP)
					.description("List the deployed modules")
					.optional("containerId", "only the modules of this container")
					.optional("moduleId", "only this module, such as ticktock.sink.log.1")
					.action(this::modules));
	}

	private ExitStatus containers(Invocation invocation) {
		JsonNode page = this.session.admin().get("/runtime/containers");
		Table table = new Table("Container Id", "Host", "IP Address", "PID", "Groups", "Custom Attributes",
				"Message Rates");
		for (JsonNode container : Json.content(page)) {
			JsonNode attributes = container.path("attributes");
			String id = Json.text(container, "containerId");
			String groups = Json.text(container, "groups");
			table.row(id.isEmpty() ? Json.text(attributes, "id") : id, Json.text(attributes, "host"),
					Json.text(attributes, "ip"), Json.text(attributes, "pid"),
					groups.isEmpty() ? Json.text(attributes, "groups") : groups, customAttributes(attributes),
					messageRates(container.path("messageRates")));
		}
		invocation.out().print(table.render());
		return ExitStatus.OK;
	}

	private ExitStatus modules(Invocation invocation) {
		Map<String, String> query = new LinkedHashMap<>();
		query.put("containerId", invocation.option("containerId"));
		query.put("moduleId", invocation.option("moduleId"));
		JsonNode page = this.session.admin().get("/runtime/modules" + AdminClient.query(query));
		Table table = new Table("Module Id", "Container Id", "Options", "Deployment Properties", "Unit status",
				"Message Rate", "Error Rate", "Errors", "Dead Letters");
		for (JsonNode module : Json.content(page)) {
			table.row(Json.text(module, "moduleId"), Json.text(module, "containerId"),
					Json.pairs(module.path("moduleOptions")), Json.pairs(module.path("deploymentProperties")),
					Json.text(module, "deploymentStatus"), rate(module.path("messageRate")),
					rate(module.path("errorRate")), Json.text(module, "errors"), Json.text(module, "deadLetters"));
		}
		invocation.out().print(table.render());
		for (JsonNode module : Json.content(page)) {
			String error = Json.text(module, "error");
			if (!error.isEmpty()) {
				invocation.out().println("Module " + Json.text(module, "moduleId") + " failed: " + error);
			}
			JsonNode last = module.path("lastError");
			if (last.isObject()) {
				invocation.out().println("Module " + Json.text(module, "moduleId") + " last failed on a message at "
						+ Json.text(last, "time") + ": " + Json.text(last, "reason"));
			}
		}
		return ExitStatus.OK;
	}

	private static String customAttributes(JsonNode attributes) {
		if (!attributes.isObject()) {
			return "";
		}
		List<String> pairs = new ArrayList<>();
		for (Map.Entry<String, JsonNode> attribute : attributes.properties()) {
			if (!STANDARD_ATTRIBUTES.contains(attribute.getKey())) {
				pairs.add(attribute.getKey() + "=" + Json.text(attribute.getValue()));
			}
		}
		return String.join(", ", pairs);
	}

	/**
	 * Renders {@code {"ticktock.sink.log.1": {"input": 12.5}}} as {@code ticktock.sink.log.1: input=12.50}, modules
	 * separated by semicolons because a module may have several rates separated by commas.
	 */
	private static String messageRates(JsonNode rates) {
		if (!rates.isObject()) {
			return "";
		}
		List<String> modules = new ArrayList<>();
		for (Map.Entry<String, JsonNode> module : rates.properties()) {
			List<String> channels = new ArrayList<>();
			if (module.getValue().isObject()) {
				for (Map.Entry<String, JsonNode> channel : module.getValue().properties()) {
					channels.add(channel.getKey() + "=" + rate(channel.getValue()));
				}
			}
			else {
				channels.add(rate(module.getValue()));
			}
			modules.add(module.getKey() + ": " + String.join(", ", channels));
		}
		return String.join("; ", modules);
	}

	/**
	 * A rate in messages per second with two decimals, whatever the server's precision, so that columns stay short.
	 */
	private static String rate(JsonNode value) {
		if (value != null && value.isNumber()) {
			return String.format(Locale.ROOT, "%.2f", value.asDouble());
		}
		return Json.text(value);
	}

}
