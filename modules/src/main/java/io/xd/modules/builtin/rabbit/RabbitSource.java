package io.xd.modules.builtin.rabbit;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.listener.ListenerContainerConsumerFailedEvent;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.support.converter.MessageConversionException;
import org.springframework.amqp.support.converter.MessageConverter;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.integration.amqp.inbound.AmqpInboundChannelAdapter;
import org.springframework.integration.amqp.support.DefaultAmqpHeaderMapper;
import org.springframework.messaging.MessageChannel;

import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleContext;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;
import io.xd.modules.ModuleType;
import io.xd.modules.Source;
import io.xd.modules.builtin.IntegrationBeans;
import io.xd.modules.builtin.ModuleSupport;

/**
 * The {@code rabbit} source: consumes RabbitMQ queues, which must exist, with Spring AMQP's listener container and
 * Spring Integration's AMQP inbound adapter. A message whose AMQP {@code content_type} is {@code text/*} becomes a
 * {@code String} (in its {@code content_encoding}, UTF-8 when none), any other a {@code byte[]}: Java serialized
 * objects are never deserialized. With {@code ackMode} AUTO a message is acknowledged only after it was sent
 * downstream ({@code output.send} returned); a send that throws rejects it, and the broker redelivers it
 * ({@code requeue}, the default) or drops or dead-letters it. Header values of other types than text, numbers and
 * booleans (the delivery mode, AMQP long strings) arrive as text, so that every bus carries them. The consumers run
 * on threads of their own; a consumer that fails for good (its queue deleted) fails the module.
 */
public final class RabbitSource implements Source {

	static final ModuleOption<String> QUEUES = ModuleOption.ofString("queues")
		.withRule(text -> !ModuleSupport.commaList(text).isEmpty()
				&& ModuleSupport.commaList(text).stream().allMatch(queue -> queue.length() <= 255),
				"be a comma-separated list of queue names of at most 255 characters")
		.withDescription("the queues to consume, comma-separated, which must exist; defaults to the stream name");

	static final ModuleOption<String> ACK_MODE = ModuleOption.ofChoice("ackMode", "AUTO", "NONE")
		.withDefault("AUTO")
		.withDescription("AUTO: acknowledge each message once it was sent downstream, reject it when that failed; "
				+ "NONE: the broker forgets each message as it delivers it");

	static final ModuleOption<Boolean> TRANSACTED = ModuleOption.ofBoolean("transacted")
		.withDefault(false)
		.withDescription("acknowledge in a channel transaction (with ackMode AUTO)");

	static final ModuleOption<Integer> CONCURRENCY = ModuleOption.ofInt("concurrency")
		.withDefault(1)
		.withMin(1)
		.withMax(64)
		.withDescription("the consumers, each on a thread of its own");

	static final ModuleOption<Integer> MAX_CONCURRENCY = ModuleOption.ofInt("maxConcurrency")
		.withDefault(1)
		.withMin(1)
		.withMax(64)
		.withDescription("the consumers the source may grow to under load (at least concurrency)");

	static final ModuleOption<Integer> PREFETCH = ModuleOption.ofInt("prefetch")
		.withDefault(1)
		.withMin(1)
		.withMax(1000)
		.withDescription("the messages the broker sends each consumer ahead of its acknowledgements");

	static final ModuleOption<Integer> TX_SIZE = ModuleOption.ofInt("txSize")
		.withDefault(1)
		.withMin(1)
		.withMax(1000)
		.withDescription("the messages acknowledged together");

	static final ModuleOption<Boolean> REQUEUE = ModuleOption.ofBoolean("requeue")
		.withDefault(true)
		.withDescription("requeue a message whose sending downstream failed; false rejects it (dead-lettered when "
				+ "its queue has a dead-letter exchange, else dropped)");

	static final ModuleOption<String> MAPPED_REQUEST_HEADERS = ModuleOption.ofString("mappedRequestHeaders")
		.withDefault("STANDARD_REQUEST_HEADERS")
		.withDescription("the AMQP properties and headers copied into message headers: names or patterns with *, "
				+ "comma-separated; STANDARD_REQUEST_HEADERS are the amqp_* properties and contentType");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "rabbit",
			"Sends the messages of RabbitMQ queues, acknowledged once sent downstream", options());

	private static final Logger logger = LoggerFactory.getLogger(RabbitSource.class);

	private final ModuleContext context;

	private final List<String> queues;

	private CachingConnectionFactory factory;

	private AmqpInboundChannelAdapter adapter;

	public RabbitSource(ModuleContext context) {
		this.context = context;
		String given = context.options().get(QUEUES);
		this.queues = (given == null) ? List.of(context.streamName()) : ModuleSupport.commaList(given);
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(List.of(QUEUES, ACK_MODE, TRANSACTED, CONCURRENCY,
				MAX_CONCURRENCY, PREFETCH, TX_SIZE, REQUEUE, MAPPED_REQUEST_HEADERS));
		options.addAll(RabbitConnections.OPTIONS);
		return options;
	}

	static void check(ModuleOptions options, HostAccess access) {
		if (options.get(TRANSACTED) && options.get(ACK_MODE).equals("NONE")) {
			throw new ModuleOptionException("rabbit", List.of("option 'transacted' needs ackMode AUTO: with NONE "
					+ "there is nothing to acknowledge in a transaction"));
		}
		RabbitConnections.SERVER.check(options, access);
	}

	@Override
	public synchronized void start(MessageChannel output) {
		RabbitConnections.Target target = RabbitConnections.connect("rabbit", this.context);
		this.factory = target.factory();
		try {
			checkQueues(target);
			ModuleOptions options = this.context.options();
			SimpleMessageListenerContainer container = new SimpleMessageListenerContainer(this.factory);
			container.setQueueNames(this.queues.toArray(String[]::new));
			container.setAcknowledgeMode(AcknowledgeMode.valueOf(options.get(ACK_MODE)));
			container.setChannelTransacted(options.get(TRANSACTED));
			container.setConcurrentConsumers(options.get(CONCURRENCY));
			container.setMaxConcurrentConsumers(Math.max(options.get(CONCURRENCY), options.get(MAX_CONCURRENCY)));
			container.setPrefetchCount(options.get(PREFETCH));
			container.setBatchSize(options.get(TX_SIZE));
			container.setDefaultRequeueRejected(options.get(REQUEUE));
			container.setTaskExecutor(new SimpleAsyncTaskExecutor(this.context.threadFactory("rabbit-consumer")));
			container.setApplicationEventPublisher(event -> {
				if (event instanceof ListenerContainerConsumerFailedEvent failed && failed.isFatal()) {
					this.context.fail(new IllegalStateException("The rabbit source stopped consuming " + this.queues
							+ " on " + target.shown() + ": " + failed.getReason(), failed.getThrowable()));
				}
			});
			AmqpInboundChannelAdapter created = new AmqpInboundChannelAdapter(
					(org.springframework.amqp.core.MessageListenerContainer) container);
			created.setMessageConverter(new Payloads());
			created.setHeaderMapper(new SimpleValueHeaderMapper(
					ModuleSupport.commaList(options.get(MAPPED_REQUEST_HEADERS)).toArray(String[]::new)));
			created.setOutputChannel(output);
			created.setBeanFactory(IntegrationBeans.minimal());
			created.afterPropertiesSet();
			created.start();
			this.adapter = created;
			logger.info("Stream '{}': the rabbit source consumes {} on {}", this.context.streamName(), this.queues,
					target.shown());
		}
		catch (RuntimeException ex) {
			this.factory.destroy();
			this.factory = null;
			throw ex;
		}
	}

	/** Connects once and checks every queue exists, so that a wrong server, user or queue fails the start clearly. */
	private void checkQueues(RabbitConnections.Target target) {
		String current = null;
		try (org.springframework.amqp.rabbit.connection.Connection connection = this.factory.createConnection()) {
			for (String queue : this.queues) {
				current = queue;
				// a passive declare of a missing queue closes its channel: one channel per queue
				try (Channel channel = connection.createChannel(false)) {
					channel.queueDeclarePassive(queue);
				}
			}
		}
		catch (AmqpException | IOException | java.util.concurrent.TimeoutException ex) {
			String what = (current == null) ? "connect to " + target.shown()
					: "consume queue '" + current + "' on " + target.shown();
			throw new IllegalStateException("The rabbit source cannot " + what + ": " + ModuleSupport.reason(ex), ex);
		}
	}

	@Override
	public synchronized void stop() {
		if (this.adapter != null) {
			this.adapter.stop();
			this.adapter.destroy();
			this.adapter = null;
		}
		if (this.factory != null) {
			this.factory.destroy();
			this.factory = null;
		}
	}

	/**
	 * Payloads as Spring XD's default converter made them, without its Java deserialization: text for a
	 * {@code text/*} content type, bytes for any other.
	 */
	static final class Payloads implements MessageConverter {

		@Override
		public org.springframework.amqp.core.Message toMessage(Object object, MessageProperties properties) {
			throw new MessageConversionException("The rabbit source does not send");
		}

		@Override
		public Object fromMessage(org.springframework.amqp.core.Message message) {
			MessageProperties properties = message.getMessageProperties();
			String contentType = properties.getContentType();
			if (contentType != null && contentType.startsWith("text")) {
				return new String(message.getBody(), charset(properties.getContentEncoding()));
			}
			return message.getBody();
		}

		private static Charset charset(String encoding) {
			try {
				return (encoding == null) ? StandardCharsets.UTF_8 : Charset.forName(encoding);
			}
			catch (IllegalArgumentException ex) {
				return StandardCharsets.UTF_8;
			}
		}
	}

	/** Spring Integration's inbound AMQP header mapping, with values of other types than scalars given as text. */
	static final class SimpleValueHeaderMapper extends DefaultAmqpHeaderMapper {

		SimpleValueHeaderMapper(String[] requestHeaderNames) {
			super(requestHeaderNames, inboundReplyHeaders());
		}

		@Override
		public Map<String, Object> toHeadersFromRequest(MessageProperties source) {
			Map<String, Object> headers = super.toHeadersFromRequest(source);
			headers.replaceAll((name, value) -> (value == null || value instanceof String || value instanceof Number
					|| value instanceof Boolean || value instanceof byte[]) ? value : value.toString());
			return headers;
		}
	}

	/** Declares and creates the {@code rabbit} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, RabbitSource::new, RabbitSource::check);
		}
	}
}
