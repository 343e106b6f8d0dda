package io.xd.admin.web;

import java.security.Principal;
import java.util.List;
import java.util.Locale;
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

import io.xd.admin.audit.AuditAction;
import io.xd.admin.audit.AuditTrail;
import io.xd.admin.stream.Manifest;
import io.xd.admin.stream.ReleaseInfo;
import io.xd.admin.stream.StreamService;
import io.xd.admin.stream.StreamService.Outcome;
import io.xd.admin.stream.StreamService.StreamInfo;

/**
 * Stream definitions and deployments, at Spring XD's paths. Fields come as form fields or query parameters (as
 * Spring XD's shell and clients send them) or as a JSON object with the same names. Every change, and every refused
 * attempt that reaches this controller, is recorded in the {@link AuditTrail}.
 */
@RestController
public class StreamController {

	/** The field of a create request that asks for the new stream to be deployed too. */
	public static final String DEPLOY_FIELD = "deploy";

	/** The field of a deploy or update request that carries its deployment properties. */
	public static final String PROPERTIES_FIELD = "properties";

	/** The target of the audit records of requests that act on every stream. */
	private static final String ALL = "*";

	private final StreamService streams;

	private final AuditTrail audit;

	public StreamController(StreamService streams, AuditTrail audit) {
		this.streams = streams;
		this.audit = audit;
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
		return this.audit.record(request.getUserPrincipal(), AuditAction.STREAM_CREATE, null, entry -> {
			Map<String, String> fields = RequestFields.read(request);
			entry.target(fields.get("name")).definition(fields.get("definition"));
			boolean deploy = RequestFields.bool(fields, DEPLOY_FIELD, false);
			entry.detail(DEPLOY_FIELD, deploy);
			StreamInfo created = this.streams.create(fields.get("name"), fields.get("definition"), deploy);
			// the name may come from the definition's 'name =' prefix
			entry.target(created.name());
			return created;
		});
	}

	@DeleteMapping("/streams/definitions")
	public Map<String, String> destroyAll(Principal user) {
		return this.audit.record(user, AuditAction.STREAM_DESTROY_ALL, ALL, entry -> {
			entry.detail("streams", String.join(",", this.streams.destroyAll()));
			return Map.of("message", "Destroyed all the streams");
		});
	}

	@GetMapping("/streams/definitions/{name}")
	public StreamInfo get(@PathVariable String name) {
		return this.streams.info(name);
	}

	@DeleteMapping("/streams/definitions/{name}")
	public Map<String, String> destroy(@PathVariable String name, Principal user) {
		return this.audit.record(user, AuditAction.STREAM_DESTROY, name, entry -> {
			this.streams.destroy(name);
			return Map.of("message", "Destroyed stream '" + name + "'");
		});
	}

	/**
	 * Deploys a stream with the field {@code properties}: {@code module.<label>.<key>=<value>,...}. 201 when it was
	 * not deployed; a deployed stream given other properties is updated (200), given the same ones it stays as it is
	 * (200, and the message says so).
	 */
	@PostMapping("/streams/deployments/{name}")
	public ResponseEntity<DeploymentResult> deploy(@PathVariable String name, HttpServletRequest request) {
		return this.audit.record(request.getUserPrincipal(), AuditAction.STREAM_DEPLOY, name, entry -> {
			String properties = RequestFields.read(request).get(PROPERTIES_FIELD);
			entry.properties(properties);
			Outcome outcome = this.streams.deploy(name, properties);
			return ResponseEntity.status((outcome == Outcome.DEPLOYED) ? HttpStatus.CREATED : HttpStatus.OK)
				.body(result(name, outcome, entry));
		});
	}

	/**
	 * Updates a deployed stream (Spring Cloud Data Flow's path): the {@code properties} field's {@code module.*} and
	 * {@code app.<label>.<option>} keys replace or add to the current ones; only the modules whose settings change
	 * are restarted, one instance at a time.
	 */
	@PostMapping("/streams/deployments/update/{name}")
	public DeploymentResult update(@PathVariable String name, HttpServletRequest request) {
		return this.audit.record(request.getUserPrincipal(), AuditAction.STREAM_UPDATE, name, entry -> {
			String properties = RequestFields.read(request).get(PROPERTIES_FIELD);
			entry.properties(properties);
			return result(name, this.streams.update(name, properties), entry);
		});
	}

	/** Runs {@code count} instances of the module labelled {@code label}, without touching the rest. */
	@PostMapping("/streams/deployments/scale/{stream}/{label}/instances/{count}")
	public DeploymentResult scale(@PathVariable String stream, @PathVariable String label, @PathVariable int count,
			Principal user) {
		return this.audit.record(user, AuditAction.STREAM_SCALE, stream, entry -> {
			entry.detail("label", label).detail("count", count);
			return result(stream, this.streams.scale(stream, label, count), entry);
		});
	}

	/** Deploys the properties of an earlier version again, as a new version. */
	@PostMapping("/streams/deployments/rollback/{name}/{version}")
	public DeploymentResult rollback(@PathVariable String name, @PathVariable int version, Principal user) {
		return this.audit.record(user, AuditAction.STREAM_ROLLBACK, name, entry -> {
			entry.detail("version", version);
			return result(name, this.streams.rollback(name, version), entry);
		});
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

	/** What a deploy, update, scale or rollback did, said in its audit record too. */
	private DeploymentResult result(String name, Outcome outcome, AuditTrail.Entry entry) {
		String done = outcome.name().toLowerCase(Locale.ROOT);
		entry.detail("result", done);
		StreamInfo info = this.streams.info(name);
		String message = switch (outcome) {
			case DEPLOYED -> "Deployed stream '" + name + "'";
			case UPDATED -> "Updated stream '" + name + "': the modules whose settings changed are being replaced";
			case UNCHANGED -> "Stream '" + name + "' is already deployed with these properties; nothing changed";
		};
		return new DeploymentResult(info.name(), info.definition(), info.status(), done, message);
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
	public Map<String, String> undeploy(@PathVariable String name, Principal user) {
		return this.audit.record(user, AuditAction.STREAM_UNDEPLOY, name, entry -> {
			this.streams.undeploy(name);
			return Map.of("message", "Un-deployed stream '" + name + "'");
		});
	}

	@DeleteMapping("/streams/deployments")
	public Map<String, String> undeployAll(Principal user) {
		return this.audit.record(user, AuditAction.STREAM_UNDEPLOY_ALL, ALL, entry -> {
			entry.detail("streams", String.join(",", this.streams.undeployAll()));
			return Map.of("message", "Un-deployed all the streams");
		});
	}
}
