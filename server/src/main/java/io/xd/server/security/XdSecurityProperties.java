package io.xd.server.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code xd.security.*}: who may use the REST API, and from where.
 *
 * <pre>
 * xd:
 *   security:
 *     users:
 *       alice:
 *         password: '{bcrypt}$2a$10$...'
 *         roles: VIEW, CREATE, DEPLOY
 * </pre>
 */
@ConfigurationProperties("xd.security")
public class XdSecurityProperties {

	/** Whether the REST API asks for credentials; false lets anyone who can reach it do anything. */
	private boolean enabled = true;

	/** The users, by name. With none (and no OAuth2 provider), the server creates a local administrator. */
	private Map<String, User> users = new LinkedHashMap<>();

	/** The JWT claim that lists a bearer's roles, when an OAuth2 / OIDC provider authenticates users. */
	private String rolesClaim = "roles";

	/** Browser origins (such as https://dashboard.example.com) allowed to send mutating requests. */
	private List<String> allowedOrigins = new ArrayList<>();

	/**
	 * Host names clients may address the server by, besides its loopback names when it binds to loopback. Empty
	 * and bound to all interfaces: any host name.
	 */
	private List<String> allowedHosts = new ArrayList<>();

	/** What bearer tokens (JWTs) must carry besides a valid signature. */
	private final Jwt jwt = new Jwt();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Map<String, User> getUsers() {
		return this.users;
	}

	public void setUsers(Map<String, User> users) {
		this.users = users;
	}

	public String getRolesClaim() {
		return this.rolesClaim;
	}

	public void setRolesClaim(String rolesClaim) {
		this.rolesClaim = rolesClaim;
	}

	public List<String> getAllowedOrigins() {
		return this.allowedOrigins;
	}

	public void setAllowedOrigins(List<String> allowedOrigins) {
		this.allowedOrigins = allowedOrigins;
	}

	public List<String> getAllowedHosts() {
		return this.allowedHosts;
	}

	public void setAllowedHosts(List<String> allowedHosts) {
		this.allowedHosts = allowedHosts;
	}

	public Jwt getJwt() {
		return this.jwt;
	}

	/** What bearer tokens must carry. */
	public static class Jwt {

		/**
		 * The audience a bearer token must name in its {@code aud} claim to be accepted: the identifier the OAuth2
		 * provider gives this XD. Unset, a token the provider issued for any other application is accepted too; set it
		 * in production.
		 */
		private String audience;

		public String getAudience() {
			return this.audience;
		}

		public void setAudience(String audience) {
			this.audience = audience;
		}
	}

	/** One user: a password in Spring Security's encoded form and the user's roles. */
	public static class User {

		/** The password as {id}encoded: {bcrypt}..., {pbkdf2}..., or {noop}plain for tests. */
		private String password;

		/** The user's roles: VIEW, CREATE, DEPLOY, DESTROY, MANAGE. */
		private List<String> roles = new ArrayList<>();

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public List<String> getRoles() {
			return this.roles;
		}

		public void setRoles(List<String> roles) {
			this.roles = roles;
		}
	}
}
