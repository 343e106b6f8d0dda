package io.xd.bus;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import io.xd.core.BindingKeys;

/**
 * Settings for one binding, such as {@code concurrency} or {@code partitionKeyExpression}, given as the suffix of
 * the deployment property {@code module.<label>.producer.<key>} or {@code module.<label>.consumer.<key>}. Each bus
 * declares the keys it understands ({@link io.xd.bus.MessageBus#bindingKeys()}) and rejects every other key with
 * {@link #requireSupported}.
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
	 * Rejects every key the bus does not declare for that side.
	 * @param bus the bus's name for the message, such as {@code LocalMessageBus}
	 * @throws IllegalArgumentException as {@link BindingKeys#requireSupported} words it
	 */
	public void requireSupported(BindingKeys keys, String bus, BindingKeys.Side side) {
		keys.requireSupported(bus, side, this.values.keySet());
	}

	@Override
	public String toString() {
		return this.values.toString();
	}
}
