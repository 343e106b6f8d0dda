package io.xd.core;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which binding properties a message bus accepts: the keys of the deployment properties
 * {@code module.<label>.producer.<key>} and {@code module.<label>.consumer.<key>}. Each bus declares its own, and
 * the admin checks a deployment against the declaration of the configured transport before it is stored, so a
 * misspelt key is refused with a 400 rather than failing the module on its container.
 * @param transport the transport's name as users configure it ({@code local}, {@code kafka})
 * @param producer the keys a producer binding accepts
 * @param consumer the keys a consumer binding accepts
 * @param clientPropertyExample when not {@code null}, any dotted key (such as {@code linger.ms}) is also accepted
 * on both sides, as a property of the transport's client; the example is named in error messages
 * @param reservedClientProperties client properties no binding may set, because the operator configures them
 * (credentials, where the client connects) or they would make the client load classes or read files: an entry
 * ending in {@code .} reserves every property it begins ({@code sasl.}), one beginning with {@code .} every
 * property it ends ({@code .class}), any other entry the one property it names
 */
public record BindingKeys(String transport, Set<String> producer, Set<String> consumer,
		String clientPropertyExample, Set<String> reservedClientProperties) {

	/** The side of a binding. */
	public enum Side {

		/** The sending end, {@code module.<label>.producer.*}. */
		PRODUCER,

		/** The receiving end, {@code module.<label>.consumer.*}. */
		CONSUMER;

		/** The word used in property keys and messages: {@code producer} or {@code consumer}. */
		public String word() {
			return (this == PRODUCER) ? "producer" : "consumer";
		}
	}

	public BindingKeys {
		producer = Set.copyOf(producer);
		consumer = Set.copyOf(consumer);
		reservedClientProperties = Set.copyOf(reservedClientProperties);
	}

	/** A transport that accepts no binding property at all. */
	public static BindingKeys none(String transport) {
		return new BindingKeys(transport, Set.of(), Set.of(), null, Set.of());
	}

	/** Whether {@code key} is a client property that no binding may set ({@link #reservedClientProperties}). */
	public boolean isReserved(String key) {
		for (String entry : this.reservedClientProperties) {
			boolean matches = entry.endsWith(".") ? key.startsWith(entry)
					: entry.startsWith(".") ? key.endsWith(entry) : key.equals(entry);
			if (matches) {
				return true;
			}
		}
		return false;
	}

	/** Whether this transport accepts any binding property. */
	public boolean acceptsAny() {
		return !this.producer.isEmpty() || !this.consumer.isEmpty() || this.clientPropertyExample != null;
	}

	/** The keys on one side. */
	public Set<String> keys(Side side) {
		return (side == Side.PRODUCER) ? this.producer : this.consumer;
	}

	/** The given keys this transport does not accept on {@code side}, sorted. */
	public List<String> unsupported(Side side, Collection<String> keys) {
		Set<String> known = keys(side);
		return keys.stream()
			.filter(key -> !known.contains(key)
					&& !(this.clientPropertyExample != null && key.contains(".") && !isReserved(key)))
			.sorted()
			.toList();
	}

	/**
	 * Rejects what {@link #unsupported} finds.
	 * @param bus the bus named in the message, such as {@code KafkaMessageBus}
	 * @throws IllegalArgumentException in Spring XD's words: "{@code <bus> does not support consumer property: a}",
	 * followed by what is supported when anything is; for a reserved client property, that the operator sets it
	 */
	public void requireSupported(String bus, Side side, Collection<String> keys) {
		List<String> unknown = unsupported(side, keys);
		if (unknown.isEmpty()) {
			return;
		}
		List<String> reserved = unknown.stream().filter(this::isReserved).toList();
		if (!reserved.isEmpty()) {
			throw new IllegalArgumentException(bus + " does not let a stream set " + side.word() + " propert"
					+ ((reserved.size() == 1) ? "y" : "ies") + ": " + String.join(", ", reserved)
					+ " (where clients connect, their credentials and the classes they load are the operator's "
					+ "settings, in xd.messagebus." + this.transport + ".*)");
		}
		StringBuilder message = new StringBuilder(bus).append(" does not support ").append(side.word())
			.append(" propert").append((unknown.size() == 1) ? "y" : "ies").append(": ")
			.append(String.join(", ", unknown));
		if (!keys(side).isEmpty()) {
			message.append(" (supported: ").append(String.join(", ", keys(side).stream().sorted().toList()));
			if (this.clientPropertyExample != null) {
				message.append(", and any client property such as ").append(this.clientPropertyExample);
			}
			message.append(')');
		}
		throw new IllegalArgumentException(message.toString());
	}
}
