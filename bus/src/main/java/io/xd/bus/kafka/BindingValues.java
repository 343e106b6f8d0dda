package io.xd.bus.kafka;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.springframework.util.unit.DataSize;

import io.xd.bus.BindingProperties;

/**
 * Reads typed values from a binding's properties, each falling back to the bus default, with messages that name the
 * key. Times without a unit are milliseconds and sizes without a unit are bytes, as in Spring XD.
 */
final class BindingValues {

	private final BindingProperties properties;

	BindingValues(BindingProperties properties) {
		this.properties = properties;
	}

	int integer(String key, int defaultValue) {
		return parsed(key, defaultValue, Integer::parseInt, "an integer");
	}

	int atLeastOne(String key, int defaultValue) {
		int value = integer(key, defaultValue);
		if (value < 1) {
			throw new IllegalArgumentException(key + " must be 1 or more, but was " + value);
		}
		return value;
	}

	double decimal(String key, double defaultValue) {
		return parsed(key, defaultValue, Double::parseDouble, "a number");
	}

	boolean bool(String key, boolean defaultValue) {
		return parsed(key, defaultValue, BindingValues::parseBoolean, "true or false");
	}

	String text(String key, String defaultValue) {
		return this.properties.get(key, defaultValue);
	}

	/** A duration: milliseconds without a unit, or with one of {@code ms}, {@code s}, {@code m}. */
	Duration duration(String key, Duration defaultValue) {
		return parsed(key, defaultValue, BindingValues::parseDuration,
				"a duration in milliseconds (or with ms, s or m)");
	}

	/** A size: bytes without a unit, or with a unit such as {@code KB} or {@code MB}. */
	DataSize size(String key, DataSize defaultValue) {
		return parsed(key, defaultValue, DataSize::parse, "a size in bytes (or with KB, MB)");
	}

	private <T> T parsed(String key, T defaultValue, Function<String, T> parser, String expected) {
		String value = this.properties.get(key, null);
		if (value == null) {
			return defaultValue;
		}
		try {
			return parser.apply(value.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(key + " must be " + expected + ", but was '" + value + "'");
		}
	}

	private static boolean parseBoolean(String text) {
		return switch (text.toLowerCase(Locale.ROOT)) {
			case "true" -> true;
			case "false" -> false;
			default -> throw new IllegalArgumentException(text);
		};
	}

	private static Duration parseDuration(String text) {
		String lower = text.toLowerCase(Locale.ROOT);
		if (lower.endsWith("ms")) {
			return Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2).trim()));
		}
		if (lower.endsWith("s")) {
			return Duration.ofSeconds(Long.parseLong(lower.substring(0, lower.length() - 1).trim()));
		}
		if (lower.endsWith("m")) {
			return Duration.ofMinutes(Long.parseLong(lower.substring(0, lower.length() - 1).trim()));
		}
		return Duration.ofMillis(Long.parseLong(lower));
	}

	/** Dotted keys are Kafka client properties, passed through as they are. */
	void passThrough(Map<String, Object> config) {
		this.properties.asMap().forEach((key, value) -> {
			if (key.contains(".")) {
				config.put(key, value);
			}
		});
	}

	/** A size as the {@code int} Kafka's client takes, refusing what does not fit. */
	static int bytes(String key, DataSize size) {
		long bytes = size.toBytes();
		if (bytes < 0 || bytes > Integer.MAX_VALUE) {
			throw new IllegalArgumentException(key + " must be between 0 and " + Integer.MAX_VALUE + " bytes, but was "
					+ bytes);
		}
		return (int) bytes;
	}

	/** A duration as the {@code int} of milliseconds Kafka's client takes. */
	static int millis(String key, Duration duration) {
		long millis = duration.toMillis();
		if (millis < 0 || millis > Integer.MAX_VALUE) {
			throw new IllegalArgumentException(key + " must be between 0 and " + Integer.MAX_VALUE + " ms, but was "
					+ millis);
		}
		return (int) millis;
	}
}
