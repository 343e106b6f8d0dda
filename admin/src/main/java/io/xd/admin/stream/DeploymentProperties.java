package io.xd.admin.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.xd.core.BindingKeys;
import io.xd.core.cluster.ModuleDeploymentProperties;
import io.xd.modules.expression.SafeExpression;

/**
 * Deployment properties of a stream: {@code module.<label>.<key>=<value>} pairs, where {@code module.*.} applies to
 * every module and is overridden by a module's own key. Known keys: {@code count} (instances; 0 means one on every
 * matching container), {@code criteria} (an expression over container attributes, see {@link CriteriaEvaluator}),
 * and {@code producer.*} / {@code consumer.*} (binding properties for the bus). Each module's share is resolved
 * into a {@link ModuleDeploymentProperties}, the form containers read.
 * <p>
 * {@code app.<label>.<option>=<value>} (Spring Cloud Data Flow's form) overrides a module option of the definition
 * for this deployment: {@code stream update} changes an option this way, and only that module is restarted.
 */
public final class DeploymentProperties {

	private static final String PREFIX = "module.";

	/** The producer property whose value is an expression evaluated on every message. */
	static final String PARTITION_KEY_EXPRESSION = "partitionKeyExpression";

	private static final String DIRECT_BINDING = ModuleDeploymentProperties.DIRECT_BINDING_ALLOWED;

	/** What option overrides start with. */
	public static final String APP_PREFIX = "app.";

	/** What separates two pairs in the text form: a comma followed by {@code module.} or {@code app.}. */
	public static final Pattern PAIR_SEPARATOR = Pattern.compile(",\\s*(?=module\\.|app\\.)");

	private final Map<String, String> values;

	private DeploymentProperties(Map<String, String> values) {
		this.values = Map.copyOf(values);
	}

	public static DeploymentProperties of(Map<String, String> values) {
		return new DeploymentProperties(values);
	}

	/**
	 * Parses {@code "module.*.count=0, module.log.criteria=groups.contains('a')"}. Pairs are separated by commas
	 * that are followed by {@code module.}, so a value may itself contain commas; each pair is split at its first
	 * {@code =}.
	 * @throws IllegalArgumentException naming the malformed pair
	 */
	public static DeploymentProperties parse(String text) {
		Map<String, String> values = new LinkedHashMap<>();
		if (text == null || text.isBlank()) {
			return new DeploymentProperties(values);
		}
		for (String pair : PAIR_SEPARATOR.split(text.trim())) {
			int equals = pair.indexOf('=');
			if (equals <= 0) {
				throw new IllegalArgumentException("Deployment property '" + pair.trim()
						+ "' is not of the form module.<label>.<key>=<value> or app.<label>.<option>=<value>");
			}
			String key = pair.substring(0, equals).trim();
			String value = pair.substring(equals + 1).trim();
			if (values.put(key, value) != null) {
				throw new IllegalArgumentException("Deployment property '" + key + "' is given twice");
			}
		}
		return new DeploymentProperties(values);
	}

	public Map<String, String> asMap() {
		return this.values;
	}

	/**
	 * Checks every key and value against the stream's labels, the known keys and the binding properties the
	 * transport's bus declares.
	 * @param labels the labels of the stream's modules
	 * @param bindingKeys the {@code producer.*} and {@code consumer.*} keys the transport accepts
	 * @throws IllegalArgumentException naming every problem
	 */
	public void validate(Set<String> labels, BindingKeys bindingKeys) {
		List<String> problems = new ArrayList<>();
		Set<String> unsupportedBinding = new TreeSet<>();
		this.values.forEach((key, value) -> {
			if (key.startsWith(APP_PREFIX)) {
				int dot = key.indexOf('.', APP_PREFIX.length());
				String label = (dot < 0) ? "" : key.substring(APP_PREFIX.length(), dot);
				if (dot < 0 || dot == key.length() - 1 || !labels.contains(label)) {
					problems.add("'" + key + "' is not of the form app.<label>.<option> with a label of the stream; "
							+ "its labels are " + String.join(", ", new TreeSet<>(labels)));
				}
				return;
			}
			if (!key.startsWith(PREFIX) || key.indexOf('.', PREFIX.length()) < 0) {
				problems.add("'" + key + "' is not of the form module.<label>.<key>");
				return;
			}
			String label = key.substring(PREFIX.length(), key.indexOf('.', PREFIX.length()));
			String property = key.substring(key.indexOf('.', PREFIX.length()) + 1);
			if (!label.equals("*") && !labels.contains(label)) {
				problems.add("'" + key + "' names no module of the stream; its labels are "
						+ String.join(", ", new TreeSet<>(labels)));
				return;
			}
			BindingKeys.Side side = bindingSide(property);
			if (property.equals(ModuleDeploymentProperties.COUNT)) {
				checkCount(key, value, problems);
			}
			else if (property.equals(ModuleDeploymentProperties.CRITERIA)) {
				checkCriteria(value, problems);
			}
			else if (property.equals(BindingKeys.Side.PRODUCER.word() + "." + DIRECT_BINDING)) {
				if (!value.trim().equalsIgnoreCase("false")) {
					problems.add("'" + key + "' may only be false (to keep the hop on the transport); XD binds a pipe "
							+ "directly itself when both its modules have count=0 and the same criteria and the "
							+ "producer does not partition");
				}
			}
			else if (property.equals(BindingKeys.Side.CONSUMER.word() + "." + DIRECT_BINDING)) {
				problems.add("'" + key + "' is XD's to set; to keep a hop on the transport, set "
						+ "module.<producer's label>.producer." + DIRECT_BINDING + "=false");
			}
			else if (side == null) {
				problems.add("'" + key + "' is not a known deployment property; known keys are count, "
						+ "criteria, producer.*, consumer.*");
			}
			else if (!bindingKeys.acceptsAny()) {
				unsupportedBinding.add(key);
			}
			else {
				String bindingKey = property.substring(side.word().length() + 1);
				try {
					bindingKeys.requireSupported("the " + bindingKeys.transport() + " transport", side,
							List.of(bindingKey));
					if (bindingKey.equals(PARTITION_KEY_EXPRESSION)) {
						// the bus evaluates it with the safe evaluator of module expressions: refused here already
						SafeExpression.parse(value);
					}
				}
				catch (IllegalArgumentException ex) {
					problems.add("'" + key + "': " + ex.getMessage());
				}
			}
		});
		if (!unsupportedBinding.isEmpty()) {
			problems.add("the " + bindingKeys.transport() + " transport does not support binding properties: "
					+ String.join(", ", unsupportedBinding));
		}
		if (!problems.isEmpty()) {
			throw new IllegalArgumentException("Invalid deployment properties: " + String.join("; ", problems));
		}
	}

	private static BindingKeys.Side bindingSide(String property) {
		for (BindingKeys.Side side : BindingKeys.Side.values()) {
			if (property.startsWith(side.word() + ".")) {
				return side;
			}
		}
		return null;
	}

	private static void checkCount(String key, String value, List<String> problems) {
		try {
			if (Integer.parseInt(value) < 0) {
				problems.add("'" + key + "' must be 0 or more, but was " + value);
			}
		}
		catch (NumberFormatException ex) {
			problems.add("'" + key + "' must be an integer, but was '" + value + "'");
		}
	}

	private static void checkCriteria(String value, List<String> problems) {
		try {
			CriteriaEvaluator.validate(value);
		}
		catch (IllegalArgumentException ex) {
			problems.add(ex.getMessage());
		}
	}

	/** The properties of one module: its own keys over the {@code module.*.} ones, without the prefix. */
	public Map<String, String> forModule(String label) {
		Map<String, String> merged = new LinkedHashMap<>();
		String wildcard = PREFIX + "*.";
		String own = PREFIX + label + ".";
		this.values.forEach((key, value) -> {
			if (key.startsWith(wildcard)) {
				merged.put(key.substring(wildcard.length()), value);
			}
		});
		this.values.forEach((key, value) -> {
			if (key.startsWith(own)) {
				merged.put(key.substring(own.length()), value);
			}
		});
		return merged;
	}

	/** The option overrides of one module ({@code app.<label>.<option>}), without the prefix. */
	public Map<String, String> options(String label) {
		Map<String, String> options = new LinkedHashMap<>();
		String own = APP_PREFIX + label + ".";
		this.values.forEach((key, value) -> {
			if (key.startsWith(own)) {
				options.put(key.substring(own.length()), value);
			}
		});
		return options;
	}

	/** These properties with {@code changes} applied: a key given there replaces or adds its value. */
	public DeploymentProperties with(Map<String, String> changes) {
		Map<String, String> merged = new LinkedHashMap<>(this.values);
		merged.putAll(changes);
		return new DeploymentProperties(merged);
	}

	/** The properties of one module, resolved; call only once {@link #validate} has passed. */
	public ModuleDeploymentProperties module(String label) {
		return ModuleDeploymentProperties.of(forModule(label));
	}

	/** The instance count of a module: its {@code count}, 1 by default; 0 means every matching container. */
	public int count(String label) {
		return module(label).count();
	}

	/** The criteria of a module, or {@code null}. */
	public String criteria(String label) {
		return module(label).criteria();
	}

	/** The binding properties of a module for one side, {@code producer} or {@code consumer}, without the prefix. */
	public Map<String, String> binding(String label, String side) {
		Map<String, String> binding = new LinkedHashMap<>();
		forModule(label).forEach((key, value) -> {
			if (key.startsWith(side + ".")) {
				binding.put(key.substring(side.length() + 1), value);
			}
		});
		return binding;
	}
}
