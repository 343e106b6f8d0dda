package io.xd.admin.web;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.xd.admin.audit.AuditTrail;
import io.xd.core.cluster.AuditRecord;

/** The audit trail: who created, deployed, changed and removed streams and custom modules, and who tried. */
@RestController
public class AuditController {

	private final AuditTrail audit;

	public AuditController(AuditTrail audit) {
		this.audit = audit;
	}

	/**
	 * The audit records, newest first, that match every filter given.
	 * @param user only this user's
	 * @param action only actions that start with this, such as {@code stream.} or {@code module.delete}
	 * @param target only this stream, or {@code <type>:<name>} module
	 */
	@GetMapping("/audit-records")
	public PageResponse<AuditRecord> list(@RequestParam(required = false) String user,
			@RequestParam(required = false) String action, @RequestParam(required = false) String target,
			@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size) {
		return PageResponse.of(this.audit.records(user, action, target), page, size);
	}
}
