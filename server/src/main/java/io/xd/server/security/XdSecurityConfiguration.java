package io.xd.server.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.security.web.session.DisableEncodeUrlFilter;

/**
 * Spring Security for every XD process's web server (the admin's REST API, a container's Actuator): HTTP Basic
 * against the users of {@code xd.security.users}, or bearer JWTs when an OAuth2 / OIDC provider is configured
 * ({@code spring.security.oauth2.resourceserver.jwt.*}), with the roles of {@link AccessRules}. With neither, the
 * server creates a {@link LocalAdministrator}. {@code xd.security.enabled=false} lets every request through, with a
 * warning; the cross-site checks of {@link CrossSiteRequestFilter} stay on either way.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(XdSecurityProperties.class)
public class XdSecurityConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(XdSecurityConfiguration.class);

	@Bean
	public SecurityFilterChain xdSecurityFilterChain(HttpSecurity http, XdSecurityProperties properties,
			ObjectProvider<JwtDecoder> jwtDecoder, @Value("${server.address:}") String serverAddress) throws Exception {
		http.csrf(AbstractHttpConfigurer::disable)
			.sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.requestCache(AbstractHttpConfigurer::disable)
			.formLogin(AbstractHttpConfigurer::disable)
			.logout(AbstractHttpConfigurer::disable)
			.addFilterBefore(new CrossSiteRequestFilter(properties.getAllowedOrigins(), properties.getAllowedHosts(),
					isLoopback(serverAddress)), DisableEncodeUrlFilter.class);
		if (!properties.isEnabled()) {
			logger.warn("Security is off (xd.security.enabled=false): anyone who can reach this server can create, "
					+ "deploy and destroy streams and upload modules");
			return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll()).build();
		}
		boolean bearer = jwtDecoder.getIfAvailable() != null;
		http.authorizeHttpRequests(requests -> requests.anyRequest().access(new AccessRules()))
			.httpBasic(basic -> basic.authenticationEntryPoint(JsonErrors.unauthorized(bearer)))
			.exceptionHandling(errors -> errors.authenticationEntryPoint(JsonErrors.unauthorized(bearer))
				.accessDeniedHandler(JsonErrors.forbidden()));
		if (bearer) {
			http.oauth2ResourceServer(oauth2 -> oauth2.authenticationEntryPoint(JsonErrors.unauthorized(true))
				.accessDeniedHandler(JsonErrors.forbidden())
				.jwt(jwt -> jwt.jwtAuthenticationConverter(
						rolesFromClaim(properties.getRolesClaim(), properties.getJwt().getAudience()))));
		}
		return http.build();
	}

	/**
	 * Spring Security's strict firewall, but letting any method name through: Spring MVC answers a method a path does
	 * not serve with 405, whatever its name, where the firewall would answer 400 (Tomcat refuses a method name that
	 * is not an HTTP token before either sees it).
	 */
	@Bean
	public HttpFirewall httpFirewall() {
		StrictHttpFirewall firewall = new StrictHttpFirewall();
		firewall.setUnsafeAllowAnyHttpMethod(true);
		return firewall;
	}

	/**
	 * A request Spring Security's firewall refuses (an encoded slash or dot segment in the path, a control character, a
	 * header it will not pass) is a 400 in the API's error format.
	 */
	@Bean
	public RequestRejectedHandler jsonRequestRejectedHandler() {
		return (request, response, ex) -> JsonErrors.write(response, HttpServletResponse.SC_BAD_REQUEST,
				"RequestRejected", ex.getMessage());
	}

	@Bean
	public PasswordEncoder passwordEncoder() {
		return PasswordEncoderFactories.createDelegatingPasswordEncoder();
	}

	@Bean
	public UserDetailsService xdUsers(XdSecurityProperties properties, ObjectProvider<JwtDecoder> jwtDecoder,
			@Value("${xd.data.dir}") Path dataDirectory) {
		List<UserDetails> users = new ArrayList<>();
		properties.getUsers().forEach((name, user) -> users.add(user(name, user)));
		if (properties.isEnabled() && users.isEmpty() && jwtDecoder.getIfAvailable() == null) {
			LocalAdministrator admin = LocalAdministrator.obtain(dataDirectory);
			logger.info("No users are configured (xd.security.users): the administrator '{}' has all roles; its "
					+ "password is in {} (readable by its owner only), where bin/xd-shell finds it", admin.username(),
					admin.file());
			users.add(User.withUsername(admin.username())
				.password("{noop}" + admin.password())
				.roles(roleNames(List.of(Role.values())))
				.build());
		}
		// only the lookup: a UserDetailsPasswordService would have Spring Security "upgrade" a {noop} password to
		// {bcrypt} at the first login, and then pay a bcrypt check (100-200 ms here) on every request after it
		UserDetailsService manager = new InMemoryUserDetailsManager(users);
		return manager::loadUserByUsername;
	}

	private static UserDetails user(String name, XdSecurityProperties.User user) {
		String password = user.getPassword();
		if (password == null || !password.matches("\\{[^{}]+\\}.+")) {
			throw new IllegalStateException("xd.security.users." + name + ".password must be encoded as Spring "
					+ "Security's {id}encoded form, such as {bcrypt}$2a$10$... ({noop}plain for tests)");
		}
		List<Role> roles = user.getRoles().stream().map(Role::of).toList();
		return User.withUsername(name).password(password).roles(roleNames(roles)).build();
	}

	private static String[] roleNames(Collection<Role> roles) {
		return roles.stream().map(Role::name).toArray(String[]::new);
	}

	/**
	 * Bearer tokens' roles come from one claim: a list, or a space-separated string, of role names. With an
	 * {@code audience}, a token whose {@code aud} claim does not name it is refused (401).
	 */
	static Converter<Jwt, AbstractAuthenticationToken> rolesFromClaim(String claim, String audience) {
		return jwt -> {
			if (audience != null && !audience.isBlank()
					&& (jwt.getAudience() == null || !jwt.getAudience().contains(audience))) {
				throw new InvalidBearerTokenException("The token is not for this server: its audience (aud) does not "
						+ "include " + audience);
			}
			Object value = jwt.getClaims().get(claim);
			List<String> names = new ArrayList<>();
			if (value instanceof Collection<?> list) {
				list.forEach(item -> names.add(String.valueOf(item)));
			}
			else if (value instanceof String text) {
				names.addAll(List.of(text.trim().split("\\s+")));
			}
			List<GrantedAuthority> authorities = new ArrayList<>();
			for (String name : names) {
				try {
					authorities.add(new SimpleGrantedAuthority(Role.of(name).authority()));
				}
				catch (IllegalArgumentException ex) {
					// a role of another application in the same claim
				}
			}
			String subject = (jwt.getSubject() != null) ? jwt.getSubject() : String.valueOf(jwt.getClaims()
				.getOrDefault("preferred_username", "bearer"));
			return new JwtAuthenticationToken(jwt, authorities, subject);
		};
	}

	private static boolean isLoopback(String serverAddress) {
		if (serverAddress == null || serverAddress.isBlank()) {
			return false;
		}
		try {
			return InetAddress.getByName(serverAddress).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}
}
