package io.xd.modules;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.xd.modules.expression.SafeExpression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ModuleMetadataTests {

	private static final ModuleOption<Integer> SIZE = ModuleOption.ofInt("size").withDefault(10).withMin(1)
		.withDescription("the size");

	private static final ModuleOption<Boolean> ENABLED = ModuleOption.ofBoolean("enabled").withDefault(false);

	private static final ModuleOption<String> UNIT = ModuleOption.ofChoice("unit", "ms", "s").withDefault("s");

	private static final ModuleOption<String> NAME = ModuleOption.ofString("name");

	private final ModuleMetadata metadata = new ModuleMetadata(ModuleType.SOURCE, "sample", "A sample",
			List.of(SIZE, ENABLED, UNIT, NAME));

	@Test
	void resolvesDefaultsForOptionsNotGiven() {
		ModuleOptions options = this.metadata.resolve(Map.of());

		assertThat(options.get(SIZE)).isEqualTo(10);
		assertThat(options.get(ENABLED)).isFalse();
		assertThat(options.get(UNIT)).isEqualTo("s");
		assertThat(options.get(NAME)).isNull();
	}

	@Test
	void parsesGivenValuesToTheirTypes() {
		ModuleOptions options = this.metadata.resolve(Map.of("size", "42", "enabled", "TRUE", "unit", "MS", "name", "x y"));

		assertThat(options.get(SIZE)).isEqualTo(42);
		assertThat(options.get(ENABLED)).isTrue();
		assertThat(options.get(UNIT)).isEqualTo("ms");
		assertThat(options.get(NAME)).isEqualTo("x y");
	}

	@Test
	void rejectsAnUnknownOptionListingTheValidOnes() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> this.metadata.resolve(Map.of("sise", "3")))
			.withMessage("Invalid options for module source:sample: unknown option 'sise'; "
					+ "valid options are enabled, name, outputType, size, unit");
	}

	@Test
	void rejectsAnIllTypedValueNamingTheOptionAndType() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> this.metadata.resolve(Map.of("size", "big")))
			.withMessageContaining("option 'size' expects an integer, but got 'big'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> this.metadata.resolve(Map.of("enabled", "yes")))
			.withMessageContaining("option 'enabled' expects true or false, but got 'yes'");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> this.metadata.resolve(Map.of("unit", "h")))
			.withMessageContaining("option 'unit' expects one of ms, s, but got 'h'");
	}

	@Test
	void rejectsAValueThatBreaksTheRule() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> this.metadata.resolve(Map.of("size", "0")))
			.withMessageContaining("option 'size' must be at least 1, but got '0'");
	}

	@Test
	void reportsEveryProblemAtOnce() {
		Map<String, String> given = new LinkedHashMap<>();
		given.put("size", "-1");
		given.put("colour", "red");

		assertThatExceptionOfType(ModuleOptionException.class).isThrownBy(() -> this.metadata.resolve(given))
			.satisfies(ex -> assertThat(ex.problems()).hasSize(2));
	}

	@Test
	void aModuleWithoutOptionsOfItsOwnStillTakesTheConversionOptions() {
		ModuleMetadata bare = new ModuleMetadata(ModuleType.PROCESSOR, "bare", "", List.of());

		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> bare.resolve(Map.of("x", "1")))
			.withMessageContaining("valid options are inputType, outputType");
	}

	@Test
	void refusesToDeclareAnOptionTwice() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new ModuleMetadata(ModuleType.SINK, "twice", "", List.of(SIZE, SIZE)));
	}

	@Test
	void refusesToReadAnOptionTheModuleDoesNotDeclare() {
		ModuleOptions options = this.metadata.resolve(Map.of());

		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> options.get(ModuleOption.ofInt("other")));
	}

	@Test
	void tellsAGivenValueFromADefault() {
		ModuleOptions options = this.metadata.resolve(Map.of("size", "10"));

		assertThat(options.isGiven(SIZE)).isTrue();
		assertThat(options.isGiven(UNIT)).isFalse();
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> options.isGiven(ModuleOption.ofInt("other")));
	}

	@Test
	void parsesDurationsWithAUnitOrInIso8601() {
		ModuleOption<Duration> timeout = ModuleOption.ofDuration("timeout");

		assertThat(timeout.parse("250ms")).isEqualTo(Duration.ofMillis(250));
		assertThat(timeout.parse("30s")).isEqualTo(Duration.ofSeconds(30));
		assertThat(timeout.parse("2M")).isEqualTo(Duration.ofMinutes(2));
		assertThat(timeout.parse("1h")).isEqualTo(Duration.ofHours(1));
		assertThat(timeout.parse("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
		assertThat(timeout.typeName()).isEqualTo("duration");
	}

	@Test
	void rejectsADurationWithoutAUnit() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> ModuleOption.ofDuration("timeout").parse("30"))
			.withMessage("option 'timeout' expects a duration such as 500ms, 30s, 2m or 1h, but got '30'");
	}

	@Test
	void refusesAForbiddenExpressionNamingTheModuleAndTheOption() {
		ModuleOption<SafeExpression> expression = ModuleOption.ofExpression("expression")
			.withDefault(SafeExpression.parse("payload"));
		ModuleMetadata transform = new ModuleMetadata(ModuleType.PROCESSOR, "transform", "Transforms",
				List.of(expression));

		assertThat(transform.resolve(Map.of("expression", "payload.trim()")).get(expression).text())
			.isEqualTo("payload.trim()");
		assertThat(transform.resolve(Map.of()).get(expression).isPayload()).isTrue();
		assertThat(expression.typeName()).isEqualTo("expression");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> transform.resolve(Map.of("expression", "T(java.lang.Runtime).getRuntime()")))
			.withMessage("Invalid options for module processor:transform: option 'expression' expects a SpEL "
					+ "expression, but got 'T(java.lang.Runtime).getRuntime()' (type references T(...) are not allowed)");
	}

	@Test
	void showsTheReasonAModuleDefinedTypeRefusedAValue() {
		ModuleOption<Integer> even = ModuleOption.ofType("even", "an even number", Integer.class, text -> {
			int value = Integer.parseInt(text);
			if (value % 2 != 0) {
				throw new IllegalArgumentException(value + " is odd");
			}
			return value;
		});

		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> even.parse("3"))
			.withMessage("option 'even' expects an even number, but got '3' (3 is odd)");
	}
}
