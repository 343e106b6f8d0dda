package io.xd.modules;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Pattern;

/** The plain checks behind {@link HostAccess}: special file systems, real paths, addresses, URL patterns. */
final class HostChecks {

	/** Cloud metadata endpoints outside the link-local range (Alibaba Cloud's, AWS's IPv6 one). */
	private static final Set<String> METADATA_ADDRESSES = Set.of("100.100.100.200", "fd00:ec2:0:0:0:0:0:254");

	private HostChecks() {
	}

	/** Whether a path lies on {@code /proc}, {@code /sys} or {@code /dev}. */
	static boolean onSpecialFileSystem(Path path) {
		return HostAccess.SPECIAL_FILE_SYSTEMS.stream().anyMatch(path::startsWith);
	}

	/** A root's real path when it exists, else the root itself (nothing exists under it yet). */
	static Path realPathOf(Path root) throws IOException {
		return Files.exists(root) ? root.toRealPath() : root;
	}

	/** Whether an address is a cloud metadata endpoint outside the link-local range. */
	static boolean isMetadataAddress(InetAddress address) {
		return METADATA_ADDRESSES.contains(address.getHostAddress());
	}

	/** Whether an address is one of this machine's interfaces. */
	static boolean isLocal(InetAddress address) {
		try {
			return NetworkInterface.getByInetAddress(address) != null;
		}
		catch (SocketException ex) {
			return false;
		}
	}

	/** Whether an address a network source would listen on is one of the operator's, by name or by address. */
	static boolean isAllowedBindAddress(List<String> bindAddresses, String address, InetAddress resolved) {
		for (String allowed : bindAddresses) {
			if (allowed.equalsIgnoreCase(address)) {
				return true;
			}
			try {
				if (InetAddress.getByName(allowed).equals(resolved)) {
					return true;
				}
			}
			catch (UnknownHostException ex) {
				// an allowed name that does not resolve here allows nothing
			}
		}
		return false;
	}

	/** A host name lower-cased, an IPv6 literal without its brackets. */
	static String bareHost(String host) {
		String lower = host.strip().toLowerCase(Locale.ROOT);
		return (lower.startsWith("[") && lower.endsWith("]")) ? lower.substring(1, lower.length() - 1) : lower;
	}

	/** The hosts of an operator's list, {@link #bareHost bare}, blanks left out. */
	static Set<String> hostSet(Collection<String> hosts) {
		return hosts.stream().map(HostChecks::bareHost).filter(host -> !host.isEmpty())
			.collect(Collectors.toUnmodifiableSet());
	}

	/**
	 * The addresses a host resolves to, each checked: never link-local, a metadata endpoint, a wildcard or multicast
	 * address, nor one of XD's own ports on this machine.
	 */
	static List<InetAddress> checkAddresses(String option, String shown, String bareHost, int port,
			Set<Integer> reservedPorts) {
		InetAddress[] addresses;
		try {
			addresses = InetAddress.getAllByName(bareHost);
		}
		catch (UnknownHostException ex) {
			throw ModuleOptionException.refused(option, shown, "its host does not resolve");
		}
		for (InetAddress address : addresses) {
			if (address.isLinkLocalAddress() || address.isAnyLocalAddress() || address.isMulticastAddress()
					|| isMetadataAddress(address)) {
				throw ModuleOptionException.refused(option, shown, "its host resolves to " + address.getHostAddress()
						+ ", a link-local, metadata, wildcard or multicast address, which no stream may reach");
			}
			if (reservedPorts.contains(port) && (address.isLoopbackAddress() || isLocal(address))) {
				throw ModuleOptionException.refused(option, shown, "it is a port of XD itself");
			}
		}
		return List.of(addresses);
	}

	/** Whether {@code text} matches {@code pattern}, where {@code *} stands for any characters but / ? and ;. */
	static boolean globMatches(String pattern, String text) {
		String[] parts = pattern.split("\\*", -1);
		StringBuilder regex = new StringBuilder(Pattern.quote(parts[0]));
		for (int i = 1; i < parts.length; i++) {
			regex.append("[^/?;]*").append(Pattern.quote(parts[i]));
		}
		return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE).matcher(text).matches();
	}
}
