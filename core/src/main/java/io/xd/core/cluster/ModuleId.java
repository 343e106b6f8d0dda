package io.xd.core.cluster;

/**
 * The id of a module instance in the cluster, {@code <stream>.<type>.<label>.<sequence>} (such as
 * {@code ticktock.sink.log.1}): unique within the cluster, the name of its ZooKeeper nodes under
 * {@link ClusterPaths#ALLOCATIONS} and {@link ClusterPaths#RUNTIME}, and what the REST API and the shell show. Stream
 * names and labels contain no {@code .}, so the id reads back unambiguously.
 */
public final class ModuleId {

	private static final char SEPARATOR = '.';

	private ModuleId() {
	}

	/**
	 * The id of instance {@code sequence} of a module.
	 * @param type the module type's label: {@code source}, {@code processor} or {@code sink}
	 */
	public static String of(String stream, String type, String label, int sequence) {
		return instancePrefix(stream, type, label) + sequence;
	}

	/**
	 * What the ids of every instance of one module start with, {@code <stream>.<type>.<label>.}; the trailing dot
	 * keeps label {@code log} from matching the instances of {@code log2}.
	 */
	public static String instancePrefix(String stream, String type, String label) {
		return stream + SEPARATOR + type + SEPARATOR + label + SEPARATOR;
	}
}
