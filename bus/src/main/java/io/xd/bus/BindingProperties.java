package io.xd.bus;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Settings for one binding, such as {@code concurrency} or {@code partitionKeyExpression}, given as the suffix of
 * the deployment property {@code module.<label>.producer.<key>} or {@code module.<label>.consumer.<key>}. Each bus
 * accepts the keys it understands and rejects every other key with {@link #requireOnly}.
 */
public final class BindingProperties {

	/** No properties. */
	public static final BindingProperties NONE = new BindingProperties(Map.of(), 1);

	private final Map<String, String> values;

	private final int instanceCount;

	private BindingProperties(Map<String, String> values, int instanceCount) {
		this.values = Collections.unmodifiableMap(new TreeMap<>(values));
		this.instanceCount = instanceCount;
	}

	public static BindingProperties of(Map<String, String> values) {
		return values.isEmpty() ? NONE : new BindingProperties(values, 1);
	}

	/**
	 * The same properties, with a hint from the runtime rather than the user: how many instances of the module bind
	 * this way. A bus that spreads partitions over consumers (Kafka) gives the channel at least that many times
	 * the consumer's concurrency; others ignore it.
	 */
	public BindingProperties withInstanceCount(int instances) {
		return new BindingProperties(this.values, Math.max(1, instances));
	}

	/** How many instances of the module bind this way, 1 unless the runtime said otherwise. */
	public int instanceCount() {
		return this.instanceCount;
	}

	public String get(String key, String defaultValue) {
		return this.values.getOrDefault(key, defaultValue);
	}

	public Map<String, String> asMap() {
		return this.values;
	}

	public boolean isEmpty() {
		return this.values.isEmpty();
	}

	/**
	 * Rejects every key not in {@code supported}.
	 * @param bus the bus's name for the message, such as {@code LocalMessageBus}
	 * @param side {@code producer} or {@code consumer}
	 * @throws IllegalArgumentException in Spring XD's words: "{@code <bus> does not support consumer properties:
	 * a, b}"
	 */
	public void requireOnly(Set<String> supported, String bus, String side) {
		Set<String> unsupported = new TreeSet<>(this.values.keySet());
		unsupported.removeAll(supported);
		if (!unsupported.isEmpty()) {
			throw new IllegalArgumentException(bus + " does not support " + side + " propert"
					+ (unsupported.size() == 1 ? "y" : "ies") + ": " + String.join(", ", unsupported));
		}
	}

	@Override
	public String toString() {
		return this.values.toString();
	}
}
