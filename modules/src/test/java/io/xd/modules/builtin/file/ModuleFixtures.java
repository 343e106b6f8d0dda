package io.xd.modules.builtin.file;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.HostAccess;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleProvider;

/** Test helpers for the storage and connector modules: create a module as the runtime does, collect what it sends. */
public final class ModuleFixtures {

	private ModuleFixtures() {
	}

	/** Creates a module of stream {@code teststream} from options given as text. */
	public static <M extends Module> M create(ModuleProvider provider, Map<String, String> options) {
		return create(provider, options, ModuleContext.defaultDataDirectory());
	}

	/** Creates a module of stream {@code teststream} from options given as text, in this data directory. */
	@SuppressWarnings("unchecked")
	public static <M extends Module> M create(ModuleProvider provider, Map<String, String> options,
			Path dataDirectory) {
		ModuleContext context = new ModuleContext("teststream", provider.metadata().name(), 0,
				provider.metadata().resolve(options), dataDirectory);
		return (M) provider.create(context);
	}

	/**
	 * Creates a module of stream {@code teststream} as a container does with this host access: its options are checked
	 * against it first ({@link ModuleProvider#checkAccess}), and the module gets it in its context.
	 */
	@SuppressWarnings("unchecked")
	public static <M extends Module> M create(ModuleProvider provider, Map<String, String> options,
			HostAccess access) {
		ModuleOptions resolved = provider.metadata().resolve(options);
		access.check(provider, resolved);
		Path dataDirectory = ModuleContext.defaultDataDirectory();
		ModuleContext context = new ModuleContext("teststream", provider.metadata().name(), 0, resolved,
				dataDirectory, cause -> { }, access);
		return (M) provider.create(context);
	}

	/** Host access whose one file root is {@code root}. */
	public static HostAccess rootedAt(Path root) {
		return new HostAccess(List.of(root), ModuleContext.defaultDataDirectory());
	}

	/** A channel that keeps what it is sent, from any thread. */
	public static final class Collecting implements MessageChannel {

		public final List<Message<?>> messages = Collections.synchronizedList(new ArrayList<>());

		@Override
		public boolean send(Message<?> message, long timeout) {
			this.messages.add(message);
			return true;
		}

		/** The payloads received so far, in order. */
		public List<Object> payloads() {
			synchronized (this.messages) {
				return this.messages.stream().map(Message::getPayload).map(Object.class::cast).toList();
			}
		}
	}
}
