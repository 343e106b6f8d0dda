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
import io.xd.modules.analytics.RichGauge;

/**
 * The {@code rich-gauge} sink: records each payload in a rich gauge of the container's {@link AnalyticsStore}: the
 * latest value, the mean (or, with {@code --alpha}, an exponential moving average), the minimum, maximum and count
 * (Spring XD's sink of that name). The payload is a number or text that parses as one; anything else fails and goes
 * to the error path.
 */
public final class RichGaugeSink implements Sink {

	static final ModuleOption<String> NAME = MetricSinks.nameOption("rich gauge");

	static final ModuleOption<Double> ALPHA = ModuleOption.ofType("alpha", "double", Double.class, text -> {
		try {
			return RichGauge.checkAlpha(Double.parseDouble(text.strip()));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("expected a number");
		}
	})
		.withDefault(-1.0)
		.withDescription("-1 for the arithmetic mean of all values; between 0 and 1 (exclusive) for an exponential "
				+ "moving average, each value weighing alpha");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "rich-gauge",
			"Records each payload, a number, in a rich gauge of the analytics store: value, mean, min, max and count",
			List.of(NAME, ALPHA));

	private final AnalyticsStore store;

	private final String name;

	private final double alpha;

	public RichGaugeSink(ModuleContext context) {
		this.store = context.service(AnalyticsStore.class);
		this.name = MetricSinks.name(context, NAME);
		this.alpha = context.options().get(ALPHA);
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		double value;
		if (payload instanceof Number number) {
			value = number.doubleValue();
		}
		else {
			String text = MetricSinks.text(payload);
			try {
				value = Double.parseDouble(text);
			}
			catch (NumberFormatException | NullPointerException ex) {
				throw MetricSinks.refused(message, "rich-gauge", "the payload is not a number: "
						+ MetricSinks.shown(payload));
			}
		}
		if (!Double.isFinite(value)) {
			throw MetricSinks.refused(message, "rich-gauge", "the payload is not a finite number: " + value);
		}
		this.store.recordRichGauge(this.name, value, this.alpha);
	}

	/** Declares and creates the {@code rich-gauge} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, RichGaugeSink::new);
		}
	}
}
