package io.xd.modules.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;

import io.xd.modules.HostAccess;
import io.xd.modules.Module;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleProvider;
import io.xd.modules.ModuleServices;
import io.xd.modules.Processor;
import io.xd.modules.Sink;
import io.xd.modules.Source;

/**
 * Runs one module in the test's own thread, without a server, a bus or a broker: creates it through its provider with
 * options resolved exactly as the runtime resolves them ({@code metadata().resolve}), starts it, feeds it messages
 * and collects what it sends, the way Kafka Streams' {@code TopologyTestDriver} runs a topology.
 *
 * <pre>{@code
 * try (ModuleTestDriver driver = ModuleTestDriver.of(new TransformProcessor.Provider(),
 *         Map.of("expression", "payload.toUpperCase()"))) {
 *     driver.send("hello");
 *     assertThat(driver.receivedPayloads()).containsExactly("HELLO");
 * }
 * }</pre>
 *
 * A processor sends to a collecting output; a source is started with the same output (use
 * {@link #awaitReceived(int, Duration)} for sources that send from threads of their own); a sink receives what
 * {@link #send} gives it and sends nothing. Messages are delivered synchronously on the calling thread, as a direct
 * binding delivers them, and an exception the module throws reaches the caller of {@code send} unchanged. The module
 * runs in the stream {@value #STREAM_NAME}, labelled with its name, at index 0. Collected messages may be read from
 * any thread; {@link #close()} stops the module.
 */
public final class ModuleTestDriver implements AutoCloseable {

	/** The stream name the module sees in its {@link ModuleContext}. */
	public static final String STREAM_NAME = "teststream";

	private final Module module;

	private final List<Message<?>> received = new ArrayList<>();

	private final AtomicReference<Throwable> failure;

	private boolean closed;

	private ModuleTestDriver(Module module, AtomicReference<Throwable> failure) {
		this.module = module;
		this.failure = failure;
	}

	/** Creates and starts a module with no options given (every option takes its default). */
	public static ModuleTestDriver of(ModuleProvider provider) {
		return of(provider, Map.of());
	}

	/**
	 * Creates and starts a module with {@code options} (option name to text, as written in a stream definition).
	 * A source's {@code start} runs here, on the calling thread: a source that sends everything before returning has
	 * sent it when this returns.
	 * @throws ModuleOptionException when the options are not acceptable, with the message {@code stream create} gives
	 */
	public static ModuleTestDriver of(ModuleProvider provider, Map<String, String> options) {
		Path dataDirectory;
		try {
			dataDirectory = Files.createTempDirectory("xd-module-test");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create a data directory for the module", ex);
		}
		return of(provider, options, dataDirectory);
	}

	/**
	 * As {@link #of(ModuleProvider, Map)}, with the data directory the module sees in its {@link ModuleContext}
	 * ({@code of} without it gives a new temporary directory) and the default host access of that directory: file
	 * options may name paths under its {@code files} folder only.
	 */
	public static ModuleTestDriver of(ModuleProvider provider, Map<String, String> options, Path dataDirectory) {
		return of(provider, options, dataDirectory, HostAccess.defaults(dataDirectory));
	}

	/**
	 * As {@link #of(ModuleProvider, Map, Path)}, with what the operator lets the module reach. The options are
	 * checked with {@link ModuleProvider#checkAccess} first, as the admin and the container check them.
	 * @throws ModuleOptionException when the options are not acceptable or reach what {@code access} does not allow
	 */
	public static ModuleTestDriver of(ModuleProvider provider, Map<String, String> options, Path dataDirectory,
			HostAccess access) {
		return of(provider, options, dataDirectory, access, ModuleServices.NONE);
	}

	/**
	 * As {@link #of(ModuleProvider, Map, Path, HostAccess)}, with services a container would offer the module (an
	 * analytics store, {@link io.xd.modules.Destinations}).
	 */
	public static ModuleTestDriver of(ModuleProvider provider, Map<String, String> options, Path dataDirectory,
			HostAccess access, ModuleServices services) {
		Objects.requireNonNull(provider, "provider");
		AtomicReference<Throwable> failure = new AtomicReference<>();
		ModuleOptions resolved = provider.metadata().resolve(options);
		access.check(provider, resolved);
		ModuleContext context = new ModuleContext(STREAM_NAME, provider.metadata().name(), 0, resolved, dataDirectory,
				cause -> failure.compareAndSet(null, cause), access, services);
		ModuleTestDriver driver = new ModuleTestDriver(provider.create(context), failure);
		driver.start();
		return driver;
	}

	private void start() {
		MessageChannel output = (message, timeout) -> {
			synchronized (this.received) {
				this.received.add(message);
				this.received.notifyAll();
			}
			return true;
		};
		if (this.module instanceof Processor processor) {
			processor.start(output);
		}
		else if (this.module instanceof Sink sink) {
			sink.start();
		}
		else if (this.module instanceof Source source) {
			source.start(output);
		}
		else {
			throw new IllegalArgumentException("Not a source, processor or sink: " + this.module.getClass().getName());
		}
	}

	/** The module instance, for assertions on its own state (cast to its class). */
	@SuppressWarnings("unchecked")
	public <M extends Module> M module() {
		return (M) this.module;
	}

	/**
	 * Delivers a message to the module's {@code handleMessage} on this thread. A {@link Message} is delivered as it is;
	 * anything else becomes the payload of a message without headers ({@link ModuleMessages#of}).
	 * @return this driver, to chain sends
	 * @throws IllegalStateException when the module is a source (it has no input) or the driver is closed
	 * @throws RuntimeException whatever the module throws, unchanged
	 */
	public ModuleTestDriver send(Object payloadOrMessage) {
		Objects.requireNonNull(payloadOrMessage, "payloadOrMessage");
		if (!(this.module instanceof MessageHandler handler)) {
			throw new IllegalStateException("A source has no input: use awaitReceived to collect what it sends");
		}
		if (this.closed) {
			throw new IllegalStateException("The driver is closed");
		}
		Message<?> message = (payloadOrMessage instanceof Message<?> given) ? given
				: ModuleMessages.of(payloadOrMessage);
		handler.handleMessage(message);
		return this;
	}

	/** Delivers each payload (or message) in turn, as {@link #send} does. */
	public ModuleTestDriver sendAll(Iterable<?> payloadsOrMessages) {
		payloadsOrMessages.forEach(this::send);
		return this;
	}

	/** A copy of the messages the module has sent so far, in the order it sent them. */
	public List<Message<?>> received() {
		synchronized (this.received) {
			return List.copyOf(this.received);
		}
	}

	/** The payloads of {@link #received()}. */
	public List<Object> receivedPayloads() {
		return received().stream().<Object>map(Message::getPayload).toList();
	}

	/**
	 * What the module reported when it could no longer work ({@link ModuleContext#fail(Throwable)}, or the death of
	 * a thread it made with {@link ModuleContext#newThread}): in a container it would now be {@code failed}.
	 * @return the first failure reported, if any
	 */
	public Optional<Throwable> failure() {
		return Optional.ofNullable(this.failure.get());
	}

	/**
	 * Waits until the module has sent at least {@code count} messages, for modules that send from threads of their
	 * own (sources, an aggregator's timeout).
	 * @return the messages sent so far (at least {@code count})
	 * @throws AssertionError when fewer than {@code count} arrived within {@code timeout}, saying how many did
	 */
	public List<Message<?>> awaitReceived(int count, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this.received) {
			while (this.received.size() < count) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new AssertionError("Expected " + count + " messages within " + timeout + " but received "
							+ this.received.size());
				}
				try {
					this.received.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new AssertionError("Interrupted while waiting for messages", ex);
				}
			}
			return List.copyOf(this.received);
		}
	}

	/** Forgets the messages received so far. */
	public void clear() {
		synchronized (this.received) {
			this.received.clear();
		}
	}

	/** Stops the module (once; later calls do nothing). What it sends while stopping is still collected. */
	@Override
	public void close() {
		if (!this.closed) {
			this.closed = true;
			this.module.stop();
		}
	}
}
