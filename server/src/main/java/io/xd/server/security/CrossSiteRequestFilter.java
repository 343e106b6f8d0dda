package io.xd.server.security;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps web pages of other origins away from the admin, even one on the same machine and even with security off:
 * <ul>
 * <li>a request that changes something (not GET, HEAD, OPTIONS) sent by a browser on behalf of another origin
 * ({@code Sec-Fetch-Site} other than {@code same-origin}/{@code none}, or an {@code Origin} that is neither the
 * server's own nor in {@code xd.security.allowed-origins}) is refused with 403;</li>
 * <li>a request naming a host the server does not answer to ({@code Host}) is refused with 403 when the server binds
 * to loopback or {@code xd.security.allowed-hosts} is set: a DNS-rebinding page addresses 127.0.0.1 under its own
 * host name.</li>
 * </ul>
 * Clients that are not browsers (the shell, curl, scripts) send neither header and pass.
 */
final class CrossSiteRequestFilter extends OncePerRequestFilter {

	private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

	private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

	private final List<String> allowedOrigins;

	private final List<String> allowedHosts;

	private final boolean checkHost;

	/**
	 * @param allowedOrigins origins besides the server's own that may send mutating requests
	 * @param allowedHosts host names besides the loopback ones the server answers to
	 * @param loopbackOnly whether the server binds to a loopback address only
	 */
	CrossSiteRequestFilter(List<String> allowedOrigins, List<String> allowedHosts, boolean loopbackOnly) {
		this.allowedOrigins = allowedOrigins.stream().map(CrossSiteRequestFilter::normalize).toList();
		this.allowedHosts = allowedHosts.stream().map(host -> host.toLowerCase(Locale.ROOT)).toList();
		this.checkHost = loopbackOnly || !allowedHosts.isEmpty();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String host = request.getHeader("Host");
		if (this.checkHost && host != null && !isAllowedHost(host)) {
			JsonErrors.write(response, HttpServletResponse.SC_FORBIDDEN, "ForbiddenHost", "This server does not "
					+ "answer to the host name in the Host header; add it to xd.security.allowed-hosts if it is yours");
			return;
		}
		if (!SAFE_METHODS.contains(request.getMethod())) {
			String site = request.getHeader("Sec-Fetch-Site");
			String origin = request.getHeader("Origin");
			boolean crossSite = site != null && !site.equals("same-origin") && !site.equals("none");
			boolean foreignOrigin = origin != null && !isOwnOrAllowedOrigin(origin, request);
			if ((crossSite && !(origin != null && isAllowed(origin))) || foreignOrigin) {
				JsonErrors.write(response, HttpServletResponse.SC_FORBIDDEN, "CrossSiteRequest",
						"A page of another origin" + ((origin != null) ? " (" + origin + ")" : "")
								+ " may not change this server; allow it with xd.security.allowed-origins");
				return;
			}
		}
		chain.doFilter(request, response);
	}

	private boolean isAllowedHost(String hostHeader) {
		String name = hostName(hostHeader);
		return LOOPBACK_NAMES.contains(name) || name.startsWith("127.") || this.allowedHosts.contains(name);
	}

	private boolean isOwnOrAllowedOrigin(String origin, HttpServletRequest request) {
		String host = request.getHeader("Host");
		String own = normalize(request.getScheme() + "://" + ((host != null) ? host : request.getServerName()));
		return normalize(origin).equals(own) || isAllowed(origin);
	}

	private boolean isAllowed(String origin) {
		return this.allowedOrigins.contains(normalize(origin));
	}

	/** The host name of a {@code Host} header value, without the port, lower case. */
	static String hostName(String hostHeader) {
		String value = hostHeader.trim().toLowerCase(Locale.ROOT);
		if (value.startsWith("[")) {
			int end = value.indexOf(']');
			return (end > 0) ? value.substring(0, end + 1) : value;
		}
		int colon = value.lastIndexOf(':');
		return (colon >= 0 && value.indexOf(':') == colon) ? value.substring(0, colon) : value;
	}

	/** An origin as scheme://host:port with the default port made explicit, or the text itself when it is not one. */
	private static String normalize(String origin) {
		try {
			URI uri = URI.create(origin.trim().toLowerCase(Locale.ROOT));
			if (uri.getScheme() == null || uri.getHost() == null) {
				return origin.trim().toLowerCase(Locale.ROOT);
			}
			int port = (uri.getPort() != -1) ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
			return uri.getScheme() + "://" + uri.getHost() + ":" + port;
		}
		catch (IllegalArgumentException ex) {
			return origin;
		}
	}
}
