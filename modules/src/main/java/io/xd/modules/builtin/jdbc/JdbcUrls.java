package io.xd.modules.builtin.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;

/**
 * Reads a literal JDBC URL the way its driver will read it, so that what is checked is what connects: PostgreSQL's
 * driver URL-decodes the database name and each parameter's name and value ({@code %73ocketFactory} is
 * {@code socketFactory}) and keeps the last of repeated parameters; H2 splits its settings at every {@code ;} and
 * upper-cases their names ({@code init} is {@code INIT}). The URL without its parameters must match one of the
 * operator's patterns ({@code xd.modules.jdbc.allowed-urls}), and every parameter must be on a short list of
 * harmless ones: a list of what is allowed, since the drivers keep adding parameters that load classes, read files or
 * run SQL. Credentials never travel in a URL. An H2 database is in memory, or a file under the file roots.
 */
final class JdbcUrls {

	/** PostgreSQL parameters a definition may set: timeouts, names, batching, and TLS modes without files or classes. */
	static final Set<String> POSTGRESQL_PARAMETERS = Set.of("ApplicationName", "connectTimeout", "socketTimeout",
			"loginTimeout", "tcpKeepAlive", "currentSchema", "reWriteBatchedInserts", "ssl", "sslmode",
			"prepareThreshold", "defaultRowFetchSize", "targetServerType", "loadBalanceHosts", "binaryTransfer");

	/** H2 settings a definition may set: compatibility modes and lifecycle, nothing that opens servers or runs SQL. */
	static final Set<String> H2_SETTINGS = Set.of("MODE", "DB_CLOSE_DELAY", "DB_CLOSE_ON_EXIT", "DATABASE_TO_UPPER",
			"DATABASE_TO_LOWER", "CASE_INSENSITIVE_IDENTIFIERS", "DEFAULT_NULL_ORDERING", "LOCK_TIMEOUT", "IFEXISTS");

	private static final String POSTGRESQL = "jdbc:postgresql:";

	private static final String H2 = "jdbc:h2:";

	private JdbcUrls() {
	}

	/**
	 * A URL as its driver reads it.
	 *
	 * @param canonical the URL without parameters, as matched against the operator's patterns
	 * @param parameters the parameters, decoded as the driver decodes them
	 */
	record ReadUrl(String canonical, Map<String, String> parameters) {
	}

	/**
	 * Checks a literal URL of a definition against what the operator allows.
	 * @param option the option's name, for the message
	 * @throws ModuleOptionException naming the option and the reason
	 */
	static void check(String option, String url, HostAccess access) {
		ReadUrl read;
		try {
			read = read(url, access);
		}
		catch (ModuleOptionException ex) {
			throw ex;
		}
		catch (IllegalArgumentException ex) {
			throw refused(option, url, ex.getMessage());
		}
		if (!access.isAllowedJdbcUrl(read.canonical())) {
			throw refused(option, url, "it is not one the operator allows (xd.modules.jdbc.allowed-urls: "
					+ access.allowedJdbcUrls() + "); name a data source with --dataSource instead (xd.datasources."
					+ "<name>.url" + (access.dataSourceNames().isEmpty() ? "" : "; declared: " + access.dataSourceNames())
					+ ")");
		}
	}

	/**
	 * Reads a PostgreSQL or H2 URL.
	 * @throws IllegalArgumentException saying what is refused
	 */
	static ReadUrl read(String url, HostAccess access) {
		if (url.indexOf('\0') >= 0 || url.chars().anyMatch(Character::isISOControl)) {
			throw new IllegalArgumentException("it holds control characters");
		}
		if (url.regionMatches(true, 0, POSTGRESQL, 0, POSTGRESQL.length())) {
			return postgresql(url.substring(POSTGRESQL.length()));
		}
		if (url.regionMatches(true, 0, H2, 0, H2.length())) {
			return h2(url.substring(H2.length()), access);
		}
		throw new IllegalArgumentException("only jdbc:postgresql: and jdbc:h2: URLs are supported");
	}

	/** As PostgreSQL's driver (pgjdbc) parses {@code jdbc:postgresql:[//hosts/]database[?parameters]}. */
	private static ReadUrl postgresql(String rest) {
		int query = rest.indexOf('?');
		String location = (query < 0) ? rest : rest.substring(0, query);
		String hosts = "localhost:5432";
		String database = location;
		if (location.startsWith("//")) {
			int slash = location.indexOf('/', 2);
			hosts = (slash < 0) ? location.substring(2) : location.substring(2, slash);
			database = (slash < 0) ? "" : location.substring(slash + 1);
			if (hosts.isEmpty()) {
				hosts = "localhost:5432";
			}
		}
		StringBuilder canonicalHosts = new StringBuilder();
		for (String host : hosts.split(",", -1)) {
			String withPort = host.contains(":") && !host.endsWith("]") ? host : host + ":5432";
			canonicalHosts.append((canonicalHosts.length() == 0) ? "" : ",").append(withPort.toLowerCase(Locale.ROOT));
		}
		Map<String, String> parameters = new LinkedHashMap<>();
		if (query >= 0) {
			for (String pair : rest.substring(query + 1).split("&")) {
				if (pair.isEmpty()) {
					continue;
				}
				int equals = pair.indexOf('=');
				String name = decode((equals < 0) ? pair : pair.substring(0, equals));
				String value = (equals < 0) ? "" : decode(pair.substring(equals + 1));
				if (!POSTGRESQL_PARAMETERS.contains(name)) {
					throw new IllegalArgumentException("the PostgreSQL parameter '" + name + "' is not one a definition "
							+ "may set (" + String.join(", ", POSTGRESQL_PARAMETERS.stream().sorted().toList()) + ")");
				}
				parameters.put(name, value);
			}
		}
		return new ReadUrl("jdbc:postgresql://" + canonicalHosts + "/" + decode(database), parameters);
	}

	/** As H2 parses {@code jdbc:h2:name[;SETTING=value...]}: settings split at every {@code ;}, names upper-cased. */
	private static ReadUrl h2(String rest, HostAccess access) {
		List<String> parts = List.of(rest.split(";", -1));
		String name = parts.get(0);
		Map<String, String> settings = new LinkedHashMap<>();
		for (String setting : parts.subList(1, parts.size())) {
			if (setting.isEmpty()) {
				continue;
			}
			int equals = setting.indexOf('=');
			String key = ((equals < 0) ? setting : setting.substring(0, equals)).strip().toUpperCase(Locale.ROOT);
			if (!H2_SETTINGS.contains(key)) {
				throw new IllegalArgumentException("the H2 setting '" + key + "' is not one a definition may set ("
						+ String.join(", ", H2_SETTINGS.stream().sorted().toList()) + ")");
			}
			settings.put(key, (equals < 0) ? "" : setting.substring(equals + 1));
		}
		String lower = name.toLowerCase(Locale.ROOT);
		if (lower.startsWith("mem:")) {
			String memory = name.substring("mem:".length());
			if (!memory.matches("[A-Za-z0-9_\\-]*")) {
				throw new IllegalArgumentException("an in-memory H2 database is named with letters, digits, _ and -");
			}
			return new ReadUrl("jdbc:h2:mem:" + memory, settings);
		}
		String path = lower.startsWith("file:") ? name.substring("file:".length()) : name;
		if (path.isEmpty() || path.startsWith("~") || path.matches("(?i)[a-z][a-z0-9]+:.*")) {
			throw new IllegalArgumentException("an H2 database is in memory (mem:) or a file (file:) under the file "
					+ "roots; servers, archives and other file systems are not allowed");
		}
		Path file = access.path("url", path);
		return new ReadUrl("jdbc:h2:file:" + file, settings);
	}

	private static String decode(String text) {
		try {
			return URLDecoder.decode(text, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("it is not valid URL encoding: " + ex.getMessage());
		}
	}

	/** The URL as a message may show it: without its parameters or settings, and without credentials before a host. */
	static String shown(String url) {
		int end = url.length();
		for (char separator : new char[] { '?', ';' }) {
			int at = url.indexOf(separator);
			end = (at >= 0) ? Math.min(end, at) : end;
		}
		String shown = url.substring(0, end).replaceAll("//[^/@]*@", "//******@");
		return (shown.length() > 200) ? shown.substring(0, 200) + "..." : shown;
	}

	private static ModuleOptionException refused(String option, String url, String reason) {
		String shown = shown(url);
		return ModuleOptionException.refused(option, shown + ((shown.length() < url.length()) ? "..." : ""), reason);
	}
}
