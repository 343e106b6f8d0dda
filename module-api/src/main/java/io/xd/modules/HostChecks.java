package io.xd.modules;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
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
