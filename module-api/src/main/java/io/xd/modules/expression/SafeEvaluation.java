package io.xd.modules.expression;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.expression.AccessException;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.MethodExecutor;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.TypedValue;
import org.springframework.expression.spel.CodeFlow;
import org.springframework.expression.spel.CompilablePropertyAccessor;
import org.springframework.expression.spel.SpelEvaluationException;
import org.springframework.expression.spel.SpelMessage;
import org.springframework.expression.spel.support.ReflectiveMethodResolver;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.messaging.Message;

/**
 * The restricted evaluation context every {@link SafeExpression} runs in: read-only properties of messages and maps,
 * the length of arrays, the allowlisted methods, and {@code #jsonPath}; no types, constructors or beans. It is built
 * once and shared; nothing in it changes after construction, so concurrent evaluations are safe.
 */
final class SafeEvaluation {

	static final StandardEvaluationContext CONTEXT = build();

	private SafeEvaluation() {
	}

	/*
	 * A StandardEvaluationContext with every resolver replaced, rather than a SimpleEvaluationContext: SpEL compiles
	 * only for contexts that support compilation, and SimpleEvaluationContext does not. What compiled code can call is
	 * exactly what these accessors and the allowlist resolved while interpreting, guarded by casts to the resolved
	 * types, so compiling gives no expression more reach.
	 */
	private static StandardEvaluationContext build() {
		StandardEvaluationContext context = new StandardEvaluationContext();
		context.setPropertyAccessors(List.of(new MessageAccessor(), new MapAccessor(), new ArrayLengthAccessor()));
		context.setMethodResolvers(List.of(new AllowlistMethodResolver()));
		context.setConstructorResolvers(List.of());
		context.setTypeLocator(typeName -> {
			throw new SpelEvaluationException(SpelMessage.TYPE_NOT_FOUND, typeName);
		});
		try {
			Method jsonPath = SafeExpression.class.getMethod("jsonPath", Object.class, String.class);
			context.registerFunction(ExpressionChecker.JSON_PATH_FUNCTION, jsonPath);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
		return context;
	}

	/**
	 * A property accessor that only reads, for one kind of target, and compiles: the value on the stack is cast to
	 * {@code targetDescriptor} (or the target loaded and cast when nothing is on the stack) before
	 * {@link #generateRead} emits the read itself.
	 */
	private abstract static class ReadOnlyAccessor implements CompilablePropertyAccessor {

		private final Class<?> targetType;

		private final String targetDescriptor;

		private final Class<?> propertyType;

		ReadOnlyAccessor(Class<?> targetType, Class<?> propertyType) {
			this.targetType = targetType;
			this.targetDescriptor = CodeFlow.toDescriptor(targetType);
			this.propertyType = propertyType;
		}

		@Override
		public Class<?>[] getSpecificTargetClasses() {
			return new Class<?>[] { this.targetType };
		}

		@Override
		public final boolean canWrite(EvaluationContext context, Object target, String name) {
			return false;
		}

		@Override
		public final void write(EvaluationContext context, Object target, String name, Object newValue)
				throws AccessException {
			throw new AccessException("Expressions are read-only");
		}

		@Override
		public final boolean isCompilable() {
			return true;
		}

		@Override
		public final Class<?> getPropertyType() {
			return this.propertyType;
		}

		@Override
		public final void generateCode(String propertyName, MethodVisitor mv, CodeFlow cf) {
			String descriptor = cf.lastDescriptor();
			if (descriptor == null) {
				cf.loadTarget(mv);
			}
			if (!this.targetDescriptor.equals(descriptor)) {
				CodeFlow.insertCheckCast(mv, this.targetDescriptor);
			}
			generateRead(propertyName, mv);
		}

		/** Emits the read of {@code propertyName} from the target on the stack, leaving the value there. */
		abstract void generateRead(String propertyName, MethodVisitor mv);
	}

	/** {@code payload} and {@code headers} of a message; compiled to a plain interface call. */
	static final class MessageAccessor extends ReadOnlyAccessor {

		private static final String MESSAGE = "org/springframework/messaging/Message";

		MessageAccessor() {
			super(Message.class, Object.class);
		}

		@Override
		public boolean canRead(EvaluationContext context, Object target, String name) {
			return target instanceof Message && (name.equals("payload") || name.equals("headers"));
		}

		@Override
		public TypedValue read(EvaluationContext context, Object target, String name) throws AccessException {
			Message<?> message = (Message<?>) target;
			return new TypedValue(name.equals("payload") ? message.getPayload() : message.getHeaders());
		}

		@Override
		void generateRead(String propertyName, MethodVisitor mv) {
			if (propertyName.equals("payload")) {
				mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, MESSAGE, "getPayload", "()Ljava/lang/Object;", true);
			}
			else {
				mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, MESSAGE, "getHeaders",
						"()Lorg/springframework/messaging/MessageHeaders;", true);
			}
		}
	}

	/** The value of a key of a map ({@code headers.name}, fields of JSON objects); a missing key reads as null. */
	static final class MapAccessor extends ReadOnlyAccessor {

		MapAccessor() {
			super(Map.class, Object.class);
		}

		@Override
		public boolean canRead(EvaluationContext context, Object target, String name) {
			return target instanceof Map;
		}

		@Override
		public TypedValue read(EvaluationContext context, Object target, String name) throws AccessException {
			return new TypedValue(((Map<?, ?>) target).get(name));
		}

		@Override
		void generateRead(String propertyName, MethodVisitor mv) {
			mv.visitLdcInsn(propertyName);
			mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/util/Map", "get", "(Ljava/lang/Object;)Ljava/lang/Object;",
					true);
		}
	}

	/** {@code length} of an array, such as a {@code byte[]} payload; compiled to {@code Array.getLength}. */
	static final class ArrayLengthAccessor extends ReadOnlyAccessor {

		ArrayLengthAccessor() {
			super(Object.class, Integer.class);
		}

		@Override
		public Class<?>[] getSpecificTargetClasses() {
			return null;
		}

		@Override
		public boolean canRead(EvaluationContext context, Object target, String name) {
			return target != null && target.getClass().isArray() && name.equals("length");
		}

		@Override
		public TypedValue read(EvaluationContext context, Object target, String name) throws AccessException {
			return new TypedValue(Array.getLength(target));
		}

		@Override
		void generateRead(String propertyName, MethodVisitor mv) {
			mv.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/reflect/Array", "getLength", "(Ljava/lang/Object;)I",
					false);
			CodeFlow.insertBoxIfNecessary(mv, 'I');
		}
	}

	/**
	 * Resolves only allowlisted methods, through SpEL's reflective resolver (whose executors compile); {@code split}
	 * on a String splits on its argument as literal text, and {@code replace} is refused when it would grow the text by
	 * more than its cap.
	 */
	static final class AllowlistMethodResolver implements MethodResolver {

		/** How many times {@code part} occurs in {@code text}; an empty part occurs between every character. */
		static int occurrences(String text, String part) {
			if (part.isEmpty()) {
				return text.length() + 1;
			}
			int count = 0;
			for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
				count++;
			}
			return count;
		}

		private static final MethodExecutor LITERAL_SPLIT = (context, target, arguments) -> new TypedValue(
				((String) target).split(Pattern.quote(String.valueOf(arguments[0]))));

		/** {@code replace} of text, refused before it runs when it would add more than its cap. */
		private static final MethodExecutor BOUNDED_REPLACE = (context, target, arguments) -> {
			String text = (String) target;
			String from = String.valueOf(arguments[0]);
			String to = String.valueOf(arguments[1]);
			long growth = (long) occurrences(text, from) * (to.length() - from.length());
			if (growth > ExpressionChecker.MAX_REPLACE_GROWTH) {
				throw new AccessException("replace would add " + growth + " characters to the text, more than "
						+ ExpressionChecker.MAX_REPLACE_GROWTH);
			}
			return new TypedValue(text.replace(from, to));
		};

		private final ReflectiveMethodResolver reflective = new ReflectiveMethodResolver();

		@Override
		public MethodExecutor resolve(EvaluationContext context, Object target, String name,
				List<TypeDescriptor> argumentTypes) throws AccessException {
			if (!MethodAllowlist.allows(target, name)) {
				return null;
			}
			if (target instanceof String && name.equals("split")) {
				return (argumentTypes.size() == 1) ? LITERAL_SPLIT : null;
			}
			if (target instanceof String && name.equals("replace")) {
				return (argumentTypes.size() == 2) ? BOUNDED_REPLACE : null;
			}
			return this.reflective.resolve(context, target, name, argumentTypes);
		}
	}
}
