package io.xd.server.security;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

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
 * host name. The server answers to IP literals, {@code localhost} and the allowed names, each matched exactly
 * ({@code 127.0.0.1.evil.example} or {@code localhost.evil.example} are names, and refused).</li>
 * </ul>
 * Clients that are not browsers (the shell, curl, scripts) send neither header and pass.
 */
final class CrossSiteRequestFilter extends OncePerRequestFilter {

	private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

	private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

	private static final Pattern IPV4 = Pattern
		.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

	private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9a-f:.]*:[0-9a-f:.]*");

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

	/**
	 * Whether the server answers to the host of a {@code Host} header: an IP literal (no name a DNS-rebinding page
	 * could point elsewhere), {@code localhost}, or a name of {@code xd.security.allowed-hosts}, each exactly.
	 */
	static boolean isAllowedHost(String hostHeader, List<String> allowedHosts) {
		String name = hostName(hostHeader);
		return LOOPBACK_NAMES.contains(name) || isIpLiteral(name) || allowedHosts.contains(name);
	}

	private boolean isAllowedHost(String hostHeader) {
		return isAllowedHost(hostHeader, this.allowedHosts);
	}

	/** A dotted-quad IPv4 address or a bracketed IPv6 address, as a browser writes them in a Host header. */
	static boolean isIpLiteral(String name) {
		if (IPV4.matcher(name).matches()) {
			return true;
		}
		if (name.length() > 2 && name.startsWith("[") && name.endsWith("]")) {
			String inner = name.substring(1, name.length() - 1);
			if (!IPV6_CHARACTERS.matcher(inner).matches()) {
				return false;
			}
			try {
				// with a colon in it, this is only parsed as a literal, never looked up (an IPv4-mapped one gives IPv4)
				InetAddress.getByName(inner);
				return true;
			}
			catch (UnknownHostException ex) {
				return false;
			}
		}
		return false;
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
