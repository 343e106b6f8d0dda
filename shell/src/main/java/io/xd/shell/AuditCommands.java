package io.xd.shell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.xd.shell.ShellCommand.Invocation;
import tools.jackson.databind.JsonNode;

import org.springframework.shell.core.command.ExitStatus;

/**
 * The {@code audit ...} commands: who created, deployed, changed and removed streams and custom modules, and who
 * tried ({@code GET /audit-records}, for users with the MANAGE role).
 */
final class AuditCommands {

	private static final String GROUP = "Audit Commands";

	/** The widest an outcome or details cell gets; the full text is in the REST answer. */
	private static final int CELL_WIDTH = 60;

	private final ShellSession session;

	AuditCommands(ShellSession session) {
		this.session = session;
	}

	List<ShellCommand> commands() {
		return List.of(ShellCommand.named("audit list")
			.group(GROUP)
			.description("List the audit records, newest first")
			.optional("user", "only this user's")
			.optional("action", "only actions starting with this, such as stream. or module.upload")
			.optional("target", "only this stream, or module as type:name")
			.optional("size", "how many records to show; 20 by default")
			.action(this::list));
	}

	private ExitStatus list(Invocation invocation) {
		Map<String, String> query = new LinkedHashMap<>();
		query.put("user", invocation.option("user"));
		query.put("action", invocation.option("action"));
		query.put("target", invocation.option("target"));
		query.put("size", size(invocation.option("size")));
		JsonNode page = this.session.admin().get("/audit-records" + AdminClient.query(query));
		Table table = new Table("Time", "User", "Action", "Target", "Outcome", "Details");
		List<JsonNode> records = Json.content(page);
		for (JsonNode record : records) {
			table.row(Json.text(record, "time"), Json.text(record, "user"), Json.text(record, "action"),
					Json.text(record, "target"), shorten(outcome(record)), shorten(Json.pairs(record.path("details"))));
		}
		invocation.out().print(table.render());
		long total = page.path("page").path("totalElements").asLong(records.size());
		if (total > records.size()) {
			invocation.out().println("The newest " + records.size() + " of " + total + " records; --size shows more");
		}
		return ExitStatus.OK;
	}

	/** {@code success}, or {@code failure <status>: <reason>}. */
	private static String outcome(JsonNode record) {
		String outcome = Json.text(record, "outcome");
		String status = Json.text(record, "status");
		String reason = Json.text(record, "reason");
		return outcome + (status.isEmpty() ? "" : " " + status) + (reason.isEmpty() ? "" : ": " + reason);
	}

	private static String size(String size) {
		if (size == null) {
			return null;
		}
		try {
			return Integer.toString(Integer.parseInt(size.strip()));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("--size must be a number, not '" + size + "'");
		}
	}

	private static String shorten(String text) {
		return (text.length() > CELL_WIDTH) ? text.substring(0, CELL_WIDTH - 3) + "..." : text;
	}
}
