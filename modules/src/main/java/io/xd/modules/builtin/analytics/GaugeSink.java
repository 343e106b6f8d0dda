package io.xd.modules.builtin.analytics;

import java.util.List;

import org.springframework.messaging.Message;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.analytics.AnalyticsStore;

/**
 * The {@code gauge} sink: sets a gauge in the container's {@link AnalyticsStore} to each payload (Spring XD's sink of
 * that name). The payload is a number (its {@code long} value) or text that parses as a whole number; anything else,
 * {@code "10.5"} included as in Spring XD, fails and goes to the error path.
 */
public final class GaugeSink implements Sink {

	static final ModuleOption<String> NAME = MetricSinks.nameOption("gauge");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "gauge",
			"Sets a gauge in the analytics store to each payload, a whole number", List.of(NAME));

	private final AnalyticsStore store;

	private final String name;

	public GaugeSink(ModuleContext context) {
		this.store = context.service(AnalyticsStore.class);
		this.name = MetricSinks.name(context, NAME);
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		long value;
		if (payload instanceof Number number) {
			value = number.longValue();
		}
		else {
			String text = MetricSinks.text(payload);
			try {
				value = Long.parseLong(text);
			}
			catch (NumberFormatException | NullPointerException ex) {
				throw MetricSinks.refused(message, "gauge", "the payload is not a whole number: "
						+ MetricSinks.shown(payload));
			}
		}
		this.store.setGauge(this.name, value);
	}

	/** Declares and creates the {@code gauge} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, GaugeSink::new);
		}
	}
}
