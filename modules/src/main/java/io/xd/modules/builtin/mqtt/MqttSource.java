package io.xd.modules.builtin.mqtt;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.integration.mqtt.event.MqttConnectionFailedEvent;
import org.springframework.integration.mqtt.event.MqttSubscribedEvent;
import org.springframework.integration.mqtt.inbound.MqttPahoMessageDrivenChannelAdapter;
import org.springframework.integration.mqtt.support.DefaultPahoMessageConverter;
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
 * The {@code mqtt} source: subscribes to MQTT topic filters (wildcards {@code +} and {@code #}) with Spring
 * Integration's Paho v3 adapter, and sends each message's payload as text in {@code charset} (or {@code byte[]} with
 * {@code binary}), with the headers {@code mqtt_receivedTopic}, {@code mqtt_receivedQos},
 * {@code mqtt_receivedRetained} and {@code mqtt_duplicate}. A QoS 1 or 2 message is acknowledged to the broker after it
 * was sent downstream: a send that throws drops the connection without the acknowledgement, and with
 * {@code cleanSession=false} the broker delivers the message again when the client reconnects (with a clean session
 * it is gone). At start the source connects once to check the broker and the credentials; afterwards the client
 * reconnects by itself.
 */
public final class MqttSource implements Source {

	static final ModuleOption<String> CLIENT_ID = ModuleOption.ofString("clientId")
		.withRule(id -> !id.isBlank() && id.length() <= 256, "be 1 to 256 characters")
		.withDescription("the client id, unique on the broker (a second client with the same id takes over); "
				+ "defaults to xd.<stream>.<label>.src, as Spring XD's xd.mqtt.client.id.src");

	static final ModuleOption<String> TOPICS = ModuleOption.ofString("topics")
		.withDefault("xd.mqtt.test")
		.withRule(text -> !ModuleSupport.commaList(text).isEmpty()
				&& ModuleSupport.commaList(text).stream().allMatch(topic -> MqttConnections.isTopic(topic, true)),
				"be a comma-separated list of MQTT topic filters (+ for one level, # at the end for any levels)")
		.withDescription("the topic filters to subscribe to, comma-separated; + matches one level, # (last) any "
				+ "levels");

	static final ModuleOption<String> QOS = ModuleOption.ofString("qos")
		.withDefault("0")
		.withRule(text -> !ModuleSupport.commaList(text).isEmpty()
				&& ModuleSupport.commaList(text).stream().allMatch(qos -> qos.matches("[012]")),
				"be 0, 1 or 2, or a comma-separated list of them, one per topic")
		.withDescription("the quality of service to subscribe with: one for every topic, or one per topic");

	static final ModuleOption<Boolean> BINARY = ModuleOption.ofBoolean("binary")
		.withDefault(false)
		.withDescription("send payloads as byte[] instead of text");

	static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.SOURCE, "mqtt",
			"Sends the messages of MQTT topics, wildcards allowed", options());

	private static final Logger logger = LoggerFactory.getLogger(MqttSource.class);

	private static final long STOP_TIMEOUT_MILLIS = 1_000;

	private final ModuleContext context;

	private final String clientId;

	private final List<String> topics;

	private final int[] qos;

	private MqttPahoMessageDrivenChannelAdapter adapter;

	public MqttSource(ModuleContext context) {
		this.context = context;
		ModuleOptions options = context.options();
		String id = options.get(CLIENT_ID);
		this.clientId = (id == null) ? "xd." + context.streamName() + "." + context.label() + ".src" : id;
		this.topics = ModuleSupport.commaList(options.get(TOPICS));
		List<Integer> levels = ModuleSupport.commaList(options.get(QOS)).stream().map(Integer::valueOf).toList();
		this.qos = new int[this.topics.size()];
		for (int i = 0; i < this.qos.length; i++) {
			this.qos[i] = levels.get((levels.size() == 1) ? 0 : i);
		}
	}

	private static List<ModuleOption<?>> options() {
		List<ModuleOption<?>> options = new ArrayList<>(List.of(CLIENT_ID, TOPICS, QOS, BINARY));
		options.addAll(MqttConnections.OPTIONS);
		return options;
	}

	static void check(ModuleOptions options, HostAccess access) {
		int levels = ModuleSupport.commaList(options.get(QOS)).size();
		int topics = ModuleSupport.commaList(options.get(TOPICS)).size();
		if (levels != 1 && levels != topics) {
			throw new ModuleOptionException("mqtt", List.of("option 'qos' gives " + levels + " levels for " + topics
					+ " topics: give one for all, or one per topic"));
		}
		MqttConnections.SERVER.check(options, access);
	}

	@Override
	public synchronized void start(MessageChannel output) {
		MqttConnections.Target target = MqttConnections.target(this.context);
		target.probe("source");
		MqttPahoMessageDrivenChannelAdapter created = new MqttPahoMessageDrivenChannelAdapter(this.clientId,
				target.clientFactory(), this.topics.toArray(String[]::new));
		created.setQos(this.qos);
		DefaultPahoMessageConverter converter = new DefaultPahoMessageConverter(this.context.options()
			.get(MqttConnections.CHARSET));
		converter.setPayloadAsBytes(this.context.options().get(BINARY));
		created.setConverter(converter);
		created.setCompletionTimeout(target.timeoutMillis());
		// stopping waits this long for a message being handled, then for the broker to see the disconnection
		created.setQuiescentTimeout(STOP_TIMEOUT_MILLIS);
		created.setDisconnectCompletionTimeout(STOP_TIMEOUT_MILLIS);
		created.setOutputChannel(output);
		CountDownLatch subscribed = new CountDownLatch(1);
		created.setApplicationEventPublisher(event -> {
			if (event instanceof MqttSubscribedEvent) {
				subscribed.countDown();
			}
			else if (event instanceof MqttConnectionFailedEvent failed) {
				logger.warn("Stream '{}': the mqtt source lost or could not make its connection to {}; reconnecting",
						this.context.streamName(), target.shown(), failed.getCause());
			}
		});
		created.setBeanFactory(IntegrationBeans.minimal());
		created.afterPropertiesSet();
		created.start();
		// the adapter may subscribe on Paho's thread: started means subscribed, so nothing sent after is missed
		try {
			if (!subscribed.await(target.timeoutMillis(), TimeUnit.MILLISECONDS)) {
				created.stop();
				created.destroy();
				throw new IllegalStateException("The mqtt source could not subscribe to " + this.topics + " on "
						+ target.shown() + " within " + target.timeoutMillis() + " ms");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			created.stop();
			created.destroy();
			throw new IllegalStateException("Interrupted while the mqtt source subscribed", ex);
		}
		this.adapter = created;
		logger.info("Stream '{}': the mqtt source subscribed to {} on {} as client {}", this.context.streamName(),
				this.topics, target.shown(), this.clientId);
	}

	@Override
	public synchronized void stop() {
		if (this.adapter != null) {
			this.adapter.stop();
			this.adapter.destroy();
			this.adapter = null;
		}
	}

	/** Declares and creates the {@code mqtt} source. */
	public static final class Provider extends AbstractModuleProvider {

		public Provider() {
			super(METADATA, MqttSource::new, MqttSource::check);
		}
	}
}
