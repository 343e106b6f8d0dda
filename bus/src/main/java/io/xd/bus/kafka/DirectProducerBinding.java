package io.xd.bus.kafka;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import io.xd.bus.ProducerBinding;

/**
 * The producer of a pipe bound directly on the Kafka bus ({@link io.xd.bus.BindingProperties#directBinding()}):
 * each message is handed to the consumer in the same thread, through the in-JVM direct binding, and, while the
 * module's tap has a subscriber, also written to the tap's Kafka topic, so that a tap in any process sees it.
 */
final class DirectProducerBinding implements ProducerBinding, MessageChannel {

	private final ProducerBinding direct;

	private final MessageChannel directChannel;

	private final ProducerBinding tap;

	private final KafkaTaps.Flag tapped;

	private final Runnable untap;

	/**
	 * @param direct the in-JVM binding of the pipe
	 * @param tap the Kafka producer of the tap topic
	 */
	DirectProducerBinding(ProducerBinding direct, ProducerBinding tap, String tapTopic, KafkaTaps taps) {
		this.direct = direct;
		this.directChannel = direct.channel();
		this.tap = tap;
		this.tapped = taps.flag(tapTopic);
		this.untap = taps.producerTapping(tapTopic);
	}

	@Override
	public boolean send(Message<?> message, long timeout) {
		boolean sent = this.directChannel.send(message, timeout);
		if (this.tapped.active()) {
			this.tap.channel().send(message, timeout);
		}
		return sent;
	}

	@Override
	public String name() {
		return this.direct.name();
	}

	@Override
	public MessageChannel channel() {
		return this;
	}

	@Override
	public void unbind() {
		this.untap.run();
		try {
			this.direct.unbind();
		}
		finally {
			this.tap.unbind();
		}
	}
}
