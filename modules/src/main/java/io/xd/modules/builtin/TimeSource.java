package io.xd.modules.builtin;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageChannel;
import org.springframework.scheduling.support.CronExpression;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMessages;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;

/**
 * The {@code time} source: sends the current local time as a {@code String}, formatted with {@code format}, every
 * {@code fixedDelay} {@code timeUnit}s after an {@code initialDelay}, or at the times a {@code cron} expression
 * names (then {@code fixedDelay}, {@code initialDelay} and {@code timeUnit} are ignored, as in Spring XD). A failed
 * send is logged and the next tick comes as usual.
 */
public final class TimeSource implements Source {

	static final ModuleOption<Integer> FIXED_DELAY = ModuleOption.ofInt("fixedDelay")
		.withDefault(1)
		.withMin(1)
		.withDescription("the time between two messages, in timeUnit");

	static final ModuleOption<Integer> INITIAL_DELAY = ModuleOption.ofInt("initialDelay")
		.withDefault(0)
		.withMin(0)
		.withDescription("the time before the first message, in timeUnit");

	static final ModuleOption<String> TIME_UNIT = ModuleOption
		.ofChoice("timeUnit", "NANOSECONDS", "MICROSECONDS", "MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS")
		.withDefault("SECONDS")
		.withDescription("the unit of fixedDelay and initialDelay");

	static final ModuleOption<String> CRON = ModuleOption.ofString("cron")
		.withRule(CronExpression::isValidExpression, "be a cron expression of six fields, such as 0 */5 * * * *")
		.withDescription("a cron expression (second minute hour day month weekday) for when to send; "
				+ "replaces fixedDelay when given");

	static final ModuleOption<String> FORMAT = ModuleOption.ofString("format")
		.withDefault("yyyy-MM-dd HH:mm:ss")
		.withRule(TimeSource::isValidPattern, "be a java.time.format.DateTimeFormatter pattern")
		.withDescription("the date-time pattern of the payload");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "time",
			"Sends the current time as text at a fixed interval", List.of(FIXED_DELAY, FORMAT, INITIAL_DELAY, TIME_UNIT, CRON));

	private static final Logger logger = LoggerFactory.getLogger(TimeSource.class);

	private final ModuleContext context;

	private final DateTimeFormatter formatter;

	private final long delay;

	private final long initialDelay;

	private final TimeUnit unit;

	private final CronExpression cron;

	private ScheduledExecutorService scheduler;

	/** Sends that failed so far: the first is logged with its stack trace, the others at DEBUG. */
	private long failedSends;

	public TimeSource(ModuleContext context) {
		this.context = context;
		this.formatter = DateTimeFormatter.ofPattern(context.options().get(FORMAT));
		this.delay = context.options().get(FIXED_DELAY);
		this.initialDelay = context.options().get(INITIAL_DELAY);
		this.unit = TimeUnit.valueOf(context.options().get(TIME_UNIT));
		String expression = context.options().get(CRON);
		this.cron = (expression == null) ? null : CronExpression.parse(expression);
	}

	@Override
	public void start(MessageChannel output) {
		this.scheduler = ModuleSupport.scheduler(this.context, "timer");
		if (this.cron == null) {
			this.scheduler.scheduleWithFixedDelay(() -> send(output), this.initialDelay, this.delay, this.unit);
		}
		else {
			scheduleNextCron(output);
		}
	}

	private void scheduleNextCron(MessageChannel output) {
		ZonedDateTime now = ZonedDateTime.now();
		ZonedDateTime next = this.cron.next(now);
		if (next == null || this.scheduler.isShutdown()) {
			return;
		}
		long wait = Math.max(0, Duration.between(now, next).toNanos());
		this.scheduler.schedule(() -> {
			send(output);
			scheduleNextCron(output);
		}, wait, TimeUnit.NANOSECONDS);
	}

	private void send(MessageChannel output) {
		try {
			output.send(ModuleMessages.of(this.formatter.format(LocalDateTime.now())));
		}
		catch (RuntimeException ex) {
			// the module that failed on it counts it, and the bus logs it: one stack trace here is enough
			if (this.failedSends++ == 0) {
				logger.error("Stream '{}': could not send the time; further failures are logged at DEBUG",
						this.context.streamName(), ex);
			}
			else {
				logger.debug("Stream '{}': could not send the time ({} failures)", this.context.streamName(),
						this.failedSends, ex);
			}
		}
	}

	@Override
	public void stop() {
		ModuleSupport.shutdown(this.scheduler);
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
