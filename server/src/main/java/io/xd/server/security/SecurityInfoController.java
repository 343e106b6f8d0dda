package io.xd.server.security;

import java.util.Arrays;
import java.util.List;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /security/info}: who the caller is and which roles it holds, so that a client (the dashboard) offers
 * only what the user may do. Open to anyone: without credentials it says {@code authenticated: false}.
 */
@RestController
public class SecurityInfoController {

	private final XdSecurityProperties properties;

	public SecurityInfoController(XdSecurityProperties properties) {
		this.properties = properties;
	}

	@GetMapping("/security/info")
	public SecurityInfo info() {
		if (!this.properties.isEnabled()) {
			return new SecurityInfo(false, false, null, Arrays.stream(Role.values()).map(Role::name).toList());
		}
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null || authentication instanceof AnonymousAuthenticationToken
				|| !authentication.isAuthenticated()) {
			return new SecurityInfo(true, false, null, List.of());
		}
		List<String> roles = authentication.getAuthorities()
			.stream()
			.map(GrantedAuthority::getAuthority)
			.filter(authority -> authority.startsWith("ROLE_"))
			.map(authority -> authority.substring("ROLE_".length()))
			.filter(name -> Arrays.stream(Role.values()).anyMatch(role -> role.name().equals(name)))
			.toList();
		return new SecurityInfo(true, true, authentication.getName(), roles);
	}

	/**
	 * @param authenticationEnabled whether the server asks for credentials ({@code xd.security.enabled})
	 * @param authenticated whether this request carried valid credentials
	 * @param username who the caller is, or null
	 * @param roles the caller's roles (every role when security is off)
	 */
	public record SecurityInfo(boolean authenticationEnabled, boolean authenticated, String username,
			List<String> roles) {
	}
}
