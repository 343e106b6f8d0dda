package io.xd.admin.audit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.xd.admin.stream.SecretMasker;
import io.xd.modules.AbstractModuleProvider;
import io.xd.modules.ModuleMetadata;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleType;
import io.xd.modules.Sink;
import io.xd.modules.builtin.TimeSource;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;

class AuditMaskerTests {

	/** A sink whose module declares a secret under a name that does not say so ({@code apiKey}). */
	private static final AbstractModuleProvider VAULT = new AbstractModuleProvider(new ModuleMetadata(ModuleType.SINK,
			"vault", "Keeps payloads", List.of(ModuleOption.ofString("apiKey").withSecret(),
					ModuleOption.ofString("bucket"))),
			context -> (Sink) message -> {
			}) {
	};

	/** The stored definitions of the streams the properties are for. */
	private static final Map<String, String> STREAMS = Map.of("s", "time | v: vault --bucket=b1");

	private final AuditMasker masker = new AuditMasker(
			new SecretMasker(new ModuleRegistry(List.of(VAULT, new TimeSource.Provider()))), stream -> {
				if (stream.equals("broken")) {
					throw new IllegalStateException("ZooKeeper is away");
				}
				return Optional.ofNullable(STREAMS.get(stream));
			});

	@ParameterizedTest
	@ValueSource(strings = { "password", "app.jdbc.password", "dbPassword", "API_TOKEN", "clientSecret",
			"sasl.credentials", "ssl.key.passphrase", "module.x.consumer.ssl.truststore.Password" })
	void takesANameWhoseLastPartContainsASecretWordAsSecret(String name) {
		assertThat(this.masker.isSecretName(name)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "username", "url", "expression", "module.log.count", "password.file", "secret.path" })
	void looksOnlyAtTheLastDottedPart(String name) {
		assertThat(this.masker.isSecretName(name)).isFalse();
	}

	@Test
	void masksOnlyTheValuesOfSecretOptionsAndKeepsTheRestAsWritten() {
		assertThat(this.masker.maskDefinition("s = time | jdbc --username=sa --password=hunter2 --tableName=t"))
			.isEqualTo("s = time | jdbc --username=sa --password=****** --tableName=t");
		assertThat(this.masker.maskDefinition("time   --fixedDelay=1 |  j: jdbc --DB.Password='a b | c; > d'"))
			.isEqualTo("time   --fixedDelay=1 |  j: jdbc --DB.Password=******");
		assertThat(this.masker.maskDefinition("http | t: transform --expression='it''s' --apiToken=\"x\"\"y\" | log"))
			.isEqualTo("http | t: transform --expression='it''s' --apiToken=****** | log");
	}

	@Test
	void masksTheOptionsTheirModulesDeclareSecret() {
		assertThat(this.masker.maskDefinition("time | vault --apiKey='k 1' --bucket=b1"))
			.isEqualTo("time | vault --apiKey=****** --bucket=b1");
		assertThat(this.masker.maskProperties("app.v.apiKey=k2,app.v.bucket=b2,module.v.count=2", "s"))
			.isEqualTo("app.v.apiKey=******,app.v.bucket=b2,module.v.count=2");
		assertThat(this.masker.maskProperties("app.v.apiKey=k2,app.v.password=p", "unknown"))
			.as("a stream not known: the names alone").isEqualTo("app.v.apiKey=k2,app.v.password=******");
		assertThat(this.masker.maskProperties("app.v.apiKey=k2,app.v.token=t", "broken"))
			.as("a stream that cannot be read").isEqualTo("app.v.apiKey=k2,app.v.token=******");
	}

	@Test
	void leavesADefinitionWithoutSecretsUnchanged() {
		String definition = "time --format='HH:mm' | transform --expression=payload.toUpperCase() | log --level=WARN";
		assertThat(this.masker.maskDefinition(definition)).isEqualTo(definition);
	}

	@Test
	void masksPasswordsInsideOtherValuesSuchAsJdbcUrls() {
		assertThat(this.masker.maskDefinition("time | jdbc --url='jdbc:postgresql://db/x?user=u&password=pw&ssl=true'"))
			.isEqualTo("time | jdbc --url='jdbc:postgresql://db/x?user=u&password=******&ssl=true'");
		assertThat(this.masker.maskDefinition("time | jdbc --url=jdbc:h2:tcp://u:pw@db/x;PASSWORD=pw2;MODE=x"))
			.isEqualTo("time | jdbc --url=jdbc:h2:tcp://u:******@db/x;PASSWORD=******;MODE=x");
	}

	@Test
	void masksTheOptionsOfADefinitionThatDoesNotParse() {
		assertThat(this.masker.maskDefinition("time --password=hunter2 | | log"))
			.isEqualTo("time --password=****** | | log");
		assertThat(this.masker.maskDefinition("time --secret='a b | log")).isEqualTo("time --secret=******");
		assertThat(this.masker.maskDefinition("time --x=1 --token=\"p q\" --x=2 | log"))
			.isEqualTo("time --x=1 --token=****** --x=2 | log");
	}

	@Test
	void masksSecretDeploymentPropertiesWhetherOrNotTheyAreValid() {
		assertThat(this.masker.maskProperties("module.log.count=2, app.jdbc.password=a,b=c,app.jdbc.url=x", null))
			.isEqualTo("module.log.count=2, app.jdbc.password=******,app.jdbc.url=x");
		assertThat(this.masker.maskProperties("app.jdbc.url=jdbc:h2:mem:x;PASSWORD=pw;X=1", null))
			.isEqualTo("app.jdbc.url=jdbc:h2:mem:x;PASSWORD=******;X=1");
		assertThat(this.masker.maskProperties("app.jdbc.password", "s")).isEqualTo("app.jdbc.password");
		assertThat(this.masker.maskProperties("garbage passphrase=x", null)).isEqualTo("garbage passphrase=******");
		assertThat(this.masker.maskProperties("module.*.count=0", "s")).isEqualTo("module.*.count=0");
	}

	@Test
	void masksSecretsQuotedInMessages() {
		assertThat(this.masker.maskText("Deployment property 'app.jdbc.secretKey=abc' is given twice"))
			.isEqualTo("Deployment property 'app.jdbc.secretKey=******' is given twice");
		assertThat(this.masker.maskText("Could not resolve https://me:pw@repo.example/maven2 (401)"))
			.isEqualTo("Could not resolve https://me:******@repo.example/maven2 (401)");
		assertThat(this.masker.maskText("no secrets, a password mentioned")).isEqualTo(
				"no secrets, a password mentioned");
	}
}
