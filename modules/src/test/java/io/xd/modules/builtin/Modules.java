package io.xd.modules.builtin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleProvider;

import static org.awaitility.Awaitility.await;

/** Test helpers: create a built-in module the way the runtime does, and capture what modules send and log. */
public final class Modules {

	private Modules() {
	}

	@SuppressWarnings("unchecked")
	public static <M extends Module> M create(ModuleProvider provider, Map<String, String> options) {
		ModuleContext context = new ModuleContext("teststream", provider.metadata().name(), 0,
				provider.metadata().resolve(options));
		return (M) provider.create(context);
	}

	/** A channel that keeps what it is sent, from any thread. */
	public static final class Collecting implements MessageChannel {

		public final List<Message<?>> messages = Collections.synchronizedList(new ArrayList<>());

		@Override
		public boolean send(Message<?> message, long timeout) {
			this.messages.add(message);
			return true;
		}

		/** Waits up to 10 s until {@code count} messages have arrived; returns a copy of what has. */
		public List<Message<?>> awaitCount(int count) {
			await().atMost(10, TimeUnit.SECONDS).until(() -> this.messages.size() >= count);
			synchronized (this.messages) {
				return new ArrayList<>(this.messages);
			}
		}

		/** The payloads of {@link #awaitCount}. */
		public List<Object> awaitPayloads(int count) {
			return awaitCount(count).stream().map(message -> (Object) message.getPayload()).toList();
		}
	}

	/** Captures the events of one logger until closed. */
	static final class CapturedLog implements AutoCloseable {

		private final Logger logger;

		private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

		CapturedLog(String name) {
			this.logger = (Logger) LoggerFactory.getLogger(name);
			this.logger.setLevel(ch.qos.logback.classic.Level.TRACE);
			this.appender.start();
			this.logger.addAppender(this.appender);
		}

		List<String> lines() {
			// AppenderBase.doAppend holds the appender's lock while it adds to the list
			synchronized (this.appender) {
				return this.appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
			}
		}

		List<ILoggingEvent> events() {
			// AppenderBase.doAppend holds the appender's lock while it adds to the list
			synchronized (this.appender) {
				return new ArrayList<>(this.appender.list);
			}
		}

		@Override
		public void close() {
			this.logger.detachAppender(this.appender);
			this.logger.setLevel(null);
		}
	}
}
