package io.xd.modules.builtin;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code time} source: sends the current local time as a {@code String}, formatted with {@code format}, every
 * {@code fixedDelay} seconds, starting at once. A failed send is logged and the next tick comes as usual.
 */
public final class TimeSource implements Source {

	static final ModuleOption<Integer> FIXED_DELAY = ModuleOption.ofInt("fixedDelay")
		.withDefault(1)
		.withMin(1)
		.withDescription("the seconds between two messages");

	static final ModuleOption<String> FORMAT = ModuleOption.ofString("format")
		.withDefault("yyyy-MM-dd HH:mm:ss")
		.withRule(TimeSource::isValidPattern, "be a java.time.format.DateTimeFormatter pattern")
		.withDescription("the date-time pattern of the payload");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "time",
			"Sends the current time as text at a fixed interval", List.of(FIXED_DELAY, FORMAT));

	private static final Logger logger = LoggerFactory.getLogger(TimeSource.class);

	private final ModuleContext context;

	private final DateTimeFormatter formatter;

	private final int delaySeconds;

	private ScheduledExecutorService scheduler;

	public TimeSource(ModuleContext context) {
		this.context = context;
		this.formatter = DateTimeFormatter.ofPattern(context.options().get(FORMAT));
		this.delaySeconds = context.options().get(FIXED_DELAY);
	}

	@Override
	public void start(MessageChannel output) {
		this.scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, this.context.threadName("timer"));
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.scheduleWithFixedDelay(() -> send(output), 0, this.delaySeconds, TimeUnit.SECONDS);
	}

	private void send(MessageChannel output) {
		try {
			output.send(ModuleMessages.of(this.formatter.format(LocalDateTime.now())));
		}
		catch (RuntimeException ex) {
			logger.error("Stream '{}': could not send the time", this.context.streamName(), ex);
		}
	}

	@Override
	public void stop() {
		if (this.scheduler != null) {
			this.scheduler.shutdownNow();
			try {
				this.scheduler.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static boolean isValidPattern(String pattern) {
		try {
			DateTimeFormatter.ofPattern(pattern).format(LocalDateTime.now());
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/** Declares and creates the {@code time} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, TimeSource::new);
		}
	}
}
