package io.xd.bus;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import io.xd.core.BindingKeys;
import io.xd.core.cluster.ModuleDeploymentProperties;

/**
 * Settings for one binding, such as {@code concurrency} or {@code partitionKeyExpression}, given as the suffix of
 * the deployment property {@code module.<label>.producer.<key>} or {@code module.<label>.consumer.<key>}. Each bus
 * declares the keys it understands ({@link io.xd.bus.MessageBus#bindingKeys()}) and rejects every other key with
 * {@link #requireSupported}.
 * <p>
 * One key is no bus's: {@value #DIRECT_BINDING_ALLOWED}, which the admin sets to {@code true} on both ends of a pipe
 * whose modules it places together in every container (Spring XD's rule: both {@code count=0}, the same criteria,
 * the producer not partitioning, and no {@code producer.directBindingAllowed=false} from the user). It is taken out
 * of the values and read with {@link #directBinding()}: a bus that crosses processes (Kafka) then binds that pipe
 * directly in the JVM; the local bus always does.
 */
public final class BindingProperties {

	/** The key of the admin's direct-binding decision, on both ends of a pipe. */
	public static final String DIRECT_BINDING_ALLOWED = ModuleDeploymentProperties.DIRECT_BINDING_ALLOWED;

	/** No properties. */
	public static final BindingProperties NONE = new BindingProperties(Map.of(), 1, false);

	private final Map<String, String> values;

	private final int instanceCount;

	private final boolean directBinding;

	private BindingProperties(Map<String, String> values, int instanceCount, boolean directBinding) {
		this.values = Collections.unmodifiableMap(new TreeMap<>(values));
		this.instanceCount = instanceCount;
		this.directBinding = directBinding;
	}

	public static BindingProperties of(Map<String, String> values) {
		if (values.isEmpty()) {
			return NONE;
		}
		if (!values.containsKey(DIRECT_BINDING_ALLOWED)) {
			return new BindingProperties(values, 1, false);
		}
		Map<String, String> rest = new HashMap<>(values);
		boolean direct = Boolean.parseBoolean(rest.remove(DIRECT_BINDING_ALLOWED));
		return new BindingProperties(rest, 1, direct);
	}

	/**
	 * Whether the admin placed this pipe's producer and consumer together in every container, so that the bus may
	 * bind them directly (see the class comment).
	 */
	public boolean directBinding() {
		return this.directBinding;
	}

	/** The same properties without the direct-binding decision: for what a directly bound pipe still sends (a tap). */
	public BindingProperties withoutDirectBinding() {
		return this.directBinding ? new BindingProperties(this.values, this.instanceCount, false) : this;
	}

	/**
	 * The same properties, with a hint from the runtime rather than the user: how many instances of the module bind
	 * this way. A bus that spreads partitions over consumers (Kafka) gives the channel at least that many times
	 * the consumer's concurrency; others ignore it.
	 */
	public BindingProperties withInstanceCount(int instances) {
		return new BindingProperties(this.values, Math.max(1, instances), this.directBinding);
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
