package io.xd.admin.stream;

import java.util.List;
import java.util.Map;

/**
 * What one version deployed.
 *
 * @param stream the stream name
 * @param version the version
 * @param definition the stream definition
 * @param properties the deployment properties
 * @param modules each module with its resolved options and deployment properties
 */
public record Manifest(String stream, int version, String definition, Map<String, String> properties,
		List<Module> modules) {

	/**
	 * @param label the module's label
	 * @param name the module name
	 * @param type source, processor or sink
	 * @param options its options, overrides applied
	 * @param deploymentProperties count, criteria and binding properties
	 */
	public record Module(String label, String name, String type, Map<String, String> options,
			Map<String, String> deploymentProperties) {
	}
}
