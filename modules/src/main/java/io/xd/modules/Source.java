package io.xd.modules;

import org.springframework.messaging.MessageChannel;

/**
 * A module that produces messages and has no input.
 */
public interface Source extends Module {

	/**
	 * Starts producing to {@code output}. May return at once and produce from threads of its own, or return when it
	 * has nothing more to send. {@code output.send} runs the downstream modules on the calling thread when they are
	 * directly bound, and throws what they throw; a source decides whether such a failure ends it.
	 */
	void start(MessageChannel output);
}
