package io.xd.admin.web;

import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The entry point: what the API offers, so clients (and {@code admin config server}) can check they reached XD. */
@RestController
public class RootController {

	@GetMapping("/")
	public Map<String, Object> root() {
		return Map.of("name", "XD admin", "links",
				List.of(Map.of("rel", "streams/definitions", "href", "/streams/definitions"),
						Map.of("rel", "streams/deployments", "href", "/streams/deployments"),
						Map.of("rel", "runtime/containers", "href", "/runtime/containers"),
						Map.of("rel", "runtime/modules", "href", "/runtime/modules"),
						Map.of("rel", "modules", "href", "/modules"),
						Map.of("rel", "openapi", "href", "/v3/api-docs")));
	}
}
