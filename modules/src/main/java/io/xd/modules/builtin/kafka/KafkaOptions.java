package io.xd.modules.builtin.kafka;

import java.util.regex.Pattern;

import io.xd.modules.ModuleOption;

/**
 * The options the Kafka source and sink share, and their checks. Only these options reach the Kafka clients: no
 * client property is passed through from a stream definition.
 */
final class KafkaOptions {

	private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");

	private static final Pattern BROKERS = Pattern.compile("[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5}(,[A-Za-z0-9.\\-\\[\\]:]+:\\d{1,5})*");

	static final ModuleOption<String> TOPIC_OPTION = ModuleOption.ofString("topic")
		.withRule(KafkaOptions::isTopic, "be a Kafka topic name (letters, digits, '.', '_', '-')")
		.withDescription("the Kafka topic; defaults to the stream name");

	static final ModuleOption<String> BROKERS_OPTION = ModuleOption.ofString("brokers")
		.withDefault("localhost:9092")
		.withRule(text -> BROKERS.matcher(text).matches(), "be a comma-separated list of host:port")
		.withDescription("the Kafka bootstrap servers, host:port[,host:port...]");

	private KafkaOptions() {
	}

	static boolean isTopic(String name) {
		return TOPIC.matcher(name).matches() && !name.equals(".") && !name.equals("..");
	}

	/** The topic option's value, or the stream name when none was given. */
	static String topic(String given, String streamName) {
		if (given != null) {
			return given;
		}
		if (!isTopic(streamName)) {
			throw new IllegalArgumentException("The stream name '" + streamName + "' is not a Kafka topic name: give --topic");
		}
		return streamName;
	}
}
