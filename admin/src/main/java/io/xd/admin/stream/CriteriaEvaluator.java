package io.xd.admin.stream;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.MapAccessor;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

import io.xd.core.cluster.ContainerAttributes;

/**
 * Evaluates deployment criteria such as {@code groups.contains('east') and host != 'db1'} against a container's
 * attributes.
 * <p>
 * The expression language is SpEL restricted by a {@link SimpleEvaluationContext}: attributes are read as
 * properties of a map, public instance methods of ordinary values may be called ({@code contains},
 * {@code startsWith}, ...), but there are no type references, no constructors, no bean references and no
 * methods on {@link Class}, so a criteria string cannot reach a class loader or run arbitrary code.
 * {@code groups} is a set of the container's groups; every other attribute is a string.
 */
public final class CriteriaEvaluator {

	private static final ExpressionParser PARSER = new SpelExpressionParser();

	private static final EvaluationContext CONTEXT = SimpleEvaluationContext.forPropertyAccessors(new MapAccessor())
		.withInstanceMethods()
		.build();

	private CriteriaEvaluator() {
	}

	/**
	 * Checks that {@code criteria} parses.
	 * @throws IllegalArgumentException with the parser's reason
	 */
	public static void validate(String criteria) {
		try {
			PARSER.parseExpression(criteria);
		}
		catch (ParseException ex) {
			throw new IllegalArgumentException("criteria '" + criteria + "' is not a valid expression: "
					+ ex.getSimpleMessage());
		}
	}

	/**
	 * Whether a container matches. Null or blank criteria match every container; an expression that fails to
	 * evaluate or does not yield {@code true} matches none.
	 */
	public static boolean matches(String criteria, ContainerAttributes container) {
		if (criteria == null || criteria.isBlank()) {
			return true;
		}
		Map<String, Object> root = new LinkedHashMap<>(container.asMap());
		root.put("groups", container.groupSet());
		try {
			Expression expression = PARSER.parseExpression(criteria);
			return Boolean.TRUE.equals(expression.getValue(CONTEXT, root, Boolean.class));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}
}
