package io.xd.admin.stream;

import java.util.LinkedHashMap;
import java.util.Map;

import io.xd.core.cluster.ContainerAttributes;
import io.xd.modules.expression.SafeExpression;

/**
 * Evaluates deployment criteria such as {@code groups.contains('east') and host != 'db1'} against a container's
 * attributes.
 * <p>
 * Criteria are {@link SafeExpression}s, as module expressions are: attributes are read as properties, only
 * allowlisted methods of strings, numbers and collections may be called ({@code contains}, {@code startsWith}, ...;
 * not {@code repeat}, not regular expressions), and there are no type references, constructors, bean references or
 * assignments, so criteria can neither reach a class loader nor exhaust the admin. {@code groups} is a set of the
 * container's groups; every other attribute is a string.
 */
public final class CriteriaEvaluator {

	private CriteriaEvaluator() {
	}

	/**
	 * Checks that {@code criteria} parses and uses nothing but attributes, operators and allowlisted methods.
	 * @throws IllegalArgumentException with the reason
	 */
	public static void validate(String criteria) {
		try {
			SafeExpression.parse(criteria);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("criteria '" + criteria + "' is refused: " + ex.getMessage()
					+ "; refer to container attributes, such as groups.contains('a') or host == 'node1'", ex);
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
			return SafeExpression.parse(criteria).test(root);
		}
		catch (RuntimeException ex) {
			return false;
		}
	}
}
