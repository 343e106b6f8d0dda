package io.xd.bus;

/**
 * One end of a channel bound to a {@link MessageBus}. Unbinding is idempotent and returns once no further message
 * will be delivered to (for a consumer) or accepted from (for a producer) this binding; a message being handled
 * at that moment may still complete.
 */
public interface Binding {

	/** The bus channel name, such as {@code ticktock.0} or {@code queue:orders}. */
	String name();

	/** Releases the binding; safe to call more than once. */
	void unbind();
}
