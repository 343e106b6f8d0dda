package io.xd.modules.builtin.analytics;

import java.util.List;
import java.util.regex.Pattern;

import org.springframework.messaging.Message;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.analytics.AnalyticsStore;

/**
 * The {@code field-value-counter} sink: counts how often each value of a payload field occurs, in the container's
 * {@link AnalyticsStore} (Spring XD's sink of that name). The payload is a {@code Map}, or JSON text or bytes;
 * {@code --fieldName} may be a dotted path ({@code user.device}); each element of a list is counted; a message without
 * the field counts nothing. A payload that is neither JSON nor a map fails (the message goes to the error path).
 */
public final class FieldValueCounterSink implements Sink {

	static final ModuleOption<String> NAME = MetricSinks.nameOption("field-value counter");

	static final ModuleOption<String> FIELD_NAME = ModuleOption.ofString("fieldName")
		.withRule(text -> !text.isBlank() && text.length() <= 200 && !text.startsWith(".") && !text.endsWith(".")
				&& !text.contains(".."), "be a field name or a dotted path of at most 200 characters, such as user.device")
		.withDescription("the payload field whose values are counted (required); a dotted path reaches nested fields");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "field-value-counter",
			"Counts the occurrences of each value of a payload field in the analytics store", List.of(NAME, FIELD_NAME));

	private static final Pattern DOT = Pattern.compile(".", Pattern.LITERAL);

	private final AnalyticsStore store;

	private final String name;

	private final String[] path;

	public FieldValueCounterSink(ModuleContext context) {
		this.store = context.service(AnalyticsStore.class);
		this.name = MetricSinks.name(context, NAME);
		this.path = DOT.split(context.options().get(FIELD_NAME));
	}

	@Override
	public void handleMessage(Message<?> message) {
		List<String> values;
		try {
			values = PayloadFields.values(message.getPayload(), this.path);
		}
		catch (IllegalArgumentException ex) {
			throw MetricSinks.refused(message, "field-value-counter", ex.getMessage() + ": "
					+ MetricSinks.shown(message.getPayload()));
		}
		for (String value : values) {
			this.store.incrementFieldValue(this.name, value, 1);
		}
	}

	/** Declares and creates the {@code field-value-counter} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, FieldValueCounterSink::new);
		}

		/** Not a matter of access: {@code fieldName} is required, and this check runs when the stream is created. */
		@Override
		public void checkAccess(ModuleOptions options, HostAccess access) {
			if (options.get(FIELD_NAME) == null) {
				throw new ModuleOptionException("field-value-counter",
						List.of("option 'fieldName' is required: the payload field whose values are counted"));
			}
		}
	}
}
