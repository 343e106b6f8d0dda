package io.xd.container;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How a container describes itself to the cluster ({@code xd.container.*}); deployment criteria match these.
 */
@ConfigurationProperties("xd.container")
public class ContainerProperties {

	/** The container id; empty picks one (singlenode keeps its id in the data directory across restarts). */
	private String id = "";

	/** Comma-separated groups the container belongs to ({@code --groups}, {@code XD_CONTAINER_GROUPS}). */
	private String groups = "";

	/** The host name to advertise; empty means this machine's name. */
	private String host = "";

	/** The IP address to advertise; empty means this machine's address. */
	private String ip = "";

	/** Custom attributes, such as {@code xd.container.attributes.zone=east}. */
	private Map<String, String> attributes = new LinkedHashMap<>();

	/**
	 * The part of the ZooKeeper session timeout the container runs its modules without hearing from ZooKeeper: when
	 * this much of it has passed since ZooKeeper last answered, the container stops every module, before its session
	 * may expire and the admin deploys them elsewhere. Above 0, at most 1.
	 */
	private double leaseFraction = ContainerServer.DEFAULT_LEASE_FRACTION;

	public String getId() {
		return this.id;
	}

	public void setId(String id) {
		this.id = id;
	}

	public String getGroups() {
		return this.groups;
	}

	public void setGroups(String groups) {
		this.groups = groups;
	}

	public String getHost() {
		return this.host;
	}

	public void setHost(String host) {
		this.host = host;
	}

	public String getIp() {
		return this.ip;
	}

	public void setIp(String ip) {
		this.ip = ip;
	}

	public double getLeaseFraction() {
		return this.leaseFraction;
	}

	public void setLeaseFraction(double leaseFraction) {
		this.leaseFraction = leaseFraction;
	}

	public Map<String, String> getAttributes() {
		return this.attributes;
	}

	public void setAttributes(Map<String, String> attributes) {
		this.attributes = attributes;
	}
}
