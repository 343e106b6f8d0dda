package io.xd.modules.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/modules.md lists every built-in module, each with its options table generated from the module's metadata, the
 * same that {@code module info} prints: one source of truth. The tables sit between the markers
 * {@code <!-- options: TYPE:NAME -->} and {@code <!-- /options -->}; run this test with {@code -Dxd.docs.update=true}
 * to rewrite them after an option changed.
 */
class ModuleDocsTests {

	private static final Path DOC = Path.of("..", "docs", "modules.md");

	private static final Pattern BLOCK = Pattern.compile(
			"<!-- options: ([a-z]+):([a-z0-9-]+) -->\\n(.*?)<!-- /options -->", Pattern.DOTALL);

	@Test
	void everyBuiltInModuleHasItsOptionsTableAsModuleInfoPrintsIt() throws IOException {
		String doc = Files.readString(DOC, StandardCharsets.UTF_8);
		ModuleRegistry registry = ModuleRegistry.fromClassPath();
		List<String> problems = new ArrayList<>();
		Set<String> documented = new TreeSet<>();
		StringBuilder updated = new StringBuilder();
		Matcher matcher = BLOCK.matcher(doc);
		while (matcher.find()) {
			String id = matcher.group(1) + ":" + matcher.group(2);
			ModuleMetadata metadata = registry.find(ModuleType.fromLabel(matcher.group(1)), matcher.group(2))
				.map(provider -> provider.metadata())
				.orElse(null);
			if (metadata == null) {
				problems.add(id + " is documented but is not a built-in module");
				matcher.appendReplacement(updated, Matcher.quoteReplacement(matcher.group()));
				continue;
			}
			if (!documented.add(id)) {
				problems.add(id + " has two options tables");
			}
			String table = table(metadata);
			if (!table.equals(matcher.group(3))) {
				problems.add(id + "'s options table differs from its metadata");
			}
			matcher.appendReplacement(updated,
					Matcher.quoteReplacement("<!-- options: " + id + " -->\n" + table + "<!-- /options -->"));
		}
		matcher.appendTail(updated);
		for (ModuleMetadata metadata : registry.all()) {
			String id = metadata.type().label() + ":" + metadata.name();
			if (!documented.contains(id)) {
				problems.add(id + " has no options table: add a section for it with the markers <!-- options: " + id
						+ " --> and <!-- /options -->");
			}
		}
		if (Boolean.getBoolean("xd.docs.update")) {
			Files.writeString(DOC, updated.toString(), StandardCharsets.UTF_8);
		}
		assertThat(problems).as("docs/modules.md against the modules' metadata (-Dxd.docs.update=true rewrites the "
				+ "tables)").isEmpty();
	}

	/** The options as {@code module info} shows them: name, type, default, description. */
	static String table(ModuleMetadata metadata) {
		StringBuilder table = new StringBuilder("| option | type | default | description |\n|---|---|---|---|\n");
		for (ModuleOption<?> option : metadata.options()) {
			Object value = option.defaultValue();
			table.append("| `").append(option.name()).append("` | ").append(cell(option.typeName())).append(" | ")
				.append((value == null) ? "" : "`" + cell(value.toString()) + "`").append(" | ")
				.append(cell(option.description())).append(" |\n");
		}
		return table.toString();
	}

	private static String cell(String text) {
		return (text == null) ? "" : text.replace("|", "\\|").replace("\n", " ");
	}
}
