package io.xd.admin.stream;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
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
	 * Checks that {@code criteria} parses and uses nothing but attributes, operators and method calls on values.
	 * @throws IllegalArgumentException with the reason
	 */
	public static void validate(String criteria) {
		SpelExpression expression;
		try {
			expression = (SpelExpression) PARSER.parseExpression(criteria);
		}
		catch (ParseException ex) {
			throw new IllegalArgumentException("criteria '" + criteria + "' is not a valid expression: "
					+ ex.getSimpleMessage());
		}
		checkNodes(criteria, expression.getAST());
	}

	/** Refuses up front what evaluation would refuse anyway, so that the user hears of it at deployment time. */
	private static void checkNodes(String criteria, SpelNode node) {
		String refused = null;
		if (node instanceof TypeReference) {
			refused = "type references (T(...))";
		}
		else if (node instanceof ConstructorReference) {
			refused = "constructors (new ...)";
		}
		else if (node instanceof BeanReference) {
			refused = "bean references (@...)";
		}
		else if (node instanceof VariableReference || node instanceof FunctionReference) {
			refused = "variables or functions (#...)";
		}
		else if (node instanceof Assign) {
			refused = "assignments";
		}
		if (refused != null) {
			throw new IllegalArgumentException("criteria '" + criteria + "' uses " + refused
					+ ", which criteria may not; refer to container attributes, such as groups.contains('a') "
					+ "or host == 'node1'");
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			checkNodes(criteria, node.getChild(i));
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
