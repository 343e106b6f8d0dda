package io.xd.server.security;

import java.util.Locale;

/**
 * What a user may do on the REST API, as Spring Cloud Data Flow's roles: a user holds any set of them.
 */
public enum Role {

	/** Every GET: streams, modules, runtime, metrics. */
	VIEW,

	/** Create stream definitions. */
	CREATE,

	/** Deploy, undeploy and scale streams. */
	DEPLOY,

	/** Delete stream definitions. */
	DESTROY,

	/** Upload and delete modules, and the rest of the runtime administration. */
	MANAGE;

	/** The Spring Security authority of this role. */
	public String authority() {
		return "ROLE_" + name();
	}

	/**
	 * The role a configured name denotes: {@code view}, {@code VIEW} and {@code ROLE_VIEW} are all {@link #VIEW}.
	 * @throws IllegalArgumentException naming the roles there are
	 */
	public static Role of(String name) {
		String plain = name.trim().toUpperCase(Locale.ROOT);
		if (plain.startsWith("ROLE_")) {
			plain = plain.substring("ROLE_".length());
		}
		try {
			return valueOf(plain);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Unknown role '" + name + "': the roles are VIEW, CREATE, DEPLOY, "
					+ "DESTROY and MANAGE", ex);
		}
	}
}
