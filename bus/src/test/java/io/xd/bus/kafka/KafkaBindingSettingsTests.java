package io.xd.bus.kafka;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.xd.bus.BindingProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Binding properties resolved into typed settings over the bus defaults, once per binding. */
class KafkaBindingSettingsTests {

	private final KafkaBusProperties bus = new KafkaBusProperties();

	@Test
	void aProducerWaitsAMillisecondToFillABatchUnlessConfigured() {
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ProducerConfig.LINGER_MS_CONFIG, 1);
		assertThat(KafkaProducerSettings.resolve(BindingProperties.of(Map.of("batchTimeout", "0")), this.bus)
			.clientConfig()).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 0);
	}

	@Test
	void producerSettingsFallBackToTheBusDefaults() {
		this.bus.getDefault().setBatchTimeout(Duration.ofMillis(5));
		this.bus.getDefault().setBatchSize(DataSize.ofKilobytes(64));
		KafkaProducerSettings settings = KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus);
		assertThat(settings.clientConfig()).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 5)
			.containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 65_536)
			.containsEntry(ProducerConfig.ACKS_CONFIG, "1");
		assertThat(settings.raw()).isFalse();
		assertThat(settings.partitionKey()).isNull();
		assertThat(settings.sync()).isFalse();
	}

	@Test
	void producerPropertiesOverrideTheDefaultsInSpringXdUnits() {
		this.bus.setMode("raw");
		KafkaProducerSettings settings = KafkaProducerSettings.resolve(BindingProperties.of(Map.of("batchTimeout",
				"20", "batchSize", "1MB", "requiredAcks", "-1", "partitionKeyExpression", "payload.length",
				"syncProducer", "true", "linger.ms", "7")), this.bus);
		assertThat(settings.clientConfig()).containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 1_048_576)
			.containsEntry(ProducerConfig.ACKS_CONFIG, "all")
			.containsEntry("linger.ms", "7");
		assertThat(settings.raw()).isTrue();
		assertThat(settings.sync()).isTrue();
		assertThat(settings.partitionKey().text()).isEqualTo("payload.length");
	}

	@Test
	void byDefaultTheLeadersAcknowledgementSufficesWithoutIdempotence() {
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ProducerConfig.ACKS_CONFIG, "1")
			.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
	}

	@Test
	void aReplicatedTopicIsSentToWithAcksAllAndIdempotenceUnlessAcksAreSet() {
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus, 3).clientConfig())
			.containsEntry(ProducerConfig.ACKS_CONFIG, "all")
			.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
		// as many replicas as the binding asks for, when the topic's own are not known
		assertThat(KafkaProducerSettings.resolve(BindingProperties.of(Map.of("replicationFactor", "2")), this.bus)
			.clientConfig()).containsEntry(ProducerConfig.ACKS_CONFIG, "all");
		// the topic's replicas win over what the binding asked for
		assertThat(KafkaProducerSettings.resolve(BindingProperties.of(Map.of("replicationFactor", "3")), this.bus, 1)
			.clientConfig()).containsEntry(ProducerConfig.ACKS_CONFIG, "1");
		assertThat(KafkaProducerSettings.resolve(BindingProperties.of(Map.of("requiredAcks", "1")), this.bus, 3)
			.clientConfig()).containsEntry(ProducerConfig.ACKS_CONFIG, "1")
			.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
		this.bus.getDefault().setRequiredAcks(1);
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus, 3).clientConfig())
			.containsEntry(ProducerConfig.ACKS_CONFIG, "1");
		this.bus.getDefault().setRequiredAcks(0);
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus, 1).clientConfig())
			.containsEntry(ProducerConfig.ACKS_CONFIG, "0");
	}

	@Test
	void noLossSendsWithAcksAllAndIdempotenceUnlessAModuleSaysOtherwise() {
		this.bus.setNoLoss(true);
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ProducerConfig.ACKS_CONFIG, "all")
			.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
		assertThat(KafkaProducerSettings.resolve(BindingProperties.of(Map.of("requiredAcks", "1")), this.bus)
			.clientConfig()).containsEntry(ProducerConfig.ACKS_CONFIG, "1")
			.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
	}

	@Test
	void hopsCommitOnAnIntervalPollLargeAndBatchLargeUnlessAModuleSaysOtherwise() {
		KafkaConsumerSettings consumer = KafkaConsumerSettings.resolve(BindingProperties.NONE, this.bus);
		assertThat(consumer.commitInterval()).isEqualTo(Duration.ofMillis(100));
		assertThat(consumer.clientConfig()).containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.of(Map.of("commitInterval", "2s")), this.bus)
			.commitInterval()).isEqualTo(Duration.ofSeconds(2));
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.of(Map.of("commitInterval", "0")), this.bus)
			.commitInterval()).isZero();
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
		// never a batch larger than a request may be
		assertThat(KafkaProducerSettings.resolve(BindingProperties.of(Map.of("max.request.size", "2000")), this.bus)
			.clientConfig()).containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 2000);
	}

	@Test
	void transactionalBusSendsWithAcksAllAndConsumersHandleInTransactionsUnlessAModuleSaysOtherwise() {
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.NONE, this.bus).transactional()).isFalse();
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.of(Map.of("transactional", "true")), this.bus)
			.transactional()).isTrue();
		this.bus.setTransactional(true);
		assertThat(KafkaProducerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ProducerConfig.ACKS_CONFIG, "all")
			.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.NONE, this.bus).transactional()).isTrue();
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.of(Map.of("max.poll.records", "100")), this.bus)
			.clientConfig()).containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "100");
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.of(Map.of("transactional", "false")), this.bus)
			.transactional()).isFalse();
	}

	@Test
	void consumersReadCommittedRecordsOnly() {
		assertThat(KafkaConsumerSettings.resolve(BindingProperties.NONE, this.bus).clientConfig())
			.containsEntry(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
	}

	@Test
	void equalProducerPropertiesResolveToEqualClientConfigurations() {
		BindingProperties properties = BindingProperties.of(Map.of("batchSize", "100"));
		assertThat(KafkaProducerSettings.resolve(properties, this.bus).clientConfig())
			.isEqualTo(KafkaProducerSettings.resolve(properties, this.bus).clientConfig());
	}

	@Test
	void malformedValuesNameTheirKey() {
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaProducerSettings
			.resolve(BindingProperties.of(Map.of("batchTimeout", "soon")), this.bus))
			.withMessageContaining("batchTimeout must be a duration");
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaProducerSettings
			.resolve(BindingProperties.of(Map.of("requiredAcks", "2")), this.bus))
			.withMessageContaining("requiredAcks must be -1 (all), 0 or 1");
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaProducerSettings
			.resolve(BindingProperties.of(Map.of("partitionKeyExpression", "payload.(")), this.bus))
			.withMessageContaining("partitionKeyExpression 'payload.(' is not a valid expression");
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaConsumerSettings
			.resolve(BindingProperties.of(Map.of("concurrency", "0")), this.bus))
			.withMessage("concurrency must be 1 or more, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaConsumerSettings
			.resolve(BindingProperties.of(Map.of("fetchSize", "lots")), this.bus))
			.withMessageContaining("fetchSize must be a size");
	}

	@Test
	void consumerSettingsCarryTheirBackOffAndFetchSize() {
		KafkaConsumerSettings settings = KafkaConsumerSettings.resolve(BindingProperties.of(Map.of("concurrency", "3",
				"maxAttempts", "4", "backOffInitialInterval", "100", "backOffMaxInterval", "2s", "fetchSize", "512KB")),
				this.bus);
		assertThat(settings.concurrency()).isEqualTo(3);
		assertThat(settings.maxAttempts()).isEqualTo(4);
		assertThat(settings.backOffInitialInterval()).isEqualTo(Duration.ofMillis(100));
		assertThat(settings.backOffMaxInterval()).isEqualTo(Duration.ofSeconds(2));
		assertThat(settings.clientConfig()).containsEntry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 524_288)
			.containsEntry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false)
			.containsEntry(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
		var backOff = settings.backOff().start();
		assertThat(backOff.nextBackOff()).isEqualTo(100);
		assertThat(backOff.nextBackOff()).isEqualTo(200);
		assertThat(backOff.nextBackOff()).isEqualTo(400);
		assertThat(backOff.nextBackOff()).as("after the last of 4 attempts").isEqualTo(-1);
	}

	@Test
	void consumersCannotTurnOffCommittingAfterHandling() {
		assertThatIllegalArgumentException().isThrownBy(() -> KafkaConsumerSettings
			.resolve(BindingProperties.of(Map.of("autoCommitOffsetEnabled", "false")), this.bus))
			.withMessageContaining("autoCommitOffsetEnabled=false is not supported");
	}

	@Test
	void theModeIsParsedWhenSetNotWhenRead() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.bus.setMode("json"))
			.withMessageContaining("must be raw, native or embeddedHeaders");
		this.bus.setMode("embeddedHeaders");
		assertThat(this.bus.mode()).isEqualTo(KafkaBusProperties.Mode.NATIVE);
	}
}
