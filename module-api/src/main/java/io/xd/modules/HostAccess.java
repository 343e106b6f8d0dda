package io.xd.modules;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * What the operator lets stream definitions reach on the host. A stream definition is untrusted input, written by a
 * user who holds a role, not by the operator: a module option that names a file, a folder, a database, a host or a
 * port reaches only what the operator declared here. Modules check their options with it twice: when a stream is
 * created (the admin calls {@link ModuleProvider#checkAccess}, and a refusal is a 400 naming the option and what is
 * allowed), and when they open what the option names (on the container, where links and files may have changed since).
 * <p>
 * <b>Files.</b> Paths are allowed under the file roots only ({@code xd.modules.file.roots}; by default the folder
 * {@code files} of the data directory). A relative path resolves under the first root. A path that leaves every root
 * (through {@code ..}, an absolute path, or a symbolic link, checked on the real path), or that lies on a special file
 * system ({@code /proc}, {@code /sys}, {@code /dev}), is refused. A root never contains the data directory, so the
 * server's own files (credentials, the stream store) are out of every definition's reach.
 * <p>
 * <b>Listening.</b> Network sources bind to a loopback address unless the operator allows others
 * ({@code xd.modules.network.bind-addresses}), to port 0 or an unprivileged port (1024 and up), never to a port of XD
 * itself (the admin's, ZooKeeper's, the management port).
 * <p>
 * <b>Databases.</b> Modules that use a database name a data source the operator declared
 * ({@code xd.datasources.<name>.url}, {@code .username}, {@code .password}): the definition carries neither the URL nor
 * the password. A literal JDBC URL is accepted only where it matches the operator's patterns
 * ({@code xd.modules.jdbc.allowed-urls}; none by default), read the way its driver reads it (the module's job).
 * <p>
 * <b>Connector servers.</b> Connector modules ({@code rabbit}, {@code mqtt}, {@code redis}, ...) name a server the
 * operator declared ({@code xd.connections.<name>}, a {@link Connection}, credentials included), or a host of
 * {@code xd.modules.connect.allowed-hosts} (none by default).
 * <p>
 * <b>Connecting.</b> Modules that connect to a host named in an option ({@code http-client --url}) reach only the hosts
 * the operator allows ({@code xd.modules.http-client.allowed-hosts}: names and IP literals, matched exactly; none by
 * default). Every address the name resolves to is checked when the module connects: link-local and cloud metadata
 * addresses, wildcard and multicast addresses are always refused, and so are XD's own ports on this host.
 * <p>
 * Instances are immutable and thread-safe.
 */
public final class HostAccess {

	/** File systems no root may be on: they expose the host's processes, devices and kernel. */
	public static final List<Path> SPECIAL_FILE_SYSTEMS = List.of(Path.of("/proc"), Path.of("/sys"), Path.of("/dev"));

	/** The folder of the data directory that is the file root when the operator names none. */
	public static final String DEFAULT_FILE_ROOT = "files";

	private final List<Path> fileRoots;

	private final Set<String> allowedHosts;

	private final List<String> bindAddresses;

	private final Supplier<? extends Collection<Integer>> reservedPorts;

	private final Map<String, DataSource> dataSources;

	private final List<String> allowedJdbcUrls;

	private final Map<String, Connection> connections;

	private final Set<String> connectHosts;

	/**
	 * @param fileRoots the folders file options may name, absolute; the first is where relative paths resolve
	 * @param dataDirectory the server's data directory, which no root may contain
	 * @throws IllegalArgumentException for a relative root, one on a special file system, or one that contains the
	 * data directory
	 */
	public HostAccess(List<Path> fileRoots, Path dataDirectory) {
		Objects.requireNonNull(fileRoots, "fileRoots");
		Path data = dataDirectory.toAbsolutePath().normalize();
		this.fileRoots = fileRoots.stream().map(root -> checkedRoot(root, data)).toList();
		this.allowedHosts = Set.of();
		this.bindAddresses = List.of();
		this.reservedPorts = Set::of;
		this.dataSources = Map.of();
		this.allowedJdbcUrls = List.of();
		this.connections = Map.of();
		this.connectHosts = Set.of();
	}

	private HostAccess(HostAccess base, Set<String> allowedHosts, List<String> bindAddresses,
			Supplier<? extends Collection<Integer>> reservedPorts, Map<String, DataSource> dataSources,
			List<String> allowedJdbcUrls, Map<String, Connection> connections, Set<String> connectHosts) {
		this.fileRoots = base.fileRoots;
		this.allowedHosts = allowedHosts;
		this.bindAddresses = bindAddresses;
		this.reservedPorts = reservedPorts;
		this.dataSources = dataSources;
		this.allowedJdbcUrls = allowedJdbcUrls;
		this.connections = connections;
		this.connectHosts = connectHosts;
	}

	/** The same access, with the servers the operator declared for connector modules, by name. */
	public HostAccess withConnections(Map<String, Connection> connections) {
		return new HostAccess(this, this.allowedHosts, this.bindAddresses, this.reservedPorts, this.dataSources,
				this.allowedJdbcUrls, Collections.unmodifiableMap(new TreeMap<>(connections)), this.connectHosts);
	}

	/**
	 * The same access, where connector modules ({@code rabbit}, {@code mqtt}, {@code redis}, {@code mail},
	 * {@code sftp}, the {@code tcp} sink) may also name these hosts in their host options: names (matched exactly,
	 * ignoring case) or IP literals ({@code xd.modules.connect.allowed-hosts}).
	 */
	public HostAccess withConnectHosts(Collection<String> hosts) {
		return new HostAccess(this, this.allowedHosts, this.bindAddresses, this.reservedPorts, this.dataSources,
				this.allowedJdbcUrls, this.connections, HostChecks.hostSet(hosts));
	}

	/** The same access, with the databases the operator declared, by name. */
	public HostAccess withDataSources(Map<String, DataSource> dataSources) {
		return new HostAccess(this, this.allowedHosts, this.bindAddresses, this.reservedPorts,
				Collections.unmodifiableMap(new TreeMap<>(dataSources)), this.allowedJdbcUrls, this.connections,
				this.connectHosts);
	}

	/**
	 * The same access, where a literal JDBC URL may name a database that one of these patterns matches: {@code *}
	 * stands for any characters but {@code /}, {@code ?} and {@code ;}; the module matches its URL as the driver reads
	 * it, without parameters, and checks those against its own list.
	 */
	public HostAccess withAllowedJdbcUrls(Collection<String> patterns) {
		List<String> allowed = patterns.stream().map(String::strip).filter(pattern -> !pattern.isEmpty()).toList();
		return new HostAccess(this, this.allowedHosts, this.bindAddresses, this.reservedPorts, this.dataSources,
				allowed, this.connections, this.connectHosts);
	}

	/**
	 * The same access, where connecting modules may also reach these hosts: names (matched exactly, ignoring case) or
	 * IP literals.
	 */
	public HostAccess withAllowedHosts(Collection<String> hosts) {
		Set<String> allowed = HostChecks.hostSet(hosts);
		return new HostAccess(this, allowed, this.bindAddresses, this.reservedPorts, this.dataSources,
				this.allowedJdbcUrls, this.connections, this.connectHosts);
	}

	/** The same access, where network sources may also listen on these addresses ({@code 0.0.0.0}: on every one). */
	public HostAccess withBindAddresses(Collection<String> addresses) {
		List<String> allowed = addresses.stream().map(String::strip).filter(address -> !address.isEmpty()).toList();
		return new HostAccess(this, this.allowedHosts, allowed, this.reservedPorts, this.dataSources,
				this.allowedJdbcUrls, this.connections, this.connectHosts);
	}

	/**
	 * The same access, where these ports (XD's own) are neither listened on nor connected to on this host. The ports
	 * are asked for at each check: a server that listens on a port picked at start knows it only then.
	 */
	public HostAccess withReservedPorts(Supplier<? extends Collection<Integer>> ports) {
		return new HostAccess(this, this.allowedHosts, this.bindAddresses, Objects.requireNonNull(ports),
				this.dataSources, this.allowedJdbcUrls, this.connections, this.connectHosts);
	}

	/** The defaults: one file root, the folder {@value #DEFAULT_FILE_ROOT} of the data directory. */
	public static HostAccess defaults(Path dataDirectory) {
		return new HostAccess(List.of(dataDirectory.resolve(DEFAULT_FILE_ROOT)), dataDirectory);
	}

	private static Path checkedRoot(Path root, Path dataDirectory) {
		if (!root.isAbsolute()) {
			throw new IllegalArgumentException("The file root '" + root + "' is not an absolute path");
		}
		Path normalized = root.normalize();
		if (HostChecks.onSpecialFileSystem(normalized)) {
			throw new IllegalArgumentException("The file root '" + root + "' is on a special file system "
					+ SPECIAL_FILE_SYSTEMS);
		}
		if (dataDirectory.startsWith(normalized)) {
			throw new IllegalArgumentException("The file root '" + root + "' contains the data directory "
					+ dataDirectory + ", whose files (credentials, the stream store) no stream may reach");
		}
		return normalized;
	}

	/**
	 * Checks what a module's options reach with its provider's {@link ModuleProvider#checkAccess}, as the admin does
	 * when a stream is created and the container before it creates the module.
	 * @throws ModuleOptionException naming the module, the option and what is allowed
	 */
	public void check(ModuleProvider provider, ModuleOptions options) {
		try {
			provider.checkAccess(options, this);
		}
		catch (ModuleOptionException ex) {
			throw new ModuleOptionException(provider.metadata().qualifiedName(), ex.problems());
		}
	}

	/** The folders file options may name; relative paths resolve under the first. */
	public List<Path> fileRoots() {
		return this.fileRoots;
	}

	/**
	 * The absolute path that a file option names, checked: under a root once normalised, not on a special file
	 * system, and, where it exists already, with a real path (links followed) under a root's real path.
	 * @param option the option's name, for the message
	 * @param text the option's value; a relative path resolves under the first root
	 * @throws ModuleOptionException naming the option and the roots
	 */
	public Path path(String option, String text) {
		if (this.fileRoots.isEmpty()) {
			throw refused(option, text, "no file roots are declared (xd.modules.file.roots)");
		}
		Path given;
		try {
			given = (text.indexOf('\0') >= 0) ? null : Path.of(text);
		}
		catch (InvalidPathException ex) {
			given = null;
		}
		if (given == null) {
			throw refused(option, text, "it is not a path");
		}
		Path resolved = this.fileRoots.get(0).resolve(given).normalize();
		if (!isUnderRoot(resolved) || HostChecks.onSpecialFileSystem(resolved)) {
			throw refused(option, text, "it is not under a file root");
		}
		try {
			checkRealPath(resolved);
		}
		catch (IOException ex) {
			throw refused(option, text, "a symbolic link on its way leads out of the file roots");
		}
		return resolved;
	}

	/**
	 * The real path of an existing file, once it is known to lie under a root: what a module opens to read a file,
	 * with {@link LinkOption#NOFOLLOW_LINKS}. {@link #checkRealPath} passes a file that does not exist yet on its
	 * parent's real path, so opening the path after it would follow a link to a file outside the roots made in
	 * between; opening what this returns, without following a link at its end, refuses one.
	 * @return the path's real path, links followed
	 * @throws java.nio.file.NoSuchFileException when the file, or what a link on its way names, does not exist
	 * @throws AccessDeniedException when the real path leads out of the file roots
	 * @throws IOException when the file system cannot tell
	 */
	public Path existingRealPath(Path path) throws IOException {
		Path real = path.toRealPath();
		checkRealPath(real);
		return real;
	}

	/**
	 * Checks, when a module opens it, that a path lies under a root on disk: the real path of the path, or of its
	 * nearest existing parent, links followed, is under the real path of a root. Call it right before opening: it
	 * sees links made after the stream was created. To read a file, open {@link #existingRealPath} instead.
	 * @return the path
	 * @throws AccessDeniedException when the real path leads out of the file roots
	 * @throws IOException when the file system cannot tell
	 */
	public Path checkRealPath(Path path) throws IOException {
		Path absolute = path.toAbsolutePath().normalize();
		Path existing = absolute;
		while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
			existing = existing.getParent();
		}
		if (existing == null) {
			throw new AccessDeniedException(path.toString(), null, "not under a file root");
		}
		Path real = existing.toRealPath();
		for (Path root : this.fileRoots) {
			if (!absolute.startsWith(root)) {
				continue;
			}
			if (!existing.startsWith(root)) {
				// the root does not exist yet, so nothing under it does: no link can lead out
				return path;
			}
			if (real.startsWith(HostChecks.realPathOf(root)) && !HostChecks.onSpecialFileSystem(real)) {
				return path;
			}
		}
		throw new AccessDeniedException(path.toString(), null,
				"its real path " + real + " is not under a file root " + this.fileRoots);
	}

	/**
	 * The data source the operator declared under {@code name}.
	 * @param option the option that named it, for the message
	 * @throws ModuleOptionException listing the declared names when there is none of that name
	 */
	public DataSource dataSource(String option, String name) {
		DataSource found = this.dataSources.get(name);
		if (found == null) {
			throw ModuleOptionException.refused(option, name, "no data source of that name is declared; the operator declares them as "
					+ "xd.datasources.<name>.url, .username, .password" + (this.dataSources.isEmpty() ? ""
							: " (declared: " + String.join(", ", this.dataSources.keySet()) + ")"));
		}
		return found;
	}

	/**
	 * The server the operator declared for connector modules under {@code name} ({@code xd.connections.<name>}).
	 * @param option the option that named it, for the message
	 * @throws ModuleOptionException listing the declared names when there is none of that name
	 */
	public Connection connection(String option, String name) {
		Connection found = this.connections.get(name);
		if (found == null) {
			throw ModuleOptionException.refused(option, name, "no connection of that name is declared; the operator "
					+ "declares them as xd.connections.<name>.host, .port, .username, .password, .tls"
					+ (this.connections.isEmpty() ? "" : " (declared: " + String.join(", ", this.connections.keySet()) + ")"));
		}
		return found;
	}

	/** The names of the declared connections. */
	public Set<String> connectionNames() {
		return this.connections.keySet();
	}

	/** The hosts connector modules may name in their host options ({@code xd.modules.connect.allowed-hosts}). */
	public Set<String> connectHosts() {
		return this.connectHosts;
	}

	/**
	 * Checks a host that a connector module's option names, as it connects: one the operator allows
	 * ({@code xd.modules.connect.allowed-hosts}), resolving to no link-local, metadata, wildcard or multicast address,
	 * and not XD's own port on this host. Hosts of declared {@link Connection connections} need no check: the operator
	 * named them.
	 * @param option the option that named the host, for the message
	 * @param host a host name or IP literal
	 * @param port the port it connects to
	 * @return the addresses the host resolved to
	 * @throws ModuleOptionException naming the option and the allowed hosts
	 */
	public List<InetAddress> checkConnectHost(String option, String host, int port) {
		String bare = HostChecks.bareHost(host);
		String shown = host + ":" + port;
		if (bare.isEmpty() || !this.connectHosts.contains(bare)) {
			throw ModuleOptionException.refused(option, shown, "its host is not one of " + new TreeSet<>(this.connectHosts)
					+ " (the operator's xd.modules.connect.allowed-hosts); name a declared connection with "
					+ "--connection instead" + (this.connections.isEmpty() ? ""
							: " (declared: " + String.join(", ", this.connections.keySet()) + ")"));
		}
		return HostChecks.checkAddresses(option, shown, bare, port, reservedPorts());
	}

	/** The names of the declared data sources. */
	public Set<String> dataSourceNames() {
		return this.dataSources.keySet();
	}

	/** The operator's patterns for literal JDBC URLs; empty: none is accepted. */
	public List<String> allowedJdbcUrls() {
		return this.allowedJdbcUrls;
	}

	/**
	 * Whether a JDBC URL, as its driver reads it and without its parameters, matches one of the operator's patterns.
	 */
	public boolean isAllowedJdbcUrl(String canonicalUrl) {
		return this.allowedJdbcUrls.stream().anyMatch(pattern -> HostChecks.globMatches(pattern, canonicalUrl));
	}

	/** The hosts connecting modules may reach, besides none. */
	public Set<String> allowedHosts() {
		return this.allowedHosts;
	}

	/** The addresses network sources may listen on besides loopback ones. */
	public List<String> bindAddresses() {
		return this.bindAddresses;
	}

	/** XD's own ports on this host, as they are now. */
	public Set<Integer> reservedPorts() {
		return Set.copyOf(this.reservedPorts.get());
	}

	/**
	 * The address a network source listens on, checked: a loopback address or one the operator allows, and port 0 (a
	 * free one) or an unprivileged port that is not XD's.
	 * @param address the {@code address} option: an IP literal or a host name
	 * @param port the {@code port} option
	 * @throws ModuleOptionException naming the option and what is allowed
	 */
	public InetSocketAddress bindAddress(String address, int port) {
		InetAddress resolved;
		try {
			resolved = InetAddress.getByName(address);
		}
		catch (UnknownHostException ex) {
			throw ModuleOptionException.refused("address", address, "it does not resolve");
		}
		if (!resolved.isLoopbackAddress() && !HostChecks.isAllowedBindAddress(this.bindAddresses, address, resolved)) {
			throw ModuleOptionException.refused("address", address, "network sources listen on loopback addresses and on "
					+ this.bindAddresses + " only (the operator's xd.modules.network.bind-addresses)");
		}
		if (port != 0 && (port < 1024 || port > 65535)) {
			throw ModuleOptionException.refused("port", Integer.toString(port), "a port is 0 (a free one) or between 1024 and 65535");
		}
		if (port != 0 && reservedPorts().contains(port)) {
			throw ModuleOptionException.refused("port", Integer.toString(port), "it is a port of XD itself");
		}
		return new InetSocketAddress(resolved, port);
	}

	/**
	 * Checks a destination that a module connects to, as it connects: its host is one the operator allows, and every
	 * address it resolves to now is neither link-local, a cloud metadata endpoint, a wildcard or multicast address, nor
	 * XD's own port on this host. Call it before every connection (each redirect included): a name may resolve
	 * elsewhere later.
	 * @param option the option that named the destination, for the message
	 * @param uri the destination; its port, when absent, is the scheme's default
	 * @return the addresses the host resolved to
	 * @throws ModuleOptionException naming the option and the allowed hosts
	 */
	public List<InetAddress> checkDestination(String option, URI uri) {
		String bare = HostChecks.bareHost((uri.getHost() == null) ? "" : uri.getHost());
		if (bare.isEmpty() || !this.allowedHosts.contains(bare)) {
			throw ModuleOptionException.refused(option, uri.toString(), "its host is not one of " + new TreeSet<>(this.allowedHosts)
					+ " (the operator's xd.modules.http-client.allowed-hosts)");
		}
		int port = (uri.getPort() != -1) ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
		return HostChecks.checkAddresses(option, uri.toString(), bare, port, reservedPorts());
	}

	private boolean isUnderRoot(Path normalized) {
		return this.fileRoots.stream().anyMatch(normalized::startsWith);
	}

	private ModuleOptionException refused(String option, String text, String reason) {
		return ModuleOptionException.refused(option, text, reason + "; file options may name paths under "
				+ this.fileRoots + " only (the operator's xd.modules.file.roots)");
	}

	/**
	 * A database the operator declared. Its password stays in the server's settings: it is never shown.
	 *
	 * @param url the JDBC URL
	 * @param username the user, or null
	 * @param password the password, or null
	 */
	public record DataSource(String url, String username, String password) {

		public DataSource {
			Objects.requireNonNull(url, "url");
		}

		@Override
		public String toString() {
			return "DataSource[url=" + this.url + ", username=" + this.username + ", password="
					+ ((this.password == null) ? "none" : "******") + "]";
		}
	}

	@Override
	public String toString() {
		return "HostAccess[fileRoots=" + this.fileRoots + ", allowedHosts=" + this.allowedHosts + ", bindAddresses="
				+ this.bindAddresses + ", reservedPorts=" + reservedPorts() + ", connections=" + this.connections.keySet()
				+ ", connectHosts=" + this.connectHosts + "]";
	}
}
