package io.xd.modules.expression;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.support.MessageBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SafeExpressionTests {

	private static final Message<String> TEXT = MessageBuilder.withPayload("Hello, World")
		.setHeader("kind", "greeting")
		.setHeader("count", 3)
		.build();

	private static final String JSON = "{\"a\":{\"b\":\"deep\",\"n\":[1,2,3]},\"ok\":true}";

	static Stream<Arguments> allowed() {
		return Stream.of(
				Arguments.of("payload", TEXT, "Hello, World"),
				Arguments.of("true", TEXT, true),
				Arguments.of("payload.toUpperCase()", TEXT, "HELLO, WORLD"),
				Arguments.of("payload.length()", TEXT, 12),
				Arguments.of("payload.substring(0, 5) + '!'", TEXT, "Hello!"),
				Arguments.of("payload.contains('World') and headers['count'] > 2", TEXT, true),
				Arguments.of("headers['kind']", TEXT, "greeting"),
				Arguments.of("headers.kind", TEXT, "greeting"),
				Arguments.of("headers['missing'] ?: 'none'", TEXT, "none"),
				Arguments.of("payload.replace('l', 'L')", TEXT, "HeLLo, WorLd"),
				Arguments.of("payload.split(', ').length", TEXT, 2),
				Arguments.of("payload.split('.')[0]", TEXT, "Hello, World"),
				Arguments.of("payload.trim().isEmpty() ? 'empty' : 'full'", TEXT, "full"),
				Arguments.of("{1, 2, 3}.size()", TEXT, 3),
				Arguments.of("{1, 2, 3}.?[#this > 1]", TEXT, List.of(2, 3)),
				Arguments.of("headers['count'].intValue() * 2", TEXT, 6),
				Arguments.of("#jsonPath(payload, '$.a.b')", message(JSON), "deep"),
				Arguments.of("#jsonPath(payload, '$.a.n').size()", message(JSON), 3),
				Arguments.of("#jsonPath(payload, '$.a').b", message(JSON.getBytes(StandardCharsets.UTF_8)), "deep"),
				Arguments.of("payload.length", message(new byte[7]), 7),
				Arguments.of("'ab' * 3", TEXT, "ababab"));
	}

	static Stream<Arguments> forbidden() {
		return Stream.of(
				Arguments.of("T(java.lang.Runtime).getRuntime()", "type references T(...) are not allowed"),
				Arguments.of("new java.io.File('x')", "constructors (new ...) are not allowed"),
				Arguments.of("@bean", "bean references (@name, &name) are not allowed"),
				Arguments.of("&factory", "bean references (@name, &name) are not allowed"),
				Arguments.of("payload.getClass().forName('x')", "method 'getClass' is not allowed"),
				Arguments.of("payload matches '(a+)+b'",
						"the 'matches' operator is not allowed: a regular expression may backtrack without bound"),
				Arguments.of("payload.matches('(a+)+b')",
						"method 'matches' is not allowed: a regular expression may backtrack without bound"),
				Arguments.of("payload.replaceAll('(a+)+b', '')",
						"method 'replaceAll' is not allowed: a regular expression may backtrack without bound"),
				Arguments.of("payload.replaceFirst('a', '')",
						"method 'replaceFirst' is not allowed: a regular expression may backtrack without bound"),
				Arguments.of("'a'.repeat(100000000)", "method 'repeat' is not allowed"),
				Arguments.of("#systemProperties['user.home']", "variable '#systemProperties' is not defined"),
				Arguments.of("#exec('ls')", "function '#exec' is not defined"),
				Arguments.of("headers['x'] = 1", "assignment is not allowed"),
				Arguments.of("payload.wait()", "method 'wait' is not allowed"),
				Arguments.of("payload +", "not a valid expression"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("allowed")
	void evaluatesAllowedExpressions(String text, Message<?> message, Object expected) {
		SafeExpression expression = SafeExpression.parse(text);
		for (int i = 0; i < 200; i++) {
			// often enough for SpEL's MIXED mode to compile the expressions it can
			assertThat(expression.evaluate(message)).isEqualTo(expected);
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("forbidden")
	void refusesForbiddenExpressionsWhenParsed(String text, String reason) {
		assertThatIllegalArgumentException().isThrownBy(() -> SafeExpression.parse(text)).withMessageContaining(reason);
	}

	@Test
	void boundsRepeatedText() {
		SafeExpression expression = SafeExpression.parse("'a' * 100000000");
		assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> expression.evaluate(TEXT))
			.withMessageContaining("'a' * 100000000");
	}

	@Test
	void refusesAtRunTimeAMethodNotAllowedOnTheValuesType() {
		// 'size' is allowed on collections, not on strings
		SafeExpression expression = SafeExpression.parse("payload.size()");
		assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> expression.evaluate(TEXT))
			.withMessageContaining("Expression 'payload.size()' failed");
	}

	@Test
	void doesNotReadPropertiesOfArbitraryObjects() {
		SafeExpression expression = SafeExpression.parse("payload.class");
		assertThatExceptionOfType(MessageHandlingException.class).isThrownBy(() -> expression.evaluate(TEXT));
	}

	@Test
	void boundsTheTextAnExpressionBuilds() {
		String tooMany = "payload" + " + payload".repeat(65);
		assertThatIllegalArgumentException().isThrownBy(() -> SafeExpression.parse(tooMany))
			.withMessageContaining("at most 64 operations (+, concat, replace), this one has 65");
		String chained = "payload" + ".concat(payload)".repeat(33) + ".replace('a', 'b')".repeat(32);
		assertThatIllegalArgumentException().isThrownBy(() -> SafeExpression.parse(chained))
			.withMessageContaining("this one has 65");
		assertThat(SafeExpression.parse("payload" + " + payload".repeat(64)).evaluate(message("ab")))
			.isEqualTo("ab".repeat(65));

		SafeExpression growing = SafeExpression.parse("payload.replace('', payload).replace('', payload)");
		String kilobyte = "x".repeat(1024);
		assertThatExceptionOfType(MessageHandlingException.class)
			.isThrownBy(() -> growing.evaluate(message(kilobyte)))
			.withMessageContaining("replace would add");
		assertThat(SafeExpression.parse("payload.replace('a', 'bb')").evaluate(message("aXa"))).isEqualTo("bbXbb");
		assertThat(SafeExpression.parse("payload.replace(',', ';')").evaluate(message("a,b"))).isEqualTo("a;b");
	}

	@Test
	void refusesJsonPathRegularExpressions() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SafeExpression.parse("#jsonPath(payload, '$[?(@.name =~ /(a+)+$/)]')"))
			.withMessageContaining("'=~'");
		SafeExpression dynamic = SafeExpression.parse("#jsonPath(payload, headers['path'])");
		assertThatExceptionOfType(MessageHandlingException.class)
			.isThrownBy(() -> dynamic.evaluate(MessageBuilder.withPayload("[{\"name\":\"aaa\"}]")
				.setHeader("path", "$[?(@.name =~ /a+/)]")
				.build()))
			.withMessageContaining("'=~'");
	}

	@Test
	void splitsOnLiteralText() {
		SafeExpression expression = SafeExpression.parse("payload.split('a+')");
		assertThat((String[]) expression.evaluate(message("xa+yaaz"))).containsExactly("x", "yaaz");
	}

	@Test
	void testsConditions() {
		assertThat(SafeExpression.parse("payload.startsWith('Hello')").test(TEXT)).isTrue();
		assertThat(SafeExpression.parse("false").test(TEXT)).isFalse();
		assertThat(SafeExpression.parse("headers['missing']").test(TEXT)).isFalse();
	}

	@Test
	void recognisesPayload() {
		assertThat(SafeExpression.parse("payload").isPayload()).isTrue();
		assertThat(SafeExpression.parse("payload.trim()").isPayload()).isFalse();
		assertThat(SafeExpression.parse("payload").toString()).isEqualTo("payload");
	}

	@Test
	void compilesHotExpressionsByThemselves() throws Exception {
		assertThat(compiles("payload.toUpperCase() + headers['kind']", TEXT)).isTrue();
		assertThat(compiles("headers.kind.length() > 2", TEXT)).isTrue();
		assertThat(compiles("payload.length * 2", message(new byte[3]))).isTrue();
		assertThat(compiles("#jsonPath(payload, '$.a.b')", message(JSON))).isTrue();
	}

	private static boolean compiles(String text, Message<?> message) throws Exception {
		SafeExpression expression = SafeExpression.parse(text);
		for (int i = 0; i < 200; i++) {
			expression.evaluate(message);
		}
		java.lang.reflect.Field field = SafeExpression.class.getDeclaredField("expression");
		field.setAccessible(true);
		Object spel = field.get(expression);
		// SpEL compiles in MIXED mode by itself, after 100 interpreted evaluations, when the context supports it
		java.lang.reflect.Field compiled = spel.getClass().getDeclaredField("compiledAst");
		compiled.setAccessible(true);
		return compiled.get(spel) != null;
	}

	private static Message<?> message(Object payload) {
		return MessageBuilder.withPayload(payload).build();
	}

}
