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

/**
 * Which roles a request needs, in one table (the first matching row wins):
 *
 * <pre>
 * any method       /actuator/health/**            none: open to probes
 * GET, HEAD        /dashboard/**                  none: the dashboard's static files (its API calls authenticate)
 * GET, HEAD        /security/info                 none: who the caller is and its roles
 * GET, HEAD        /modules/{type}/{name}/jar     none here: the admin serves module jars to requests that carry the
 *                                                 cluster's token (X-XD-Module-Token), containers and other admins
 * GET, HEAD        /**                            VIEW (Prometheus scrapers authenticate too)
 * POST             /streams/definitions           CREATE, and DEPLOY as well with deploy=true
 * DELETE           /streams/definitions/**        DESTROY
 * other methods    /streams/deployments/**        DEPLOY
 * anything else                                   MANAGE (custom module uploads, registrations and deletes,
 *                                                 runtime administration)
 * </pre>
 *
 * The error pages Spring renders for a request that already failed need nothing more.
 */
final class AccessRules implements AuthorizationManager<RequestAuthorizationContext> {

	private static final PathPatternParser PARSER = new PathPatternParser();

	private static final PathPattern HEALTH = PARSER.parse("/actuator/health/**");

	private static final PathPattern DASHBOARD = PARSER.parse("/dashboard/**");

	private static final PathPattern SECURITY_INFO = PARSER.parse("/security/info");

	private static final PathPattern DEFINITIONS = PARSER.parse("/streams/definitions");

	private static final PathPattern DEFINITIONS_ALL = PARSER.parse("/streams/definitions/**");

	private static final PathPattern DEPLOYMENTS_ALL = PARSER.parse("/streams/deployments/**");

	private static final PathPattern MODULE_JAR = PARSER.parse("/modules/{type}/{name}/jar");

	/** The roles a request needs; empty when it is open to anyone. */
	static Set<Role> required(HttpServletRequest request) {
		if (request.getDispatcherType() == DispatcherType.ERROR) {
			return Set.of();
		}
		PathContainer path = PathContainer.parsePath(pathWithinApplication(request));
		String method = request.getMethod();
		if (HEALTH.matches(path)) {
			return Set.of();
		}
		if (method.equals("GET") || method.equals("HEAD")) {
			// the dashboard's static files: its page asks for credentials and sends them with every API call
			boolean open = DASHBOARD.matches(path) || SECURITY_INFO.matches(path) || MODULE_JAR.matches(path);
			return open ? Set.of() : Set.of(Role.VIEW);
		}
		if (method.equals("POST") && DEFINITIONS.matches(path)) {
			return "true".equalsIgnoreCase(request.getParameter("deploy")) ? EnumSet.of(Role.CREATE, Role.DEPLOY)
					: Set.of(Role.CREATE);
		}
		if (method.equals("DELETE") && DEFINITIONS_ALL.matches(path)) {
			return Set.of(Role.DESTROY);
		}
		if (DEPLOYMENTS_ALL.matches(path)) {
			return Set.of(Role.DEPLOY);
		}
		return Set.of(Role.MANAGE);
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
		Set<Role> required = required(context.getRequest());
		if (required.isEmpty()) {
			return new AuthorizationDecision(true);
		}
		Authentication current = authentication.get();
		boolean anonymous = current == null || current.getAuthorities()
			.stream()
			.anyMatch(authority -> authority.getAuthority().equals("ROLE_ANONYMOUS"));
		return new AuthorizationDecision(!anonymous && missing(required, current).isEmpty());
	}

	private static String pathWithinApplication(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String context = request.getContextPath();
		return (context != null && !context.isEmpty() && uri.startsWith(context)) ? uri.substring(context.length())
				: uri;
	}
}
