package io.xd.modules.expression;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The methods an expression may call, by the type of the value they are called on. Nothing here runs a regular
 * expression, reflects, or allocates without a bound set by the input ({@code repeat} is absent for that reason).
 */
final class MethodAllowlist {

	private static final Set<String> ANY = Set.of("toString", "equals", "hashCode");

	private static final Set<String> STRING = Set.of("length", "isEmpty", "isBlank", "charAt", "substring", "indexOf",
			"lastIndexOf", "contains", "startsWith", "endsWith", "toUpperCase", "toLowerCase", "trim", "strip",
			"stripLeading", "stripTrailing", "concat", "replace", "equalsIgnoreCase", "compareTo", "compareToIgnoreCase",
			"getBytes", "split");

	private static final Set<String> NUMBER = Set.of("intValue", "longValue", "doubleValue", "floatValue",
			"shortValue", "byteValue", "compareTo");

	private static final Set<String> BOOLEAN = Set.of("booleanValue", "compareTo");

	private static final Set<String> COLLECTION = Set.of("size", "isEmpty", "contains", "containsAll", "get",
			"indexOf", "lastIndexOf", "subList");

	private static final Set<String> MAP = Set.of("size", "isEmpty", "containsKey", "containsValue", "get",
			"getOrDefault", "keySet", "values");

	private static final Set<String> ALL = union();

	private MethodAllowlist() {
	}

	/** Whether some type allows a method of this name: the check made at parse time, when types are unknown. */
	static boolean isKnown(String name) {
		return ALL.contains(name);
	}

	/** Whether {@code name} may be called on {@code target}: the check made when the expression runs. */
	static boolean allows(Object target, String name) {
		if (target == null || target instanceof Class) {
			return false;
		}
		if (ANY.contains(name)) {
			return true;
		}
		if (target instanceof String) {
			return STRING.contains(name);
		}
		if (target instanceof Number) {
			return NUMBER.contains(name);
		}
		if (target instanceof Boolean || target instanceof Character) {
			return BOOLEAN.contains(name);
		}
		if (target instanceof Collection) {
			return COLLECTION.contains(name);
		}
		if (target instanceof Map) {
			return MAP.contains(name);
		}
		return false;
	}

	private static Set<String> union() {
		Set<String> all = new HashSet<>(ANY);
		all.addAll(STRING);
		all.addAll(NUMBER);
		all.addAll(BOOLEAN);
		all.addAll(COLLECTION);
		all.addAll(MAP);
		return Set.copyOf(all);
	}
}
