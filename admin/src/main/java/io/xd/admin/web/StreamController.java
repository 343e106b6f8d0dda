package io.xd.admin.web;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.stream.StreamService;
import io.xd.admin.stream.StreamService.StreamInfo;

/**
 * Stream definitions and deployments, at Spring XD's paths. Parameters come as form fields (as Spring XD's shell
 * and clients send them) or as a JSON object with the same names.
 */
@RestController
public class StreamController {

	private final StreamService streams;

	public StreamController(StreamService streams) {
		this.streams = streams;
	}

	@GetMapping("/streams/definitions")
	public PageResponse<StreamInfo> list(@RequestParam(defaultValue = "0") int page,
			@RequestParam(defaultValue = "20") int size) {
		return PageResponse.of(this.streams.list(), page, size);
	}

	/** Creates a stream; {@code deploy} defaults to true, as in Spring XD's REST API. */
	@PostMapping("/streams/definitions")
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo create(@RequestParam(required = false) String name,
			@RequestParam(required = false) String definition, @RequestParam(defaultValue = "true") boolean deploy) {
		return this.streams.create(name, definition, deploy);
	}

	@PostMapping(path = "/streams/definitions", consumes = MediaType.APPLICATION_JSON_VALUE)
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo createFromJson(@RequestBody CreateStream request) {
		return this.streams.create(request.name(), request.definition(),
				request.deploy() == null || request.deploy());
	}

	@DeleteMapping("/streams/definitions")
	public Map<String, String> destroyAll() {
		this.streams.destroyAll();
		return Map.of("message", "Destroyed all the streams");
	}

	@GetMapping("/streams/definitions/{name}")
	public StreamInfo get(@PathVariable String name) {
		return this.streams.info(name);
	}

	@DeleteMapping("/streams/definitions/{name}")
	public Map<String, String> destroy(@PathVariable String name) {
		this.streams.destroy(name);
		return Map.of("message", "Destroyed stream '" + name + "'");
	}

	@PostMapping("/streams/deployments/{name}")
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo deploy(@PathVariable String name, @RequestParam(required = false) String properties) {
		this.streams.deploy(name, properties);
		return this.streams.info(name);
	}

	@PostMapping(path = "/streams/deployments/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo deployFromJson(@PathVariable String name, @RequestBody(required = false) DeployStream request) {
		this.streams.deploy(name, request == null ? null : request.properties());
		return this.streams.info(name);
	}

	@DeleteMapping("/streams/deployments/{name}")
	public Map<String, String> undeploy(@PathVariable String name) {
		this.streams.undeploy(name);
		return Map.of("message", "Un-deployed stream '" + name + "'");
	}

	@DeleteMapping("/streams/deployments")
	public Map<String, String> undeployAll() {
		this.streams.undeployAll();
		return Map.of("message", "Un-deployed all the streams");
	}

	/**
	 * @param name the stream name
	 * @param definition the DSL text
	 * @param deploy whether to deploy at once (default true)
	 */
	public record CreateStream(String name, String definition, Boolean deploy) {
	}

	/** @param properties deployment properties, {@code module.<label>.<key>=<value>} separated by commas */
	public record DeployStream(String properties) {
	}
}
