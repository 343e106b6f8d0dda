package io.xd.modules;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.util.MimeType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Spring XD's {@code --inputType} and {@code --outputType}, as every module declares them. */
class TypeConversionTests {

	private static ModuleMetadata module(ModuleType type) {
		return new ModuleMetadata(type, "m", "a module", List.of(ModuleOption.ofInt("size")));
	}

	@Test
	void sourcesGetOutputTypeSinksInputTypeAndProcessorsBoth() {
		assertThat(module(ModuleType.SOURCE).options()).extracting(ModuleOption::name)
			.containsExactly("size", "outputType");
		assertThat(module(ModuleType.PROCESSOR).options()).extracting(ModuleOption::name)
			.containsExactly("size", "inputType", "outputType");
		assertThat(module(ModuleType.SINK).options()).extracting(ModuleOption::name)
			.containsExactly("size", "inputType");
	}

	@Test
	void theSupportedMediaTypesResolve() {
		ModuleOptions options = module(ModuleType.PROCESSOR)
			.resolve(Map.of("inputType", "text/plain;charset=ISO-8859-1", "outputType", "application/json"));
		assertThat(options.get(TypeConversion.INPUT_TYPE)).isEqualTo(MimeType.valueOf("text/plain;charset=ISO-8859-1"));
		assertThat(options.get(TypeConversion.OUTPUT_TYPE)).isEqualTo(MimeType.valueOf("application/json"));
		for (String type : List.of("text/csv", "application/x-xd-tuple", "application/octet-stream")) {
			assertThat(TypeConversion.parse(type)).isEqualTo(MimeType.valueOf(type));
		}
	}

	@Test
	void otherTypesClassNamesAndUnknownCharsetsAreRefusedWithTheSupportedList() {
		for (String type : List.of("application/xml", "com.acme.Order", "application/x-java-object;type=com.acme.Order",
				"text/plain;charset=klingon")) {
			assertThatExceptionOfType(ModuleOptionException.class)
				.isThrownBy(() -> module(ModuleType.SINK).resolve(Map.of("inputType", type)))
				.withMessageContaining("option 'inputType'");
		}
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> module(ModuleType.SINK).resolve(Map.of("inputType", "application/xml")))
			.withMessageContaining("supported media types are text/*, application/json");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> module(ModuleType.SOURCE).resolve(Map.of("inputType", "text/plain")))
			.withMessageContaining("unknown option 'inputType'");
	}
}
