package io.xd.core.cluster;

import java.util.Map;

/**
 * The leader admin's instruction to a container: run one instance of one module of a stream, bound to these
 * channels. Everything the container needs is here, so it never parses the stream definition itself.
 *
 * @param stream the stream name
 * @param label the module's label in the stream
 * @param name the module name
 * @param type the module type's label ({@code ModuleType.label()} of the module SPI): {@code source},
 *     {@code processor} or {@code sink}
 * @param index the module's 0-based position in the stream
 * @param sequence the 1-based number of this instance among the module's instances
 * @param options the module options as the user wrote them (validated by the admin)
 * @param properties the module's deployment properties: instance count, criteria and binding properties
 * @param input the channel the module consumes from, or {@code null} for a source
 * @param output the channel the module produces to, or {@code null} for a sink
 * @param tap the tap channel the module's output is also published on while tapped, or {@code null}
 */
public record ModuleDeployment(String stream, String label, String name, String type, int index, int sequence,
		Map<String, String> options, ModuleDeploymentProperties properties, String input, String output, String tap) {

	public ModuleDeployment {
		options = (options == null) ? Map.of() : Map.copyOf(options);
		properties = (properties == null) ? ModuleDeploymentProperties.DEFAULTS : properties;
	}

	/** This instance's {@link ModuleId}, {@code <stream>.<type>.<label>.<sequence>}. */
	public String moduleId() {
		return ModuleId.of(this.stream, this.type, this.label, this.sequence);
	}

	/** Binding properties for the input ({@code module.<label>.consumer.*}), without the prefix. */
	public Map<String, String> consumerProperties() {
		return this.properties.consumer();
	}

	/** Binding properties for the output ({@code module.<label>.producer.*}), without the prefix. */
	public Map<String, String> producerProperties() {
		return this.properties.producer();
	}

	/** The same deployment as another instance. */
	public ModuleDeployment withSequence(int newSequence) {
		return new ModuleDeployment(this.stream, this.label, this.name, this.type, this.index, newSequence,
				this.options, this.properties, this.input, this.output, this.tap);
	}
}
