package io.xd.admin.web;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.AdminException;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.ModuleRegistry;

/** The modules streams may use, and their options. */
@RestController
public class ModuleController {

	private final ModuleRegistry registry;

	public ModuleController(ModuleRegistry registry) {
		this.registry = registry;
	}

	@GetMapping("/modules")
	public PageResponse<ModuleSummary> list(@RequestParam(required = false) String type,
			@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
		ModuleType wanted = (type == null) ? null : parseType(type);
		List<ModuleSummary> modules = this.registry.all()
			.stream()
			.filter(metadata -> wanted == null || metadata.type() == wanted)
			.map(metadata -> new ModuleSummary(metadata.name(), metadata.type().label(), metadata.description()))
			.toList();
		return PageResponse.of(modules, page, size);
	}

	@GetMapping("/modules/{type}/{name}")
	public ModuleDetail info(@PathVariable String type, @PathVariable String name) {
		ModuleMetadata metadata = this.registry.find(parseType(type), name)
			.orElseThrow(() -> new AdminException(404, "NoSuchModuleException",
					"There is no " + type + " module named '" + name + "'"))
			.metadata();
		List<OptionInfo> options = metadata.options()
			.stream()
			.map(ModuleController::describe)
			.toList();
		return new ModuleDetail(metadata.name(), metadata.type().label(), metadata.description(), options);
	}

	private static OptionInfo describe(ModuleOption<?> option) {
		Object value = option.defaultValue();
		return new OptionInfo(option.name(), option.typeName(), value == null ? null : value.toString(),
				option.description());
	}

	private static ModuleType parseType(String type) {
		try {
			return ModuleType.fromLabel(type);
		}
		catch (IllegalArgumentException ex) {
			throw AdminException.badRequest("IllegalArgumentException", ex.getMessage());
		}
	}

	/**
	 * @param name the module name
	 * @param type source, processor or sink
	 * @param description what it does
	 */
	public record ModuleSummary(String name, String type, String description) {
	}

	/**
	 * @param name the module name
	 * @param type source, processor or sink
	 * @param description what it does
	 * @param options its options
	 */
	public record ModuleDetail(String name, String type, String description, List<OptionInfo> options) {
	}

	/**
	 * @param name the option name
	 * @param type int, long, boolean, String or the allowed choices
	 * @param defaultValue the default, or null
	 * @param description what it controls
	 */
	public record OptionInfo(String name, String type, String defaultValue, String description) {
	}
}
