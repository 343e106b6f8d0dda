package io.xd.admin.stream;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.xd.core.BindingKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DeploymentPropertiesTests {

	/** A transport without binding properties, as the local bus declares it. */
	private static final BindingKeys LOCAL = BindingKeys.none("local");

	/** A transport with some binding properties and client properties, as the Kafka bus declares them. */
	private static final BindingKeys KAFKA = new BindingKeys("kafka", Set.of("batchSize"), Set.of("concurrency"),
			"linger.ms", Set.of("bootstrap.servers", "sasl.", ".classes"));

	private static final Set<String> LABELS = Set.of("time", "log");

	@Test
	void partitionKeyExpressionsGoThroughTheSafeEvaluator() {
		BindingKeys kafka = new BindingKeys("kafka", Set.of("partitionKeyExpression"), Set.of(), "linger.ms",
				Set.of());
		DeploymentProperties.parse("module.time.producer.partitionKeyExpression=headers['customer']")
			.validate(LABELS, kafka);
		for (String expression : new String[] { "payload.getClass().getClassLoader()", "T(java.lang.Runtime)",
				"payload.repeat(1000000)", "new java.io.File('/')" }) {
			assertThatIllegalArgumentException().as(expression)
				.isThrownBy(() -> DeploymentProperties.parse("module.time.producer.partitionKeyExpression=" + expression)
					.validate(LABELS, kafka))
				.withMessageContaining("partitionKeyExpression");
		}
	}

	@Test
	void moduleKeysOverrideWildcardKeys() {
		DeploymentProperties properties = DeploymentProperties
			.parse("module.*.count=0, module.log.count=2,module.log.criteria=groups.contains('a')");
		properties.validate(LABELS, LOCAL);
		assertThat(properties.count("time")).isZero();
		assertThat(properties.count("log")).isEqualTo(2);
		assertThat(properties.criteria("log")).isEqualTo("groups.contains('a')");
		assertThat(properties.criteria("time")).isNull();
	}

	@Test
	void countDefaultsToOne() {
		DeploymentProperties properties = DeploymentProperties.parse("");
		properties.validate(LABELS, LOCAL);
		assertThat(properties.count("log")).isEqualTo(1);
		assertThat(properties.forModule("log")).isEmpty();
	}

	@Test
	void bindingPropertiesAreSplitBySide() {
		DeploymentProperties properties = DeploymentProperties
			.of(Map.of("module.log.consumer.concurrency", "3", "module.*.producer.batchSize", "100"));
		properties.validate(LABELS, KAFKA);
		assertThat(properties.binding("log", "consumer")).containsEntry("concurrency", "3");
		assertThat(properties.binding("log", "producer")).containsEntry("batchSize", "100");
	}

	@Test
	void bindingKeysATransportDoesNotDeclareAreRefusedBeforeDeployment() {
		DeploymentProperties properties = DeploymentProperties
			.parse("module.log.consumer.colour=red, module.log.producer.linger.ms=5, module.log.producer.batchSize=1");
		assertThatIllegalArgumentException().isThrownBy(() -> properties.validate(LABELS, KAFKA))
			.withMessageContaining("'module.log.consumer.colour': the kafka transport does not support consumer "
					+ "property: colour (supported: concurrency, and any client property such as linger.ms)")
			.withMessageNotContaining("linger.ms=")
			.withMessageNotContaining("batchSize'");
	}

	@Test
	void clientPropertiesTheOperatorSetsAreRefused() {
		DeploymentProperties properties = DeploymentProperties.parse("module.log.consumer.sasl.jaas.config=x, "
				+ "module.log.producer.bootstrap.servers=evil:9092, module.time.producer.interceptor.classes=a.B, "
				+ "module.log.consumer.max.poll.records=10");
		assertThatIllegalArgumentException().isThrownBy(() -> properties.validate(LABELS, KAFKA))
			.withMessageContaining("'module.log.consumer.sasl.jaas.config': the kafka transport does not let a stream "
					+ "set consumer property: sasl.jaas.config (where clients connect, their credentials and the "
					+ "classes they load are the operator's settings, in xd.messagebus.kafka.*)")
			.withMessageContaining("producer property: bootstrap.servers")
			.withMessageContaining("producer property: interceptor.classes")
			.withMessageNotContaining("max.poll.records");
	}

	@Test
	void bindingPropertiesAreRefusedByATransportWithoutThem() {
		DeploymentProperties properties = DeploymentProperties.parse("module.log.consumer.concurrency=3");
		assertThatIllegalArgumentException().isThrownBy(() -> properties.validate(LABELS, LOCAL))
			.withMessageContaining("local transport does not support binding properties")
			.withMessageContaining("module.log.consumer.concurrency");
	}

	@ParameterizedTest
	@ValueSource(strings = { "count=1", "module.count=1", "module.nope.count=1", "module.log.colour=red",
			"module.log.count=x", "module.log.count=-1", "module.log.count=1.5", "module.*.count=99999999999",
			"module.log.criteria=((", "module.log.criteria=T(java.lang.Runtime).getRuntime()" })
	void namesTheBadKey(String text) {
		String key = text.substring(0, text.indexOf('='));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DeploymentProperties.parse(text).validate(LABELS, LOCAL))
			.withMessageContaining(key.contains("criteria") ? "criteria '" : key);
	}

	@ParameterizedTest
	@ValueSource(strings = { "module.*.count", "module.*.count=1,module.*.count=2", "=1", "module.*.count=1, junk" })
	void refusesMalformedText(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> DeploymentProperties.parse(text)
			.validate(LABELS, LOCAL));
	}
}
