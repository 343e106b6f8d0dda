package io.xd.bus.local;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.messaging.Message;

/** A publish-subscribe channel: a queue per consumer group, and the producers that tap into it. */
final class Topic {

	final Map<String, ConsumerGroup> groups = new LinkedHashMap<>();

	/** Named groups without a consumer, with the messages that were queued when their last consumer left. */
	final Map<String, ConsumerGroup> idleGroups = new HashMap<>();

	final List<LocalProducerBinding> tappedProducers = new ArrayList<>();

	private volatile ConsumerGroup[] snapshot = new ConsumerGroup[0];

	void refreshGroups() {
		this.snapshot = this.groups.values().toArray(new ConsumerGroup[0]);
	}

	void publish(Message<?> message) {
		for (ConsumerGroup group : this.snapshot) {
			group.publish(message);
		}
	}
}
