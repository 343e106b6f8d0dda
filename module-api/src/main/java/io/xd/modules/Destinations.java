package io.xd.modules;

import org.springframework.messaging.MessageChannel;

/**
 * Named channels a module sends to besides its output, as the {@code router} sink does: {@code queue:NAME} (point to
 * point) and {@code topic:NAME} (every subscriber gets a copy), on whichever bus the container uses. A container
 * offers one per module in its {@link ModuleServices}; it binds a destination on the bus when it is first asked for,
 * and unbinds every destination of the module when the module is undeployed.
 */
public interface Destinations {

	/**
	 * The channel that sends to a named destination, bound on first use.
	 * @param name {@code queue:NAME} or {@code topic:NAME}
	 * @throws IllegalArgumentException when the name is not one of a destination (the message says why)
	 */
	MessageChannel channel(String name);
}
