package io.xd.modules.builtin.analytics;

import java.nio.charset.StandardCharsets;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleOption;
import io.xd.modules.analytics.MetricNames;

/** What the analytics sinks share: the {@code name} option and reading numbers from payloads. */
public final class MetricSinks {

	private MetricSinks() {
	}

	/** The {@code name} option of an analytics sink, whose metric it is. */
	public static ModuleOption<String> nameOption(String kind) {
		return ModuleOption.ofString("name")
			.withRule(MetricNames::isValid, MetricNames.REQUIREMENT)
			.withDescription("the name of the " + kind + " to update (created if missing); defaults to the stream name");
	}

	/** The metric's name: the option's value, or the stream's name. */
	public static String name(ModuleContext context, ModuleOption<String> option) {
		String name = context.options().get(option);
		return MetricNames.check((name == null) ? context.streamName() : name);
	}

	/** The payload as text, for numbers sent as text or UTF-8 bytes; null for other payloads. */
	static String text(Object payload) {
		if (payload instanceof String text) {
			return text.strip();
		}
		if (payload instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8).strip();
		}
		return null;
	}

	/** A failure on one message, which the bus sends to the error path, showing (the start of) its payload. */
	static MessagingException refused(Message<?> message, String module, String reason) {
		return new MessagingException(message, "The " + module + " sink cannot use this message: " + reason);
	}

	/** The start of a payload, for messages. */
	static String shown(Object payload) {
		String text = (payload instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: String.valueOf(payload);
		return (text.length() > 60) ? text.substring(0, 57) + "..." : text;
	}
}
