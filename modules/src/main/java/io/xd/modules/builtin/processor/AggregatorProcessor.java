package io.xd.modules.builtin.processor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.builtin.ModuleSupport;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code aggregator} processor, with Spring XD's {@code count}, {@code timeout} and {@code correlation}: collects
 * the payloads of messages with the same correlation value into a group and sends the group on as one message whose
 * payload is a {@link List} of those payloads, in arrival order, with the headers of the group's first message. A
 * group is released when it holds {@code count} payloads, when its first message is {@code timeout} milliseconds old
 * (checked from a thread of the module's own), and when the module stops.
 * <p>
 * Memory is bounded: a group never holds more than {@code count} payloads, and at most {@value #MAX_GROUPS} groups
 * are open at once; a message that would open one more releases the oldest group early. A group whose release fails
 * at stop is logged with the number of payloads lost.
 */
public final class AggregatorProcessor implements Processor {

	/** The most groups open at once. */
	public static final int MAX_GROUPS = 1000;

	static final ModuleOption<Integer> COUNT = ModuleOption.ofInt("count")
		.withDefault(50)
		.withMin(1)
		.withMax(100_000)
		.withDescription("the number of messages that completes a group");

	static final ModuleOption<Long> TIMEOUT = ModuleOption.ofLong("timeout")
		.withDefault(50000L)
		.withMin(0)
		.withDescription("milliseconds after a group's first message when the group is released even if not full; "
				+ "0 waits for count");

	static final ModuleOption<SafeExpression> CORRELATION = ModuleOption.ofExpression("correlation")
		.withDescription("a SpEL expression whose value groups messages; by default all messages form one group");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "aggregator",
			"Collects groups of messages into one message with a list of their payloads",
			List.of(COUNT, TIMEOUT, CORRELATION));

	private static final Logger logger = LoggerFactory.getLogger(AggregatorProcessor.class);

	private static final Object ONE_GROUP = new Object();

	private final ModuleContext context;

	private final int count;

	private final long timeoutNanos;

	private final SafeExpression correlation;

	private final Map<Object, Group> groups = new LinkedHashMap<>();

	private boolean stopped;

	private MessageChannel output;

	private ScheduledExecutorService timer;

	AggregatorProcessor(ModuleContext context) {
		this.context = context;
		this.count = context.options().get(COUNT);
		this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(context.options().get(TIMEOUT));
		this.correlation = context.options().get(CORRELATION);
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
		if (this.timeoutNanos > 0) {
			this.timer = ModuleSupport.scheduler(this.context, "aggregator");
			long period = Math.min(Math.max(TimeUnit.NANOSECONDS.toMillis(this.timeoutNanos) / 4, 1), 1000);
			this.timer.scheduleWithFixedDelay(this::releaseExpired, period, period, TimeUnit.MILLISECONDS);
		}
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object key = (this.correlation == null) ? ONE_GROUP : this.correlation.evaluate(message);
		Group evicted = null;
		Group full = null;
		synchronized (this.groups) {
			if (this.stopped) {
				throw new MessageHandlingException(message, "The aggregator has stopped");
			}
			Group group = this.groups.get(key);
			if (group == null) {
				if (this.groups.size() >= MAX_GROUPS) {
					Iterator<Group> oldest = this.groups.values().iterator();
					evicted = oldest.next();
					oldest.remove();
				}
				group = new Group(message.getHeaders(), System.nanoTime(), new ArrayList<>());
				this.groups.put(key, group);
			}
			group.payloads.add(message.getPayload());
			if (group.payloads.size() >= this.count) {
				this.groups.remove(key);
				full = group;
			}
		}
		if (evicted != null) {
			release(evicted);
		}
		if (full != null) {
			release(full);
		}
	}

	/** How many payloads the open groups hold. */
	public int held() {
		synchronized (this.groups) {
			return this.groups.values().stream().mapToInt(group -> group.payloads.size()).sum();
		}
	}

	private void releaseExpired() {
		List<Group> expired = new ArrayList<>();
		long now = System.nanoTime();
		synchronized (this.groups) {
			Iterator<Group> oldestFirst = this.groups.values().iterator();
			while (oldestFirst.hasNext()) {
				Group group = oldestFirst.next();
				if (now - group.startNanos < this.timeoutNanos) {
					break;
				}
				oldestFirst.remove();
				expired.add(group);
			}
		}
		for (Group group : expired) {
			try {
				release(group);
			}
			catch (RuntimeException ex) {
				logger.error("Stream '{}': aggregator '{}' could not release a group of {} messages after its timeout",
						this.context.streamName(), this.context.label(), group.payloads.size(), ex);
			}
		}
	}

	private void release(Group group) {
		this.output.send(new GenericMessage<>(Collections.unmodifiableList(group.payloads), group.headers));
	}

	/** Stops the timeout thread, then releases every open group; a release that fails is logged with its size. */
	@Override
	public void stop() {
		if (this.timer != null) {
			this.timer.shutdownNow();
			try {
				this.timer.awaitTermination(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		List<Group> open;
		synchronized (this.groups) {
			this.stopped = true;
			open = new ArrayList<>(this.groups.values());
			this.groups.clear();
		}
		int released = 0;
		for (Group group : open) {
			try {
				release(group);
				released += group.payloads.size();
			}
			catch (RuntimeException ex) {
				logger.error("Stream '{}': aggregator '{}' stopped holding {} messages it could not release; they are "
						+ "lost", this.context.streamName(), this.context.label(), group.payloads.size(), ex);
			}
		}
		if (released > 0) {
			logger.info("Stream '{}': aggregator '{}' released {} held messages in {} groups on stop",
					this.context.streamName(), this.context.label(), released, open.size());
		}
	}

	private record Group(MessageHeaders headers, long startNanos, List<Object> payloads) {
	}

	/** Declares and creates the {@code aggregator} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, AggregatorProcessor::new);
		}
	}
}
