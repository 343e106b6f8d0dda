package io.xd.core.cluster;

import java.util.Map;

/**
 * The leader admin's instruction to a container: run one instance of one module of a stream, bound to these
 * channels. Everything the container needs is here, so it never parses the stream definition itself.
 *
 * @param stream the stream name
 * @param label the module's label in the stream
 * @param name the module name
 * @param type {@code source}, {@code processor} or {@code sink}
 * @param index the module's 0-based position in the stream
 * @param sequence the 1-based number of this instance among the module's instances
 * @param options the module options as the user wrote them (validated by the admin)
 * @param properties the module's deployment properties ({@code count}, {@code criteria}, ...), for display
 * @param input the channel the module consumes from, or {@code null} for a source
 * @param output the channel the module produces to, or {@code null} for a sink
 * @param tap the tap channel the module's output is also published on while tapped, or {@code null}
 * @param consumerProperties binding properties for the input ({@code module.<label>.consumer.*})
 * @param producerProperties binding properties for the output ({@code module.<label>.producer.*})
 */
public record ModuleDeployment(String stream, String label, String name, String type, int index, int sequence,
		Map<String, String> options, Map<String, String> properties, String input, String output, String tap,
		Map<String, String> consumerProperties, Map<String, String> producerProperties) {

	public ModuleDeployment {
		options = copy(options);
		properties = copy(properties);
		consumerProperties = copy(consumerProperties);
		producerProperties = copy(producerProperties);
	}

	/** {@code <stream>.<type>.<label>.<sequence>}, unique within the cluster and used as a ZooKeeper node name. */
	public String moduleId() {
		return moduleId(this.stream, this.type, this.label, this.sequence);
	}

	public static String moduleId(String stream, String type, String label, int sequence) {
		return stream + "." + type + "." + label + "." + sequence;
	}

	/** The same deployment as another instance. */
	public ModuleDeployment withSequence(int newSequence) {
		return new ModuleDeployment(this.stream, this.label, this.name, this.type, this.index, newSequence,
				this.options, this.properties, this.input, this.output, this.tap, this.consumerProperties,
				this.producerProperties);
	}

	private static Map<String, String> copy(Map<String, String> map) {
		return (map == null) ? Map.of() : Map.copyOf(map);
	}
}
