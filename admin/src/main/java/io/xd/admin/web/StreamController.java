package io.xd.admin.web;

import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.stream.StreamService;
import io.xd.admin.stream.StreamService.Manifest;
import io.xd.admin.stream.StreamService.Outcome;
import io.xd.admin.stream.StreamService.ReleaseInfo;
import io.xd.admin.stream.StreamService.StreamInfo;

/**
 * Stream definitions and deployments, at Spring XD's paths. Fields come as form fields or query parameters (as
 * Spring XD's shell and clients send them) or as a JSON object with the same names.
 */
@RestController
public class StreamController {

	/** The field of a create request that asks for the new stream to be deployed too. */
	public static final String DEPLOY_FIELD = "deploy";

	/** The field of a deploy or update request that carries its deployment properties. */
	public static final String PROPERTIES_FIELD = "properties";

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
	 * Creates a stream from the fields {@code name}, {@code definition} and {@code deploy}. It deploys the stream only
	 * when {@code deploy} is {@code true}: creating is CREATE's, deploying DEPLOY's, and a request that does not ask
	 * for both gets only the first (as {@code stream create} without {@code --deploy} in Spring XD's shell). The access
	 * rules read the same {@link RequestFields} to decide which roles the request needs.
	 */
	@PostMapping("/streams/definitions")
	@ResponseStatus(HttpStatus.CREATED)
	public StreamInfo create(HttpServletRequest request) {
		Map<String, String> fields = RequestFields.read(request);
		return this.streams.create(fields.get("name"), fields.get("definition"),
				RequestFields.bool(fields, DEPLOY_FIELD, false));
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

	/**
	 * Deploys a stream with the field {@code properties}: {@code module.<label>.<key>=<value>,...}. 201 when it was
	 * not deployed; a deployed stream given other properties is updated (200), given the same ones it stays as it is
	 * (200, and the message says so).
	 */
	@PostMapping("/streams/deployments/{name}")
	public ResponseEntity<DeploymentResult> deploy(@PathVariable String name, HttpServletRequest request) {
		Outcome outcome = this.streams.deploy(name, RequestFields.read(request).get(PROPERTIES_FIELD));
		return ResponseEntity.status((outcome == Outcome.DEPLOYED) ? HttpStatus.CREATED : HttpStatus.OK)
			.body(result(name, outcome));
	}

	/**
	 * Updates a deployed stream (Spring Cloud Data Flow's path): the {@code properties} field's {@code module.*} and
	 * {@code app.<label>.<option>} keys replace or add to the current ones; only the modules whose settings change
	 * are restarted, one instance at a time.
	 */
	@PostMapping("/streams/deployments/update/{name}")
	public DeploymentResult update(@PathVariable String name, HttpServletRequest request) {
		return result(name, this.streams.update(name, RequestFields.read(request).get(PROPERTIES_FIELD)));
	}

	/** Runs {@code count} instances of the module labelled {@code label}, without touching the rest. */
	@PostMapping("/streams/deployments/scale/{stream}/{label}/instances/{count}")
	public DeploymentResult scale(@PathVariable String stream, @PathVariable String label,
			@PathVariable int count) {
		return result(stream, this.streams.scale(stream, label, count));
	}

	/** Deploys the properties of an earlier version again, as a new version. */
	@PostMapping("/streams/deployments/rollback/{name}/{version}")
	public DeploymentResult rollback(@PathVariable String name, @PathVariable int version) {
		return result(name, this.streams.rollback(name, version));
	}

	/** Every version of the stream's deployment, newest first. */
	@GetMapping("/streams/deployments/history/{name}")
	public List<ReleaseInfo> history(@PathVariable String name) {
		return this.streams.history(name);
	}

	/** What one version deployed. */
	@GetMapping("/streams/deployments/manifest/{name}/{version}")
	public Manifest manifest(@PathVariable String name, @PathVariable int version) {
		return this.streams.manifest(name, version);
	}

	private DeploymentResult result(String name, Outcome outcome) {
		StreamInfo info = this.streams.info(name);
		String message = switch (outcome) {
			case DEPLOYED -> "Deployed stream '" + name + "'";
			case UPDATED -> "Updated stream '" + name + "': the modules whose settings changed are being replaced";
			case UNCHANGED -> "Stream '" + name + "' is already deployed with these properties; nothing changed";
		};
		return new DeploymentResult(info.name(), info.definition(), info.status(), outcome.name().toLowerCase(
				java.util.Locale.ROOT), message);
	}

	/**
	 * What a deploy, update, scale or rollback did.
	 *
	 * @param name the stream name
	 * @param definition its definition
	 * @param status its state now
	 * @param outcome deployed, updated or unchanged
	 * @param message the same, for people
	 */
	public record DeploymentResult(String name, String definition, String status, String outcome, String message) {
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
