package io.xd.modules.builtin;

import java.util.List;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.integration.context.IntegrationContextUtils;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOption;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleOptions;

/**
 * What the connector modules ({@code rabbit}, {@code mqtt}, {@code redis}) share about the server they talk to. A
 * definition names either a server the operator declared ({@code --connection=<name>}, a {@link Connection} with its
 * credentials and TLS flag; each module has a default name, such as {@code rabbit}) or a literal host option (Spring
 * XD's {@code --addresses}, {@code --url}, {@code --hostname}), allowed only for the hosts of
 * {@code xd.modules.connect.allowed-hosts}. A definition never carries a password: {@code --password} is declared, so
 * that a Spring XD definition gets a clear answer, and refused.
 */
public final class Connectors {

	private Connectors() {
	}

	/** The {@code connection} option, naming a declared server, {@code defaultName} when none is given. */
	public static ModuleOption<String> connectionOption(String defaultName, String hostOption) {
		return ModuleOption.ofString("connection")
			.withDefault(defaultName)
			.withRule(name -> !name.isBlank(), "be the name of a declared connection")
			.withDescription("the name of a server the operator declared (xd.connections.<name>: host, port, username, "
					+ "password, tls); used unless " + hostOption + " is given");
	}

	/** Spring XD's {@code password} option, declared to be refused. */
	public static ModuleOption<String> passwordOption() {
		return ModuleOption.ofString("password")
			.withDescription("not accepted: a definition carries no password; the operator declares it with the "
					+ "connection (xd.connections.<name>.password)");
	}

	/**
	 * Checks the connection options of a definition and tells which way it reaches its server: refuses a password,
	 * both a connection and a literal host, and, with a connection, the options that only go with a literal host
	 * (the connection says who and how).
	 * @param module the module's name, for the message
	 * @param hostOption the literal host option (Spring XD's {@code addresses}, {@code url}, {@code hostname})
	 * @param literalOnly options that go with the literal host only ({@code username}, {@code vhost}, ...)
	 * @return whether the definition names a literal host (else it names a connection)
	 * @throws ModuleOptionException naming the option and why
	 */
	public static boolean usesLiteralHost(String module, ModuleOptions options, ModuleOption<String> connection,
			ModuleOption<String> password, ModuleOption<?> hostOption, List<ModuleOption<?>> literalOnly) {
		if (options.get(password) != null) {
			throw refused(module, "option 'password' is refused: a definition carries no password; the operator "
					+ "declares the server with its credentials as a connection (xd.connections.<name>.host, .port, "
					+ ".username, .password), and --connection=<name> uses it");
		}
		if (options.isGiven(hostOption)) {
			if (options.isGiven(connection)) {
				throw refused(module, "options 'connection' and '" + hostOption.name() + "' are refused together: "
						+ "give one of them");
			}
			return true;
		}
		for (ModuleOption<?> option : literalOnly) {
			if (options.isGiven(option)) {
				throw refused(module, "option '" + option.name() + "' is refused with a connection: the connection '"
						+ options.get(connection) + "' says where and as whom (give --" + hostOption.name()
						+ " to name a host instead)");
			}
		}
		return false;
	}

	/**
	 * The declared connection a definition names, checked again as the module connects (the operator's settings may
	 * have changed since the stream was created).
	 */
	public static Connection connection(HostAccess access, ModuleOptions options, ModuleOption<String> connection) {
		return access.connection(connection.name(), options.get(connection));
	}

	/** A problem with a connector's options, naming the module. */
	public static ModuleOptionException refused(String module, String problem) {
		return new ModuleOptionException(module, List.of(problem));
	}

	/**
	 * A bean factory for a Spring Integration adapter that runs without an application context: Spring Integration's
	 * defaults, and the evaluation context its own fixed expressions need (never a user's expression: those are
	 * {@link io.xd.modules.expression.SafeExpression}s).
	 */
	public static BeanFactory integrationBeanFactory() {
		DefaultListableBeanFactory factory = new DefaultListableBeanFactory();
		factory.registerSingleton(IntegrationContextUtils.INTEGRATION_EVALUATION_CONTEXT_BEAN_NAME,
				new StandardEvaluationContext());
		return factory;
	}

	/** What a client's failure says at its root, for a module's message (clients wrap the server's answer). */
	public static String reason(Throwable failure) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
		return (cause.getMessage() == null) ? cause.getClass().getSimpleName() : cause.getMessage();
	}

	/** The items of a comma-separated list, trimmed, blanks left out. */
	public static List<String> commaList(String text) {
		return java.util.Arrays.stream(text.split(",")).map(String::strip).filter(item -> !item.isEmpty()).toList();
	}
}
