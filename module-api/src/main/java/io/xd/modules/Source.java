package io.xd.modules;

import org.springframework.messaging.MessageChannel;

/**
 * A module that produces messages and has no input: the first module of a stream that does not start from a named
 * channel. The runtime calls {@link #start} once, then {@link #stop()} once, possibly from another thread while
 * {@code start} or the source's own threads are still sending; {@code stop} must make them end, and nothing may be
 * sent after it returns.
 */
public interface Source extends Module {

	/**
	 * Starts producing to {@code output}. May return at once and produce from threads of its own, or return when it
	 * has nothing more to send. {@code output.send} runs the downstream modules on the calling thread when they are
	 * directly bound, and throws what they throw; a source decides whether such a failure ends it.
	 */
	void start(MessageChannel output);
}
