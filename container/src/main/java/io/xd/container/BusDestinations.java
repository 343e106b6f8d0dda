package io.xd.container;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;

import io.xd.bus.BindingProperties;
import io.xd.bus.MessageBus;
import io.xd.bus.ProducerBinding;
import io.xd.bus.SendCounter;
import io.xd.core.ChannelNames;
import io.xd.modules.Destinations;

/**
 * The named destinations of one module ({@code queue:NAME}, {@code topic:NAME}), bound as producers on the module's
 * bus when first asked for, counted in the module's output meters, and unbound together when the module is undeployed.
 * A module may reach at most {@value #MAX_DESTINATIONS} destinations: a router whose expression yields a new name per
 * message must not bind without end.
 */
final class BusDestinations implements Destinations {

	/** How many destinations one module may bind. */
	static final int MAX_DESTINATIONS = 1000;

	private static final Logger logger = LoggerFactory.getLogger(BusDestinations.class);

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_$][A-Za-z0-9_$.-]{0,199}");

	private final MessageBus bus;

	private final String moduleId;

	private final SendCounter counter;

	private final Map<String, ProducerBinding> bound = new ConcurrentHashMap<>();

	private volatile boolean closed;

	BusDestinations(MessageBus bus, String moduleId, SendCounter counter) {
		this.bus = bus;
		this.moduleId = moduleId;
		this.counter = counter;
	}

	@Override
	public MessageChannel channel(String name) {
		ProducerBinding binding = this.bound.get(name);
		if (binding == null) {
			binding = bind(name);
		}
		return binding.channel();
	}

	private synchronized ProducerBinding bind(String name) {
		ProducerBinding binding = this.bound.get(name);
		if (binding != null) {
			return binding;
		}
		if (this.closed) {
			throw new IllegalStateException("Module " + this.moduleId + " is undeployed: it sends to no destination");
		}
		check(name);
		if (this.bound.size() >= MAX_DESTINATIONS) {
			throw new IllegalArgumentException("Module " + this.moduleId + " already sends to " + MAX_DESTINATIONS
					+ " destinations, the most one module may bind; '" + name + "' is refused");
		}
		binding = ChannelNames.isPublishSubscribe(name)
				? this.bus.bindPubSubProducer(name, null, BindingProperties.of(Map.of()), this.counter)
				: this.bus.bindProducer(name, null, BindingProperties.of(Map.of()), this.counter);
		this.bound.put(name, binding);
		logger.info("Module {} bound destination {}", this.moduleId, name);
		return binding;
	}

	/** Refuses what is not {@code queue:NAME} or {@code topic:NAME} with a plain name. */
	static void check(String name) {
		String bare = name.startsWith(ChannelNames.QUEUE_PREFIX) ? name.substring(ChannelNames.QUEUE_PREFIX.length())
				: name.startsWith(ChannelNames.TOPIC_PREFIX) ? name.substring(ChannelNames.TOPIC_PREFIX.length()) : null;
		if (bare == null) {
			throw new IllegalArgumentException("'" + name + "' is not a destination: a destination is queue:NAME or "
					+ "topic:NAME");
		}
		if (!NAME.matcher(bare).matches()) {
			throw new IllegalArgumentException("'" + name + "' is not a destination: its name is 1 to 200 ASCII "
					+ "letters, digits, '_', '$', '.' or '-', not starting with '.' or '-'");
		}
	}

	/** Unbinds every destination; later asks fail. */
	synchronized void close() {
		this.closed = true;
		List<ProducerBinding> all = new ArrayList<>(this.bound.values());
		this.bound.clear();
		for (ProducerBinding binding : all) {
			try {
				binding.unbind();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not unbind {} of module {}", binding.name(), this.moduleId, ex);
			}
		}
	}
}
