package io.xd.bus.local;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.MessageHandler;

/**
 * A bounded queue of messages shared by competing consumers, each served by a thread of its own. Publishing blocks
 * while the queue is full, so a slow consumer slows its producer instead of losing messages or exhausting memory.
 */
final class ConsumerGroup {

	private static final long POLL_MILLIS = 100;

	private final String channel;

	private final BlockingQueue<Message<?>> queue;

	private final Failures onFailure;

	private final List<Dispatcher> dispatchers = new ArrayList<>();

	private int threadCount;

	ConsumerGroup(String channel, int capacity, Failures onFailure) {
		this.channel = channel;
		this.queue = new ArrayBlockingQueue<>(capacity);
		this.onFailure = onFailure;
	}

	/** Queues a message, waiting while the queue is full. */
	void publish(Message<?> message) {
		try {
			this.queue.put(message);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new MessageDeliveryException(message, "Interrupted while waiting for room on " + this.channel, ex);
		}
	}

	synchronized Runnable addConsumer(MessageHandler handler) {
		Dispatcher dispatcher = new Dispatcher(handler);
		Thread thread = new Thread(dispatcher, "xd-bus-" + this.channel + "-" + (++this.threadCount));
		thread.setDaemon(true);
		dispatcher.thread = thread;
		this.dispatchers.add(dispatcher);
		thread.start();
		return () -> removeConsumer(dispatcher);
	}

	synchronized boolean hasConsumers() {
		return !this.dispatchers.isEmpty();
	}

	int backlog() {
		return this.queue.size();
	}

	private void removeConsumer(Dispatcher dispatcher) {
		synchronized (this) {
			if (!this.dispatchers.remove(dispatcher)) {
				return;
			}
		}
		dispatcher.running = false;
		if (dispatcher.thread != Thread.currentThread()) {
			try {
				dispatcher.thread.join(TimeUnit.SECONDS.toMillis(10));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private final class Dispatcher implements Runnable {

		private final MessageHandler handler;

		private volatile boolean running = true;

		private Thread thread;

		Dispatcher(MessageHandler handler) {
			this.handler = handler;
		}

		@Override
		public void run() {
			while (this.running) {
				Message<?> message;
				try {
					message = ConsumerGroup.this.queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					return;
				}
				if (message == null) {
					continue;
				}
				try {
					this.handler.handleMessage(message);
				}
				catch (Throwable ex) {
					ConsumerGroup.this.onFailure.failed(this.handler, message, ex);
				}
			}
		}
	}

	/** Hears of a consumer's failure on a message, on the consumer's thread. */
	@FunctionalInterface
	interface Failures {

		void failed(MessageHandler consumer, Message<?> message, Throwable ex);
	}
}
