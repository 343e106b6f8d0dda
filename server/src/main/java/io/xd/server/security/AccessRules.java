package io.xd.server.security;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import io.xd.admin.AdminException;
import io.xd.admin.stream.DeploymentProperties;
import io.xd.admin.web.RequestFields;
import io.xd.admin.web.StreamController;

/**
 * Which roles a request needs, in one table (the first matching row wins):
 *
 * <pre>
 * any method       /actuator/health/**            none: open to probes
 * any method       /audit-records/**              MANAGE: who did what is for administrators only
 * GET, HEAD        /dashboard/**                  none: the dashboard's static files (its API calls authenticate)
 * GET, HEAD        /security/info                 none: who the caller is and its roles
 * GET, HEAD        /modules/{type}/{name}/jar     none here: the admin serves module jars to requests that carry the
 *                                                 cluster's token (X-XD-Module-Token), containers and other admins
 * GET, HEAD        /**                            VIEW (Prometheus scrapers authenticate too)
 * POST             /streams/definitions           CREATE, and DEPLOY as well when its deploy field is true
 * DELETE           /streams/definitions/**        DESTROY
 * DELETE           /metrics/**                    DESTROY: a counter, gauge... and what it counted
 * POST             /streams/deployments/rollback/** DEPLOY and CREATE: a release's module options come back
 * POST             /streams/deployments/**        DEPLOY, and CREATE as well when its properties override module
 *                                                 options (app.&lt;label&gt;.&lt;option&gt;): that changes the definition
 * other methods    /streams/deployments/**        DEPLOY
 * anything else                                   MANAGE (custom module uploads, registrations and deletes,
 *                                                 runtime administration)
 * </pre>
 *
 * The error pages Spring renders for a request that already failed need nothing more. The fields of a request
 * (form, query or JSON) are read with the admin's {@link RequestFields}, once: the controller then acts on the very
 * fields these rules judged. A request whose fields cannot be read needs the roles of its plainest form; the
 * controller refuses it with the same error.
 */
final class AccessRules implements AuthorizationManager<RequestAuthorizationContext> {

	private static final PathPatternParser PARSER = new PathPatternParser();

	private static final PathPattern HEALTH = PARSER.parse("/actuator/health/**");

	private static final PathPattern DASHBOARD = PARSER.parse("/dashboard/**");

	private static final PathPattern SECURITY_INFO = PARSER.parse("/security/info");

	private static final PathPattern DEFINITIONS = PARSER.parse("/streams/definitions");

	private static final PathPattern DEFINITIONS_ALL = PARSER.parse("/streams/definitions/**");

	private static final PathPattern DEPLOYMENTS_ALL = PARSER.parse("/streams/deployments/**");

	private static final PathPattern ROLLBACK = PARSER.parse("/streams/deployments/rollback/**");

	private static final PathPattern MODULE_JAR = PARSER.parse("/modules/{type}/{name}/jar");

	private static final PathPattern METRICS_ALL = PARSER.parse("/metrics/**");

	private static final PathPattern AUDIT_RECORDS = PARSER.parse("/audit-records/**");

	/**
	 * The roles a request needs; empty when it is open to anyone. With {@code readFields}, what its fields ask for
	 * too (a create that deploys, a deploy that overrides options); without, only what its method and path need,
	 * which a user must hold before the body is read at all (a refused request's body is never read).
	 */
	static Set<Role> required(HttpServletRequest request, boolean readFields) {
		if (request.getDispatcherType() == DispatcherType.ERROR) {
			return Set.of();
		}
		PathContainer path = PathContainer.parsePath(pathWithinApplication(request));
		String method = request.getMethod();
		if (HEALTH.matches(path)) {
			return Set.of();
		}
		if (AUDIT_RECORDS.matches(path)) {
			return Set.of(Role.MANAGE);
		}
		if (method.equals("GET") || method.equals("HEAD")) {
			// the dashboard's static files: its page asks for credentials and sends them with every API call
			boolean open = DASHBOARD.matches(path) || SECURITY_INFO.matches(path) || MODULE_JAR.matches(path);
			return open ? Set.of() : Set.of(Role.VIEW);
		}
		if (method.equals("POST") && DEFINITIONS.matches(path)) {
			return (readFields && asksToDeploy(request)) ? EnumSet.of(Role.CREATE, Role.DEPLOY) : Set.of(Role.CREATE);
		}
		if (method.equals("DELETE") && (DEFINITIONS_ALL.matches(path) || METRICS_ALL.matches(path))) {
			return Set.of(Role.DESTROY);
		}
		if (method.equals("POST") && ROLLBACK.matches(path)) {
			return EnumSet.of(Role.CREATE, Role.DEPLOY);
		}
		if (method.equals("POST") && DEPLOYMENTS_ALL.matches(path)) {
			return (readFields && overridesOptions(request)) ? EnumSet.of(Role.CREATE, Role.DEPLOY)
					: Set.of(Role.DEPLOY);
		}
		if (DEPLOYMENTS_ALL.matches(path)) {
			return Set.of(Role.DEPLOY);
		}
		return Set.of(Role.MANAGE);
	}

	/** Whether a create request asks for the stream to be deployed too, as the controller will read it. */
	private static boolean asksToDeploy(HttpServletRequest request) {
		try {
			return RequestFields.bool(RequestFields.read(request), StreamController.DEPLOY_FIELD, false);
		}
		catch (AdminException ex) {
			return false;
		}
	}

	/** Whether a deploy or update request's properties override module options, as the controller will read them. */
	private static boolean overridesOptions(HttpServletRequest request) {
		try {
			String properties = RequestFields.read(request).get(StreamController.PROPERTIES_FIELD);
			return DeploymentProperties.parse(properties)
				.asMap()
				.keySet()
				.stream()
				.anyMatch(key -> key.startsWith(DeploymentProperties.APP_PREFIX));
		}
		catch (AdminException | IllegalArgumentException ex) {
			return false;
		}
	}

	/** The roles of {@code required} that the authentication does not hold. */
	static Set<Role> missing(Set<Role> required, Authentication authentication) {
		Set<Role> missing = required.isEmpty() ? EnumSet.noneOf(Role.class) : EnumSet.copyOf(required);
		if (authentication != null && authentication.isAuthenticated()) {
			List<String> held = authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority).toList();
			missing.removeIf(role -> held.contains(role.authority()));
		}
		return missing;
	}

	@Override
	public AuthorizationResult authorize(Supplier<? extends Authentication> authentication,
			RequestAuthorizationContext context) {
		Set<Role> required = required(context.getRequest(), false);
		if (required.isEmpty()) {
			return new AuthorizationDecision(true);
		}
		Authentication current = authentication.get();
		boolean anonymous = current == null || current.getAuthorities()
			.stream()
			.anyMatch(authority -> authority.getAuthority().equals("ROLE_ANONYMOUS"));
		if (anonymous || !missing(required, current).isEmpty()) {
			return new AuthorizationDecision(false);
		}
		if (missing(EnumSet.of(Role.CREATE, Role.DEPLOY), current).isEmpty()) {
			// the fields can ask for nothing beyond CREATE and DEPLOY: no need to read them here
			return new AuthorizationDecision(true);
		}
		return new AuthorizationDecision(missing(required(context.getRequest(), true), current).isEmpty());
	}

	private static String pathWithinApplication(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String context = request.getContextPath();
		return (context != null && !context.isEmpty() && uri.startsWith(context)) ? uri.substring(context.length())
				: uri;
	}
}
