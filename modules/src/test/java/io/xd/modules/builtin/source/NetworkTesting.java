package io.xd.modules.builtin.source;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleProvider;

import static org.awaitility.Awaitility.await;

/** Test helpers: create a network source the way the runtime does, and collect what it sends. */
final class NetworkTesting {

	private NetworkTesting() {
	}

	@SuppressWarnings("unchecked")
	static <M extends Module> M create(ModuleProvider provider, Map<String, String> options) {
		ModuleContext context = new ModuleContext("teststream", provider.metadata().name(), 0,
				provider.metadata().resolve(options));
		return (M) provider.create(context);
	}

	/** A port nobody listens on right now. */
	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/** A channel that keeps what it is sent, from any thread. */
	static final class Collecting implements MessageChannel {

		final List<Message<?>> messages = Collections.synchronizedList(new ArrayList<>());

		@Override
		public boolean send(Message<?> message, long timeout) {
			this.messages.add(message);
			return true;
		}

		List<Message<?>> awaitCount(int count) {
			await().atMost(10, TimeUnit.SECONDS).until(() -> this.messages.size() >= count);
			synchronized (this.messages) {
				return new ArrayList<>(this.messages);
			}
		}

		List<Object> awaitPayloads(int count) {
			return awaitCount(count).stream().map(message -> (Object) message.getPayload()).toList();
		}
	}
}
