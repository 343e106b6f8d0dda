package io.xd.core.cluster;

import java.nio.charset.StandardCharsets;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The content of an allocation node ({@code /allocations/<containerId>/<moduleId>}): the {@link ModuleDeployment} to
 * run and the registration of the container it was written for, the ZooKeeper session that owns the container's
 * ephemeral {@code /containers/<containerId>} node when the leader read it.
 * <p>
 * A container runs an allocation only while it is registered under that session. A container that lost its session
 * stops every module before it registers again under a new one, so an allocation written for an earlier session is
 * never taken up again: the leader drops it and allocates the module afresh (on that container or another). This
 * way a module the leader has moved elsewhere, or is moving, cannot also start again on the container it came from.
 * <p>
 * The node's JSON is the deployment's own fields plus {@code containerSession}, so that readers of the deployment
 * alone ({@link ClusterJson#read}) are unaffected; an allocation without that field (written by an earlier version)
 * has session 0, which no registration has.
 *
 * @param module the module instance to run
 * @param containerSession the session id of the container registration the allocation was written for
 */
public record Allocation(ModuleDeployment module, long containerSession) {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private static final String SESSION = "containerSession";

	/** The node content: the deployment's JSON with the {@code containerSession} field added. */
	public byte[] toBytes() {
		ObjectNode node = (ObjectNode) MAPPER.readTree(ClusterJson.write(this.module));
		node.put(SESSION, this.containerSession);
		return MAPPER.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
	}

	/** Reads an allocation node's content; {@code containerSession} is 0 when the node has none. */
	public static Allocation of(byte[] data) {
		ModuleDeployment module = ClusterJson.read(data, ModuleDeployment.class);
		JsonNode session = MAPPER.readTree(data).get(SESSION);
		return new Allocation(module, (session == null || !session.isIntegralNumber()) ? 0 : session.asLong());
	}

	/** A session id as ZooKeeper's logs print it. */
	public static String sessionText(long session) {
		return "0x" + Long.toHexString(session);
	}
}
