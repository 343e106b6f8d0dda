package io.xd.modules.builtin.mqtt;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.expression.common.LiteralExpression;
import org.springframework.integration.mqtt.event.MqttConnectionFailedEvent;
import org.springframework.integration.mqtt.outbound.MqttPahoMessageHandler;
import org.springframework.integration.mqtt.support.DefaultPahoMessageConverter;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.IntegrationBeans;

/**
 * The {@code mqtt} sink: publishes each payload to one MQTT topic with Spring Integration's Paho v3 handler: text in
 * {@code charset}, {@code byte[]} as it is, anything else as its {@code toString()}. The topic, QoS and retained flag
 * are the options', whatever the message's headers say. Unless {@code async}, each publish waits for the broker (for
 * QoS 1 and 2, its acknowledgement) and a failure goes back to the bus; the client reconnects at the next message after
 * a lost connection. At start the sink connects once to check the broker and the credentials.
 */
public final class MqttSink implements Sink {

	static final ModuleOption<String> CLIENT_ID = ModuleOption.ofString("clientId")
		.withRule(id -> !id.isBlank() && id.length() <= 256, "be 1 to 256 characters")
		.withDescription("the client id, unique on the broker (a second client with the same id takes over); "
				+ "defaults to xd.<stream>.<label>.snk, as Spring XD's xd.mqtt.client.id.snk");

	static final ModuleOption<String> TOPIC = ModuleOption.ofString("topic")
		.withDefault("xd.mqtt.test")
		.withRule(topic -> MqttConnections.isTopic(topic, false), "be an MQTT topic name, without wildcards")
		.withDescription("the topic to publish to");

	static final ModuleOption<Integer> QOS = ModuleOption.ofInt("qos")
		.withDefault(1)
		.withMin(0)
		.withMax(2)
		.withDescription("the quality of service: 0 at most once, 1 at least once, 2 exactly once");

	static final ModuleOption<Boolean> RETAINED = ModuleOption.ofBoolean("retained")
		.withDefault(false)
		.withDescription("ask the broker to keep the last message of the topic for new subscribers");

	static final ModuleOption<Boolean> ASYNC = ModuleOption.ofBoolean("async")
		.withDefault(false)
		.withDescription("publish without waiting for the broker; a failure is then only logged");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "mqtt",
			"Publishes each payload to an MQTT topic", options());

	private static final Logger logger = LoggerFactory.getLogger(MqttSink.class);

	private final ModuleContext context;

	private final String clientId;

	private volatile MqttPahoMessageHandler handler;

	public MqttSink(ModuleContext context) {
		this.context = context;
		String id = context.options().get(CLIENT_ID);
		this.clientId = (id == null) ? "xd." + context.streamName() + "." + context.label() + ".snk" : id;
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(List.of(CLIENT_ID, TOPIC, QOS, RETAINED, ASYNC));
		options.addAll(MqttConnections.OPTIONS);
		return options;
	}

	@Override
	public synchronized void start() {
		MqttConnections.Target target = MqttConnections.target(this.context);
		target.probe("sink");
		ModuleOptions options = this.context.options();
		int qos = options.get(QOS);
		boolean retained = options.get(RETAINED);
		MqttPahoMessageHandler created = new MqttPahoMessageHandler(this.clientId, target.clientFactory());
		created.setTopicExpression(new LiteralExpression(options.get(TOPIC)));
		created.setConverter(new DefaultPahoMessageConverter(qos, message -> qos, retained, message -> retained,
				options.get(MqttConnections.CHARSET)));
		created.setAsync(options.get(ASYNC));
		created.setCompletionTimeout(target.timeoutMillis());
		created.setApplicationEventPublisher(event -> {
			if (event instanceof MqttConnectionFailedEvent failed) {
				logger.warn("Stream '{}': the mqtt sink lost or could not make its connection to {}",
						this.context.streamName(), target.shown(), failed.getCause());
			}
		});
		created.setBeanFactory(IntegrationBeans.minimal());
		created.afterPropertiesSet();
		created.start();
		this.handler = created;
		logger.info("Stream '{}': the mqtt sink publishes to {} on {} as client {}", this.context.streamName(),
				options.get(TOPIC), target.shown(), this.clientId);
	}

	@Override
	public void handleMessage(Message<?> message) {
		MqttPahoMessageHandler current = this.handler;
		if (current == null) {
			throw new MessagingException(message, "The mqtt sink is not started");
		}
		Object payload = message.getPayload();
		Message<?> sent = (payload instanceof byte[] || payload instanceof String) ? message
				: MessageBuilder.withPayload(String.valueOf(payload)).copyHeaders(message.getHeaders()).build();
		current.handleMessage(sent);
	}

	@Override
	public synchronized void stop() {
		MqttPahoMessageHandler current = this.handler;
		this.handler = null;
		if (current != null) {
			current.stop();
			current.destroy();
		}
	}

	/** Declares and creates the {@code mqtt} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, MqttSink::new, MqttConnections.SERVER::check);
		}
	}
}
