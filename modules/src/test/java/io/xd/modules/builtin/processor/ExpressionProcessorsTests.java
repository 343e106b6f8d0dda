package io.xd.modules.builtin.processor;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.ModuleOptionException;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code transform}, {@code filter}, {@code splitter} and {@code json-path}. */
class ExpressionProcessorsTests {

	private static final Message<String> HELLO = MessageBuilder.withPayload("hello").setHeader("h", "v").build();

	@Test
	void transformReplacesThePayloadAndKeepsTheHeaders() {
		ModuleTestDriver transform = ModuleTestDriver.of(new TransformProcessor.Provider(),
				Map.of("expression", "payload.toUpperCase() + headers['h']"));

		transform.send(HELLO);

		Message<?> out = transform.received().get(0);
		assertThat(out.getPayload()).isEqualTo("HELLOv");
		assertThat(out.getHeaders()).isSameAs(HELLO.getHeaders());
	}

	@Test
	void transformByDefaultPassesTheMessageItselfOn() {
		ModuleTestDriver transform = ModuleTestDriver.of(new TransformProcessor.Provider());
		transform.send(HELLO);
		assertThat(transform.received().get(0)).isSameAs(HELLO);
	}

	@Test
	void transformFailsANullResult() {
		ModuleTestDriver transform = ModuleTestDriver.of(new TransformProcessor.Provider(),
				Map.of("expression", "headers['missing']"));
		assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> transform.send(HELLO))
			.withMessageContaining("gave null");
	}

	@Test
	void transformRefusesAForbiddenExpressionNamingModuleAndOption() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new TransformProcessor.Provider(),
					Map.of("expression", "new java.io.File('x')")))
			.withMessageContaining("processor:transform")
			.withMessageContaining("option 'expression'")
			.withMessageContaining("constructors (new ...) are not allowed");
	}

	@Test
	void filterDropsAndCountsMessagesForWhichTheExpressionIsFalse() {
		ModuleTestDriver filter = ModuleTestDriver.of(new FilterProcessor.Provider(),
				Map.of("expression", "payload.length() > 3"));

		filter.send("a").send(HELLO).send("abc").send("abcd");

		assertThat(filter.receivedPayloads()).containsExactly("hello", "abcd");
		assertThat(filter.received().get(0)).isSameAs(HELLO);
		assertThat(filter.<FilterProcessor>module().dropped()).isEqualTo(2);
	}

	@Test
	void filterByDefaultPassesEverything() {
		ModuleTestDriver filter = ModuleTestDriver.of(new FilterProcessor.Provider());
		filter.send("a").send(1);
		assertThat(filter.receivedPayloads()).containsExactly("a", 1);
	}

	@Test
	void filterRefusesARegex() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new FilterProcessor.Provider(),
					Map.of("expression", "payload matches '(a+)+b'")))
			.withMessageContaining("processor:filter: option 'expression'")
			.withMessageContaining("the 'matches' operator is not allowed");
	}

	@Test
	void splitterSendsOneMessagePerElement() {
		ModuleTestDriver splitter = ModuleTestDriver.of(new SplitterProcessor.Provider());

		splitter.send(MessageBuilder.withPayload(List.of("a", "b", "c")).setHeader("h", 1).build());
		splitter.send(new String[] { "d" });
		splitter.send("single");

		assertThat(splitter.receivedPayloads()).containsExactly("a", "b", "c", "d", "single");
		assertThat(splitter.received().get(1).getHeaders().get("h")).isEqualTo(1);
	}

	@Test
	void splitterSplitsTheExpressionsValue() {
		ModuleTestDriver splitter = ModuleTestDriver.of(new SplitterProcessor.Provider(),
				Map.of("expression", "payload.split(',')"));
		splitter.send("x,y");
		assertThat(splitter.receivedPayloads()).containsExactly("x", "y");
	}

	@Test
	void splitterFailsAMessageThatWouldGiveMoreMessagesThanItsCapAndSendsNoneOfThem() {
		ModuleTestDriver splitter = ModuleTestDriver.of(new SplitterProcessor.Provider(), Map.of("delimiters", ","));

		assertThatExceptionOfType(MessageHandlingException.class)
			.isThrownBy(() -> splitter.send(",x".repeat(SplitterProcessor.MAX_PARTS + 1)))
			.withMessageContaining("at most " + SplitterProcessor.MAX_PARTS);
		assertThat(splitter.receivedPayloads()).isEmpty();
		splitter.send(",x".repeat(SplitterProcessor.MAX_PARTS));
		assertThat(splitter.receivedPayloads()).hasSize(SplitterProcessor.MAX_PARTS);
	}

	@Test
	void jsonPathRefusesRegularExpressionFilters() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new JsonPathProcessor.Provider(),
					Map.of("expression", "$.items[?(@.sku =~ /(x+x+)+y/)]")))
			.withMessageContaining("without regular expressions");
	}

	@Test
	void splitterSplitsTextOnLiteralDelimiters() {
		ModuleTestDriver splitter = ModuleTestDriver.of(new SplitterProcessor.Provider(),
				Map.of("delimiters", ",.*"));

		splitter.send("a,b.c**d,");
		splitter.send("e*f".getBytes(StandardCharsets.UTF_8));

		assertThat(splitter.receivedPayloads()).containsExactly("a", "b", "c", "d", "e", "f");
	}

	@Test
	void jsonPathSendsTheValueAtThePath() {
		ModuleTestDriver jsonPath = ModuleTestDriver.of(new JsonPathProcessor.Provider(),
				Map.of("expression", "$.order.id"));

		jsonPath.send("{\"order\":{\"id\":\"A-1\"}}");
		jsonPath.send("{\"order\":{\"id\":7}}".getBytes(StandardCharsets.UTF_8));

		assertThat(jsonPath.receivedPayloads()).containsExactly("A-1", 7);
	}

	@Test
	void jsonPathSendsObjectsAsJsonText() {
		ModuleTestDriver jsonPath = ModuleTestDriver.of(new JsonPathProcessor.Provider(),
				Map.of("expression", "$.order"));
		jsonPath.send(MessageBuilder.withPayload("{\"order\":{\"id\":1}}").setHeader("h", "v").build());
		assertThat(jsonPath.receivedPayloads()).containsExactly("{\"id\":1}");
		assertThat(jsonPath.received().get(0).getHeaders().get("h")).isEqualTo("v");
	}

	@Test
	void jsonPathFailsAMissingPath() {
		ModuleTestDriver jsonPath = ModuleTestDriver.of(new JsonPathProcessor.Provider(),
				Map.of("expression", "$.nothing"));
		assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> jsonPath.send("{\"a\":1}"))
			.withMessageContaining("json-path '$['nothing']' could not be read");
	}

	@Test
	void jsonPathRefusesAnInvalidPath() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new JsonPathProcessor.Provider(), Map.of("expression", "$.[")))
			.withMessageContaining("option 'expression' must be a JsonPath");
	}
}
