package io.xd.modules.expression;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

import com.jayway.jsonpath.JsonPath;

import org.springframework.expression.EvaluationException;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.BooleanLiteral;
import org.springframework.expression.spel.ast.PropertyOrFieldReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandlingException;

/**
 * A SpEL expression that is safe to evaluate on messages from anyone: parsed and checked once, when the module's
 * options are resolved (so a forbidden construct fails {@code stream create}, not the first message), then evaluated
 * against a {@link Message} in a restricted context.
 * <p>
 * What an expression may use:
 * <ul>
 * <li>{@code payload} and {@code headers} of the message, {@code headers['name']} or {@code headers.name}, keys of
 * maps ({@code #jsonPath(payload, '$.a').b}), {@code length} of arrays, indexing of lists and arrays;</li>
 * <li>literals, operators (arithmetic, comparison, logical, ternary, Elvis, safe navigation), inline lists and maps,
 * selection and projection, {@code #this} and {@code #root};</li>
 * <li>an allowlist of methods: common {@code String}, number, collection and map methods;
 * {@code split} splits on its argument <em>literally</em> (no regular expression);</li>
 * <li>the function {@code #jsonPath(json, path)}: JSON text or UTF-8 bytes in, the value at a JsonPath out.</li>
 * </ul>
 * What it may not: type references ({@code T(...)}), constructors ({@code new}), bean references ({@code @bean}),
 * assignment, other variables or functions, any method outside the allowlist (so no reflection, {@code getClass()},
 * {@code repeat}), the {@code matches} operator and regular-expression methods ({@code matches},
 * {@code replaceAll}, {@code replaceFirst}), which may backtrack without bound on a crafted input.
 * <p>
 * Expressions are compiled to bytecode where SpEL can ({@link SpelCompilerMode#MIXED}): after a few interpreted
 * evaluations, property reads of the message, allowlisted method calls and operators run as compiled code, falling
 * back to interpretation if the types change. The expressions {@code payload} and {@code true}/{@code false} are
 * recognised and never evaluated through SpEL at all. Instances are immutable and thread-safe.
 */
public final class SafeExpression {

	private static final SpelExpressionParser PARSER = new SpelExpressionParser(
			new SpelParserConfiguration(SpelCompilerMode.MIXED, SafeExpression.class.getClassLoader()));

	private enum Shape {
		PAYLOAD, CONSTANT, GENERAL
	}

	private final String text;

	private final SpelExpression expression;

	private final Shape shape;

	private final Object constant;

	private SafeExpression(String text, SpelExpression expression) {
		this.text = text;
		this.expression = expression;
		if (expression.getAST() instanceof PropertyOrFieldReference property && property.getName().equals("payload")
				&& !property.isNullSafe()) {
			this.shape = Shape.PAYLOAD;
			this.constant = null;
		}
		else if (expression.getAST() instanceof BooleanLiteral literal) {
			this.shape = Shape.CONSTANT;
			this.constant = literal.getLiteralValue().getValue();
		}
		else {
			this.shape = Shape.GENERAL;
			this.constant = null;
		}
	}

	/**
	 * Parses and checks an expression.
	 * @throws IllegalArgumentException with one sentence saying what is wrong: not valid SpEL, or the first forbidden
	 * construct found (for example {@code type references T(...) are not allowed})
	 */
	public static SafeExpression parse(String text) {
		Objects.requireNonNull(text, "text");
		SpelExpression expression;
		try {
			expression = (SpelExpression) PARSER.parseRaw(text);
		}
		catch (ParseException ex) {
			throw new IllegalArgumentException("not a valid expression: " + ex.getSimpleMessage(), ex);
		}
		ExpressionChecker.check(expression.getAST());
		return new SafeExpression(text, expression);
	}

	/** Whether this expression is exactly {@code payload}, so a module may pass the message on untouched. */
	public boolean isPayload() {
		return this.shape == Shape.PAYLOAD;
	}

	/**
	 * Evaluates this expression on a message.
	 * @throws MessageHandlingException when evaluation fails (a method not allowed on the value's type, a missing
	 * JSON path, ...), naming the expression
	 */
	public Object evaluate(Message<?> message) {
		switch (this.shape) {
			case PAYLOAD:
				return message.getPayload();
			case CONSTANT:
				return this.constant;
			default:
				try {
					return this.expression.getValue(SafeEvaluation.CONTEXT, message);
				}
				catch (EvaluationException | IllegalStateException ex) {
					throw failure(message, ex);
				}
		}
	}

	/**
	 * Evaluates this expression on a message and converts the result to {@code type} with SpEL's standard
	 * conversions.
	 * @throws MessageHandlingException when evaluation or conversion fails
	 */
	public <T> T evaluate(Message<?> message, Class<T> type) {
		if (this.shape == Shape.CONSTANT && type.isInstance(this.constant)) {
			return type.cast(this.constant);
		}
		try {
			return this.expression.getValue(SafeEvaluation.CONTEXT, message, type);
		}
		catch (EvaluationException | IllegalStateException ex) {
			throw failure(message, ex);
		}
	}

	/**
	 * Evaluates this expression on a message as a condition: {@code true} only for a {@code Boolean.TRUE} result (or a
	 * value that converts to it, such as the text {@code "true"}); {@code null} counts as false.
	 * @throws MessageHandlingException when evaluation or conversion fails
	 */
	public boolean test(Message<?> message) {
		if (this.shape == Shape.CONSTANT) {
			return Boolean.TRUE.equals(this.constant);
		}
		return Boolean.TRUE.equals(evaluate(message, Boolean.class));
	}

	/**
	 * Evaluates this expression as a condition on named values (read as properties: {@code host == 'a'},
	 * {@code groups.contains('east')}), such as the attributes a deployment's criteria test.
	 * @return {@code true} only for a {@code Boolean.TRUE} result
	 * @throws IllegalArgumentException when evaluation fails, naming the expression and the reason
	 */
	public boolean test(Map<String, ?> values) {
		if (this.shape == Shape.CONSTANT) {
			return Boolean.TRUE.equals(this.constant);
		}
		try {
			return Boolean.TRUE.equals(this.expression.getValue(SafeEvaluation.CONTEXT, values, Boolean.class));
		}
		catch (EvaluationException | IllegalStateException ex) {
			String reason = (ex instanceof EvaluationException evaluation) ? evaluation.getSimpleMessage()
					: ex.getMessage();
			throw new IllegalArgumentException("Expression '" + this.text + "' failed: " + reason, ex);
		}
	}

	private MessageHandlingException failure(Message<?> message, RuntimeException ex) {
		String reason = (ex instanceof EvaluationException evaluation) ? evaluation.getSimpleMessage() : ex.getMessage();
		return new MessageHandlingException(message, "Expression '" + this.text + "' failed: " + reason, ex);
	}

	/**
	 * The {@code #jsonPath(json, path)} function of expressions: the value at {@code path} in {@code json}, given as
	 * JSON text or as UTF-8 bytes; objects come back as maps, arrays as lists.
	 * @throws com.jayway.jsonpath.PathNotFoundException when the path does not exist in the document
	 * @throws com.jayway.jsonpath.InvalidPathException when {@code path} is not a JsonPath
	 */
	public static Object jsonPath(Object json, String path) {
		checkJsonPath(path);
		String document = (json instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: String.valueOf(json);
		return JsonPath.read(document, path);
	}

	/**
	 * Refuses a JsonPath whose filters match regular expressions ({@code =~}), which may backtrack without bound on a
	 * crafted document, as the {@code matches} operator of expressions is refused. Every JsonPath a user writes (the
	 * {@code json-path} processor, {@code #jsonPath}) goes through this check.
	 * @throws IllegalArgumentException naming the operator
	 */
	public static void checkJsonPath(String path) {
		if (path != null && path.contains("=~")) {
			throw new IllegalArgumentException("the JsonPath filter operator '=~' (a regular expression) is not "
					+ "allowed: a regular expression may backtrack without bound");
		}
	}

	/** The expression as the user wrote it. */
	public String text() {
		return this.text;
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof SafeExpression that) && this.text.equals(that.text);
	}

	@Override
	public int hashCode() {
		return this.text.hashCode();
	}

	/** The expression as the user wrote it, so that {@code module info} shows defaults as expressions. */
	@Override
	public String toString() {
		return this.text;
	}
}
