package io.xd.core.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The deployment properties of one module of a stream, resolved by the admin from the user's
 * {@code module.<label>.<key>=<value>} pairs (the module's own keys over the {@code module.*.} ones) and read by the
 * container that runs an instance. Stored in ZooKeeper, and shown by the REST API, as the flat map of
 * {@link #asMap()}: {@code count}, {@code criteria}, {@code producer.<key>}, {@code consumer.<key>}.
 *
 * @param count how many instances: 1 by default; 0 means one on every matching container
 * @param criteria an expression over container attributes that a container must match to get an instance, or
 *     {@code null} for any container
 * @param producer binding properties of the module's output, without the {@code producer.} prefix
 * @param consumer binding properties of the module's input, without the {@code consumer.} prefix
 */
public record ModuleDeploymentProperties(int count, String criteria, Map<String, String> producer,
		Map<String, String> consumer) {

	/** The key of {@link #count()}. */
	public static final String COUNT = "count";

	/** The key of {@link #criteria()}. */
	public static final String CRITERIA = "criteria";

	/** What the keys of {@link #producer()} start with. */
	public static final String PRODUCER_PREFIX = "producer.";

	/** What the keys of {@link #consumer()} start with. */
	public static final String CONSUMER_PREFIX = "consumer.";

	/**
	 * The binding key, on both ends of a pipe, of the admin's decision to bind it directly (Spring XD's name): the
	 * admin sets it to {@code true}; a user may only set {@code producer.directBindingAllowed=false}, to keep a hop
	 * on the transport.
	 */
	public static final String DIRECT_BINDING_ALLOWED = "directBindingAllowed";

	/** The instance count of a module whose properties give none. */
	public static final int DEFAULT_COUNT = 1;

	/** The properties of a module the user gave none for. */
	public static final ModuleDeploymentProperties DEFAULTS = new ModuleDeploymentProperties(DEFAULT_COUNT, null,
			Map.of(), Map.of());

	public ModuleDeploymentProperties {
		if (count < 0) {
			throw new IllegalArgumentException("count must be 0 or more, but was " + count);
		}
		producer = (producer == null) ? Map.of() : Map.copyOf(producer);
		consumer = (consumer == null) ? Map.of() : Map.copyOf(consumer);
	}

	/**
	 * Resolves the keys of one module, without their {@code module.<label>.} prefix. Keys other than the four kinds
	 * above are ignored: the admin refuses them before anything is stored.
	 * @throws IllegalArgumentException when {@code count} is not an integer of 0 or more
	 */
	@JsonCreator
	public static ModuleDeploymentProperties of(Map<String, String> keys) {
		if (keys == null || keys.isEmpty()) {
			return DEFAULTS;
		}
		String count = keys.get(COUNT);
		int instances;
		try {
			instances = (count == null) ? DEFAULT_COUNT : Integer.parseInt(count.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("count must be an integer, but was '" + count + "'", ex);
		}
		return new ModuleDeploymentProperties(instances, keys.get(CRITERIA), withoutPrefix(keys, PRODUCER_PREFIX),
				withoutPrefix(keys, CONSUMER_PREFIX));
	}

	/** The properties as keys and values: {@code count} always, {@code criteria} when set, then binding keys. */
	@JsonValue
	public Map<String, String> asMap() {
		Map<String, String> keys = new LinkedHashMap<>();
		keys.put(COUNT, Integer.toString(this.count));
		if (this.criteria != null) {
			keys.put(CRITERIA, this.criteria);
		}
		this.producer.forEach((key, value) -> keys.put(PRODUCER_PREFIX + key, value));
		this.consumer.forEach((key, value) -> keys.put(CONSUMER_PREFIX + key, value));
		return keys;
	}

	private static Map<String, String> withoutPrefix(Map<String, String> keys, String prefix) {
		Map<String, String> selected = new LinkedHashMap<>();
		keys.forEach((key, value) -> {
			if (key.startsWith(prefix)) {
				selected.put(key.substring(prefix.length()), value);
			}
		});
		return selected;
	}
}
