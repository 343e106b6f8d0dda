package io.xd.bus;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import io.xd.bus.kafka.KafkaMessageBus;
import io.xd.bus.local.LocalMessageBus;
import io.xd.core.BindingKeys;

/** The transports a stream's channels may use, as users name them in {@code xd.transport}. */
public enum Transport {

	/** In one JVM: direct binding between neighbouring modules, in-memory queues for named channels. */
	LOCAL(LocalMessageBus.BINDING_KEYS),

	/** A topic per channel on an Apache Kafka cluster, so modules may run in different processes. */
	KAFKA(KafkaMessageBus.BINDING_KEYS);

	private final BindingKeys bindingKeys;

	Transport(BindingKeys bindingKeys) {
		this.bindingKeys = bindingKeys;
	}

	/** The name users configure, such as {@code kafka}. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** The binding properties this transport's bus accepts. */
	public BindingKeys bindingKeys() {
		return this.bindingKeys;
	}

	/**
	 * The transport named {@code name} ({@code local} or {@code kafka}, in any case).
	 * @throws IllegalArgumentException naming the transports there are
	 */
	public static Transport of(String name) {
		for (Transport transport : values()) {
			if (transport.id().equalsIgnoreCase(name.trim())) {
				return transport;
			}
		}
		throw new IllegalArgumentException("xd.transport must be " + Arrays.stream(values())
			.map(transport -> "'" + transport.id() + "'")
			.collect(Collectors.joining(" or ")) + ", but was '" + name + "'");
	}
}
