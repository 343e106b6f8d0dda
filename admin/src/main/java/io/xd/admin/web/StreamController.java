package io.xd.admin.web;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.stream.StreamService;
import io.xd.admin.stream.StreamService.StreamInfo;

/**
 * Stream definitions and deployments, at Spring XD's paths. Fields come as form fields or query parameters (as
 * Spring XD's shell and clients send them) or as a JSON object with the same names.
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

	/**
	 * Creates a stream from the fields {@code name}, {@code definition} and {@code deploy} (default true, as in
	 * Spring XD's REST API).
	 */
	@PostMapping("/streams/definitions")
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo create(HttpServletRequest request) {
		Map<String, String> fields = RequestFields.read(request);
		return this.streams.create(fields.get("name"), fields.get("definition"),
				RequestFields.bool(fields, "deploy", true));
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

	/** Deploys a stream with the field {@code properties}: {@code module.<label>.<key>=<value>,...}. */
	@PostMapping("/streams/deployments/{name}")
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo deploy(@PathVariable String name, HttpServletRequest request) {
		this.streams.deploy(name, RequestFields.read(request).get("properties"));
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
}
