package io.xd.modules.builtin.processor;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.GenericMessage;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Processor;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code json-path} processor: reads each payload (JSON text, or UTF-8 bytes) and sends on the value at the
 * JsonPath {@code expression}, keeping the headers. A text, number or boolean is sent as it is; an object or array
 * is sent as JSON text. A path that does not exist in the document fails the message.
 */
public final class JsonPathProcessor implements Processor {

	static final ModuleOption<String> EXPRESSION = ModuleOption.ofString("expression")
		.withDefault("$")
		.withRule(JsonPathProcessor::isJsonPath, "be a JsonPath such as $.order.id, without regular expressions (=~)")
		.withDescription("the JsonPath of the value to extract, such as $.order.items[0].price");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "json-path",
			"Extracts a value from JSON payloads with a JsonPath", List.of(EXPRESSION));

	private static final Configuration JSON = Configuration.defaultConfiguration();

	private final JsonPath path;

	private MessageChannel output;

	JsonPathProcessor(ModuleContext context) {
		this.path = JsonPath.compile(context.options().get(EXPRESSION));
	}

	@Override
	public void start(MessageChannel output) {
		this.output = output;
	}

	@Override
	public void handleMessage(Message<?> message) {
		Object payload = message.getPayload();
		String document = (payload instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: payload.toString();
		Object value;
		try {
			value = this.path.read(document, JSON);
		}
		catch (RuntimeException ex) {
			throw new MessageHandlingException(message,
					"json-path '" + this.path.getPath() + "' could not be read: " + ex.getMessage(), ex);
		}
		if (value == null) {
			throw new MessageHandlingException(message, "json-path '" + this.path.getPath() + "' is null");
		}
		Object result = (value instanceof Map || value instanceof List) ? JSON.jsonProvider().toJson(value) : value;
		this.output.send(new GenericMessage<>(result, message.getHeaders()));
	}

	private static boolean isJsonPath(String text) {
		try {
			SafeExpression.checkJsonPath(text);
			JsonPath.compile(text);
			return true;
		}
		catch (InvalidPathException | IllegalArgumentException ex) {
			return false;
		}
	}

	/** Declares and creates the {@code json-path} processor. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, JsonPathProcessor::new);
		}
	}
}
