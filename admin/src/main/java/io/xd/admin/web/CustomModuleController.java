package io.xd.admin.web;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.AdminException;
import io.xd.admin.audit.AuditAction;
import io.xd.admin.audit.AuditTrail;
import io.xd.admin.cluster.AdminAddressPublisher;
import io.xd.admin.modules.MavenModuleResolver;
import io.xd.admin.modules.ModuleRepository;
import io.xd.core.cluster.ModuleRecord;
import io.xd.modules.internal.ModuleJarFetcher;

/**
 * Uploads, registers (by Maven coordinates) and deletes custom modules, and serves their jars to containers. Listing and describing them is
 * {@link ModuleController}'s, beside the built-in modules. Uploads, registrations and deletes, refused ones too, are
 * recorded in the {@link AuditTrail}.
 */
@RestController
public class CustomModuleController {

	/** The response header that carries a served jar's SHA-256. */
	public static final String SHA256_HEADER = "X-XD-Module-SHA256";

	private final ModuleRepository repository;

	private final MavenModuleResolver maven;

	private final ModuleController modules;

	private final AdminAddressPublisher address;

	private final AuditTrail audit;

	public CustomModuleController(ModuleRepository repository, MavenModuleResolver maven, ModuleController modules,
			AdminAddressPublisher address, AuditTrail audit) {
		this.repository = repository;
		this.maven = maven;
		this.modules = modules;
		this.address = address;
		this.audit = audit;
	}

	/**
	 * Stores the request body, a module jar, as custom module {@code type:name} and answers 201 with its
	 * description (as {@code GET /modules/{type}/{name}}).
	 */
	@PostMapping(path = "/modules/{type}/{name}", consumes = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	public ResponseEntity<ModuleController.ModuleDetail> upload(@PathVariable String type, @PathVariable String name,
			@RequestParam(defaultValue = "false") boolean force, HttpServletRequest request) throws IOException {
		return this.audit.record(request.getUserPrincipal(), AuditAction.MODULE_UPLOAD, type + ":" + name, entry -> {
			entry.detail("force", force);
			ModuleRecord record = this.repository.store(type, name, request.getInputStream(),
					request.getContentLengthLong(), force, "upload");
			return stored(record, entry);
		});
	}

	/**
	 * Registers the jar named by {@code uri} ({@code maven://groupId:artifactId[:extension[:classifier]]:version},
	 * resolved with Maven Resolver) as custom module {@code type:name}, with the same checks as an upload.
	 */
	@PostMapping(path = "/modules/{type}/{name}", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
	public ResponseEntity<ModuleController.ModuleDetail> register(@PathVariable String type, @PathVariable String name,
			@RequestParam String uri, @RequestParam(defaultValue = "false") boolean force, Principal user)
			throws IOException {
		return this.audit.record(user, AuditAction.MODULE_REGISTER, type + ":" + name, entry -> {
			entry.detail("uri", uri).detail("force", force);
			ModuleRepository.check(type, name);
			Path jar = this.maven.resolve(uri);
			ModuleRecord record;
			try (InputStream in = Files.newInputStream(jar)) {
				record = this.repository.store(type, name, in, Files.size(jar), force, uri);
			}
			return stored(record, entry);
		});
	}

	/** The answer to an upload or registration, whose audit record gets the stored jar's digest and size. */
	private ResponseEntity<ModuleController.ModuleDetail> stored(ModuleRecord record, AuditTrail.Entry entry) {
		entry.detail("sha256", record.sha256()).detail("size", record.size());
		return ResponseEntity.status(201).body(this.modules.info(record.type(), record.name()));
	}

	@DeleteMapping("/modules/{type}/{name}")
	public Map<String, String> delete(@PathVariable String type, @PathVariable String name,
			@RequestParam(defaultValue = "false") boolean force, Principal user) {
		return this.audit.record(user, AuditAction.MODULE_DELETE, type + ":" + name, entry -> {
			entry.detail("force", force);
			this.repository.delete(type, name, force);
			return Map.of("message", "Deleted module " + type + ":" + name);
		});
	}

	/**
	 * The jar of custom module {@code type:name}, with its SHA-256 in {@value #SHA256_HEADER}, for a member of the
	 * cluster: the request carries the token this admin published in ZooKeeper.
	 */
	@GetMapping(path = "/modules/{type}/{name}/jar", produces = "application/java-archive")
	public ResponseEntity<Resource> jar(@PathVariable String type, @PathVariable String name,
			@RequestHeader(name = ModuleJarFetcher.TOKEN_HEADER, required = false) String token) {
		if (!this.address.accepts(token)) {
			throw new AdminException(403, "AccessDeniedException", "Module jars are served to the cluster's containers "
					+ "and admins only, with the token an admin publishes in ZooKeeper");
		}
		ModuleRecord record = this.repository.find(type, name);
		Path jar = this.repository.jar(record);
		if (!Files.isRegularFile(jar)) {
			// recorded by another admin, whose repository holds the jar: the container asks the next admin
			throw new AdminException(404, "NoSuchModuleException",
					"This admin's module repository has no jar for " + record.type() + ":" + record.name());
		}
		return ResponseEntity.ok()
			.header(SHA256_HEADER, record.sha256())
			.header(HttpHeaders.ETAG, "\"" + record.sha256() + "\"")
			.contentType(MediaType.parseMediaType("application/java-archive"))
			.body(new FileSystemResource(jar));
	}
}
