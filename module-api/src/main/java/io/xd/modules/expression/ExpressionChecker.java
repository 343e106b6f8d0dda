package io.xd.modules.expression;

import java.util.Set;

import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.Assign;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.ConstructorReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.MethodReference;
import org.springframework.expression.spel.ast.OpDec;
import org.springframework.expression.spel.ast.OpInc;
import org.springframework.expression.spel.ast.OpPlus;
import org.springframework.expression.spel.ast.OperatorMatches;
import org.springframework.expression.spel.ast.TypeReference;
import org.springframework.expression.spel.ast.VariableReference;

/**
 * Walks a parsed expression's syntax tree and refuses what {@link SafeExpression} does not allow. Checking the tree
 * at parse time is what lets {@code stream create} fail; the restricted evaluation context enforces the same rules
 * again when the expression runs.
 */
final class ExpressionChecker {

	static final String JSON_PATH_FUNCTION = "jsonPath";

	private static final Set<String> VARIABLES = Set.of("this", "root");

	private static final Set<String> REGEX_METHODS = Set.of("matches", "replaceAll", "replaceFirst",
			"splitWithDelimiters");

	/**
	 * The most operations that may build text in one expression ({@code +}, {@code concat}, {@code replace}): with no
	 * variables to reuse a result, text built by {@code +} and {@code concat} is at most one more than this many times
	 * the largest value read, and each {@code replace} adds at most {@link #MAX_REPLACE_GROWTH} characters.
	 */
	static final int MAX_TEXT_OPERATIONS = 64;

	/** The most characters one {@code replace} may add to the text it works on. */
	static final int MAX_REPLACE_GROWTH = 1 << 20;

	private ExpressionChecker() {
	}

	static void check(SpelNode node) {
		checkNodes(node);
		int operations = textOperations(node);
		if (operations > MAX_TEXT_OPERATIONS) {
			throw new IllegalArgumentException("an expression may build text with at most " + MAX_TEXT_OPERATIONS
					+ " operations (+, concat, replace), this one has " + operations);
		}
	}

	private static int textOperations(SpelNode node) {
		int count = (node instanceof OpPlus || (node instanceof MethodReference method
				&& (method.getName().equals("concat") || method.getName().equals("replace")))) ? 1 : 0;
		for (int i = 0; i < node.getChildCount(); i++) {
			count += textOperations(node.getChild(i));
		}
		return count;
	}

	private static void checkNodes(SpelNode node) {
		String problem = problem(node);
		if (problem != null) {
			throw new IllegalArgumentException(problem);
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			checkNodes(node.getChild(i));
		}
	}

	private static String problem(SpelNode node) {
		if (node instanceof TypeReference) {
			return "type references T(...) are not allowed";
		}
		if (node instanceof ConstructorReference) {
			return "constructors (new ...) are not allowed";
		}
		if (node instanceof BeanReference) {
			return "bean references (@name, &name) are not allowed";
		}
		if (node instanceof OperatorMatches) {
			return "the 'matches' operator is not allowed: a regular expression may backtrack without bound";
		}
		if (node instanceof Assign || node instanceof OpInc || node instanceof OpDec) {
			return "assignment is not allowed: expressions are read-only";
		}
		if (node instanceof MethodReference method) {
			return methodProblem(method.getName());
		}
		if (node instanceof FunctionReference) {
			String name = name(node.toStringAST());
			if (name.equals(JSON_PATH_FUNCTION) && node.toStringAST().contains("=~")) {
				return "the JsonPath filter operator '=~' (a regular expression) is not allowed: a regular expression "
						+ "may backtrack without bound";
			}
			return name.equals(JSON_PATH_FUNCTION) ? null
					: "function '#" + name + "' is not defined; the only function is #jsonPath(json, path)";
		}
		if (node instanceof VariableReference) {
			String name = name(node.toStringAST());
			return VARIABLES.contains(name) ? null
					: "variable '#" + name + "' is not defined; only #this and #root are";
		}
		return null;
	}

	private static String methodProblem(String name) {
		if (REGEX_METHODS.contains(name)) {
			return "method '" + name + "' is not allowed: a regular expression may backtrack without bound";
		}
		if (!MethodAllowlist.isKnown(name)) {
			return "method '" + name + "' is not allowed; expressions may call only the String, number and "
					+ "collection methods listed in docs/modules.md";
		}
		return null;
	}

	/** {@code #name} or {@code #name(...)} → {@code name}. */
	private static String name(String ast) {
		int end = ast.indexOf('(');
		return ast.substring(1, (end < 0) ? ast.length() : end);
	}
}
