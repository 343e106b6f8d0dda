package io.xd.server.security;

import java.io.IOException;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;

import io.xd.admin.web.ApiErrors;

/**
 * The security answers in the REST API's error format (a JSON array of {@code {"logref", "message"}}): 401 asks for
 * credentials, 403 names the roles the user lacks.
 */
final class JsonErrors {

	private JsonErrors() {
	}

	static void write(HttpServletResponse response, int status, String logref, String message) throws IOException {
		ApiErrors.write(response, status, logref, message);
	}

	/** 401, with the schemes the server accepts. */
	static AuthenticationEntryPoint unauthorized(boolean bearer) {
		return (HttpServletRequest request, HttpServletResponse response, AuthenticationException ex) -> {
			response.addHeader("WWW-Authenticate", "Basic realm=\"XD\"");
			if (bearer) {
				response.addHeader("WWW-Authenticate", "Bearer");
			}
			String reason = (ex.getMessage() == null || ex.getMessage().startsWith("Full authentication"))
					? "Authentication is required" : ex.getMessage();
			write(response, HttpServletResponse.SC_UNAUTHORIZED, "Unauthorized", reason + ": give a user name and "
					+ "password (HTTP Basic)" + (bearer ? " or a bearer token" : ""));
		};
	}

	/** 403, naming what was asked and the roles it needs that the user does not hold. */
	static AccessDeniedHandler forbidden() {
		return (request, response, ex) -> {
			Authentication user = SecurityContextHolder.getContext().getAuthentication();
			// what the method and path need first: only a user who holds it had the request's fields read
			Set<Role> missing = AccessRules.missing(AccessRules.required(request, false), user);
			if (missing.isEmpty()) {
				missing = AccessRules.missing(AccessRules.required(request, true), user);
			}
			String who = (user == null) ? "The user" : "User '" + user.getName() + "'";
			String roles = missing.stream().map(Role::name).collect(Collectors.joining(", "));
			write(response, HttpServletResponse.SC_FORBIDDEN, "AccessDenied",
					who + " may not " + request.getMethod() + " " + request.getRequestURI()
							+ (roles.isEmpty() ? "" : ": it needs the role " + roles));
		};
	}
}
