package io.xd.modules.builtin.rabbit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.integration.amqp.support.DefaultAmqpHeaderMapper;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessagingException;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.ModuleSupport;
import io.xd.modules.expression.SafeExpression;

/**
 * The {@code rabbit} sink: publishes each payload to a RabbitMQ exchange with a routing key, through Spring AMQP's
 * {@code RabbitTemplate}, and waits for the broker's publisher confirm, so that a message the broker did not take (its
 * exchange deleted, the connection lost) fails back to the bus. {@code byte[]} payloads go as they are, text as UTF-8
 * ({@code text/plain} unless a {@code contentType} header says otherwise), anything else as its {@code toString()}
 * (give {@code --inputType=application/json} for JSON). Message headers travel as AMQP properties and headers through
 * Spring Integration's header mapping. At start the sink connects and checks the exchange exists; it creates no queue
 * or exchange. A message no queue is bound for is dropped by the broker, as RabbitMQ does for unroutable messages.
 */
public final class RabbitSink implements Sink {

	private static final long CONFIRM_TIMEOUT_MILLIS = 10_000;

	static final ModuleOption<String> EXCHANGE = ModuleOption.ofString("exchange")
		.withDefault("")
		.withRule(name -> name.length() <= 255, "be an exchange name of at most 255 characters")
		.withDescription("the exchange to publish to, which must exist; the default \"\" routes to the queue named "
				+ "by the routing key");

	static final ModuleOption<String> ROUTING_KEY = ModuleOption.ofString("routingKey")
		.withRule(key -> literalKey(key).length() <= 255, "be a routing key of at most 255 characters")
		.withDescription("the routing key of every message, literal; defaults to the stream name; a key in quotes "
				+ "('\"orders\"', Spring XD's SpEL literal) is the text between them");

	static final ModuleOption<SafeExpression> ROUTING_KEY_EXPRESSION = ModuleOption.ofExpression("routingKeyExpression")
		.withDescription("a SpEL expression giving each message's routing key, such as headers['region']; instead of "
				+ "routingKey");

	static final ModuleOption<String> DELIVERY_MODE = ModuleOption.ofChoice("deliveryMode", "PERSISTENT",
			"NON_PERSISTENT")
		.withDefault("PERSISTENT")
		.withDescription("whether a durable queue keeps the message across a broker restart");

	static final ModuleOption<String> MAPPED_REQUEST_HEADERS = ModuleOption.ofString("mappedRequestHeaders")
		.withDefault("STANDARD_REQUEST_HEADERS")
		.withDescription("the message headers sent as AMQP properties and headers: names or patterns with *, "
				+ "comma-separated; STANDARD_REQUEST_HEADERS are the amqp_* properties and contentType");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SINK, "rabbit",
			"Publishes each payload to a RabbitMQ exchange, confirmed by the broker", options());

	private static final Logger logger = LoggerFactory.getLogger(RabbitSink.class);

	private final ModuleContext context;

	private final String exchange;

	private final String routingKey;

	private final SafeExpression routingKeyExpression;

	private final MessageDeliveryMode deliveryMode;

	private final DefaultAmqpHeaderMapper headerMapper;

	private volatile CachingConnectionFactory factory;

	private volatile RabbitTemplate template;

	private String shown;

	public RabbitSink(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		this.exchange = options.get(EXCHANGE);
		String key = options.get(ROUTING_KEY);
		this.routingKey = (key == null) ? context.streamName() : literalKey(key);
		this.routingKeyExpression = options.get(ROUTING_KEY_EXPRESSION);
		this.deliveryMode = MessageDeliveryMode.valueOf(options.get(DELIVERY_MODE));
		this.headerMapper = DefaultAmqpHeaderMapper.outboundMapper();
		this.headerMapper.setRequestHeaderNames(
				ModuleSupport.commaList(options.get(MAPPED_REQUEST_HEADERS)).toArray(String[]::new));
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(
				List.of(EXCHANGE, ROUTING_KEY, ROUTING_KEY_EXPRESSION, DELIVERY_MODE, MAPPED_REQUEST_HEADERS));
		options.addAll(RabbitConnections.OPTIONS);
		return options;
	}

	/** A routing key as given, or the text between its quotes when it is quoted as Spring XD's SpEL literals were. */
	static String literalKey(String key) {
		if (key.length() >= 2 && (key.startsWith("'") && key.endsWith("'") || key.startsWith("\"") && key.endsWith("\""))) {
			return key.substring(1, key.length() - 1);
		}
		return key;
	}

	static void check(ModuleOptions options, HostAccess access) {
		if (options.get(ROUTING_KEY) != null && options.get(ROUTING_KEY_EXPRESSION) != null) {
			throw new ModuleOptionException("rabbit", List.of("options 'routingKey' and 'routingKeyExpression' are "
					+ "refused together: give one of them"));
		}
		RabbitConnections.SERVER.check(options, access);
	}

	@Override
	public synchronized void start() {
		RabbitConnections.Target target = RabbitConnections.connect("rabbit", this.context);
		CachingConnectionFactory created = target.factory();
		created.setPublisherConfirmType(CachingConnectionFactory.ConfirmType.SIMPLE);
		try (org.springframework.amqp.rabbit.connection.Connection connection = created.createConnection();
				Channel channel = connection.createChannel(false)) {
			if (!this.exchange.isEmpty()) {
				channel.exchangeDeclarePassive(this.exchange);
			}
		}
		catch (AmqpException | IOException | TimeoutException ex) {
			created.destroy();
			throw new IllegalStateException("The rabbit sink cannot publish to exchange '" + this.exchange + "' on "
					+ target.shown() + ": " + ModuleSupport.reason(ex), ex);
		}
		this.shown = target.shown();
		this.factory = created;
		this.template = new RabbitTemplate(created);
		logger.info("Stream '{}': the rabbit sink publishes to exchange '{}' on {}", this.context.streamName(),
				this.exchange, this.shown);
	}

	@Override
	public void handleMessage(Message<?> message) {
		RabbitTemplate current = this.template;
		if (current == null) {
			throw new MessagingException(message, "The rabbit sink is not started");
		}
		String key = routingKey(message);
		MessageProperties properties = new MessageProperties();
		this.headerMapper.fromHeadersToRequest(message.getHeaders(), properties);
		properties.setDeliveryMode(this.deliveryMode);
		byte[] body;
		if (message.getPayload() instanceof byte[] bytes) {
			body = bytes;
		}
		else {
			body = String.valueOf(message.getPayload()).getBytes(StandardCharsets.UTF_8);
			if (!message.getHeaders().containsKey(org.springframework.messaging.MessageHeaders.CONTENT_TYPE)) {
				properties.setContentType(MessageProperties.CONTENT_TYPE_TEXT_PLAIN);
			}
			properties.setContentEncoding(StandardCharsets.UTF_8.name());
		}
		org.springframework.amqp.core.Message amqp = new org.springframework.amqp.core.Message(body, properties);
		try {
			current.invoke(operations -> {
				operations.send(this.exchange, key, amqp);
				operations.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
				return null;
			});
		}
		catch (AmqpException ex) {
			throw new MessagingException(message, "The rabbit sink could not publish to exchange '" + this.exchange
					+ "' with routing key '" + key + "' on " + this.shown + ": " + ModuleSupport.reason(ex), ex);
		}
	}

	private String routingKey(Message<?> message) {
		if (this.routingKeyExpression == null) {
			return this.routingKey;
		}
		Object value = this.routingKeyExpression.evaluate(message);
		if (value == null) {
			throw new MessagingException(message, "The rabbit sink's routingKeyExpression gave null");
		}
		String key = value.toString();
		if (key.getBytes(StandardCharsets.UTF_8).length > 255) {
			throw new MessagingException(message, "The rabbit sink's routingKeyExpression gave a key longer than 255 "
					+ "bytes");
		}
		return key;
	}

	@Override
	public synchronized void stop() {
		this.template = null;
		if (this.factory != null) {
			this.factory.destroy();
			this.factory = null;
		}
	}

	/** Declares and creates the {@code rabbit} sink. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, RabbitSink::new, RabbitSink::check);
		}
	}
}
