package io.xd.core.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a container says about itself when it joins: its id, host, IP address, process id, groups and any custom
 * attributes. Deployment criteria are evaluated against {@link #asMap()}.
 *
 * @param id the container id
 * @param host the host name
 * @param ip the IP address
 * @param pid the process id
 * @param groups the groups the container belongs to, comma-separated ({@code ""} for none)
 * @param custom custom attributes ({@code xd.container.<name>})
 */
public record ContainerAttributes(String id, String host, String ip, String pid, String groups,
		Map<String, String> custom) {

	public ContainerAttributes {
		groups = (groups == null) ? "" : groups;
		custom = (custom == null) ? Map.of() : Map.copyOf(custom);
	}

	/** The groups as a set; empty when the container belongs to none. */
	public Set<String> groupSet() {
		return this.groups.isBlank() ? Set.of() : Set.of(this.groups.trim().split("\\s*,\\s*"));
	}

	/** Every attribute by name: {@code id}, {@code host}, {@code ip}, {@code pid}, {@code groups}, then custom ones. */
	public Map<String, String> asMap() {
		Map<String, String> all = new LinkedHashMap<>();
		all.put("id", this.id);
		all.put("host", this.host);
		all.put("ip", this.ip);
		all.put("pid", this.pid);
		all.put("groups", this.groups);
		this.custom.forEach(all::putIfAbsent);
		return all;
	}
}
