package io.xd.admin.web;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.AdminException;
import io.xd.admin.modules.ModuleRepository;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.internal.CustomModule;
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
		ModuleType wanted = (type == null) ? null : ModuleRepository.parseType(type);
		List<ModuleSummary> modules = this.registry.all()
			.stream()
			.filter(metadata -> wanted == null || metadata.type() == wanted)
			.map(metadata -> new ModuleSummary(metadata.name(), metadata.type().label(), metadata.description(),
					!this.registry.isBuiltIn(metadata.type(), metadata.name())))
			.toList();
		return PageResponse.of(modules, page, size);
	}

	@GetMapping("/modules/{type}/{name}")
	public ModuleDetail info(@PathVariable String type, @PathVariable String name) {
		ModuleType moduleType = ModuleRepository.parseType(type);
		ModuleMetadata metadata = this.registry.find(moduleType, name)
			.orElseThrow(() -> new AdminException(404, "NoSuchModuleException",
					"There is no " + type + " module named '" + name + "'"))
			.metadata();
		List<OptionInfo> options = metadata.options()
			.stream()
			.map(ModuleController::describe)
			.toList();
		String sha256 = this.registry.findCustom(moduleType, name).map(CustomModule::sha256).orElse(null);
		return new ModuleDetail(metadata.name(), metadata.type().label(), metadata.description(), sha256 != null, sha256,
				options);
	}

	private static OptionInfo describe(ModuleOption<?> option) {
		Object value = option.defaultValue();
		return new OptionInfo(option.name(), option.typeName(), value == null ? null : value.toString(),
				option.description());
	}

	/**
	 * @param name the module name
	 * @param type source, processor or sink
	 * @param description what it does
	 * @param custom whether it was uploaded or registered (true) or is built in (false)
	 */
	public record ModuleSummary(String name, String type, String description, boolean custom) {
	}

	/**
	 * @param name the module name
	 * @param type source, processor or sink
	 * @param description what it does
	 * @param custom whether it was uploaded or registered (true) or is built in (false)
	 * @param sha256 a custom module's jar digest; null for a built-in module
	 * @param options its options
	 */
	public record ModuleDetail(String name, String type, String description, boolean custom, String sha256,
			List<OptionInfo> options) {
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
