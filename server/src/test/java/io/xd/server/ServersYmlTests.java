package io.xd.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.beans.BeanWrapperImpl;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.boot.origin.TextResourceOrigin;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;

import io.xd.admin.AdminConfiguration;
import io.xd.container.ContainerConfiguration;
import io.xd.server.analytics.AnalyticsConfiguration;
import io.xd.server.dashboard.DashboardConfiguration;
import io.xd.server.security.XdSecurityConfiguration;
import io.xd.server.web.WebErrorConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code config/servers.yml} shows the built-in defaults, commented out. Read with its commented-out lines as YAML,
 * every value it shows must be the one XD uses when the key is not set, unless its line ends with
 * {@code # example}, and every key must be one XD reads. The built-in defaults are found where XD finds them: the
 * properties classes its configuration classes bind, the defaults of their {@code @Value} parameters, and the
 * profile-less documents of {@code application.yml}; values are compared as XD binds them ({@code 1} and
 * {@code 1ms} are the same duration).
 */
class ServersYmlTests {

	private static final Path SERVERS_YML = Path.of("..", "config", "servers.yml");

	/** The configuration classes of an XD process: the properties classes they bind and their @Value defaults. */
	private static final List<Class<?>> CONFIGURATIONS = List.of(XdConfiguration.class, AdminConfiguration.class,
			ContainerConfiguration.class, XdSecurityConfiguration.class, WebErrorConfiguration.class,
			DashboardConfiguration.class, AnalyticsConfiguration.class);

	/**
	 * Spring XD's Kafka bus keys that XD accepts and does not read (KafkaBusProperties, docs/configuration.md): Kafka
	 * keeps offsets itself. Spring XD's {@code zkAddress}, also ignored, is a property of KafkaBusProperties.
	 */
	private static final Pattern IGNORED_SPRING_XD_KEYS = Pattern
		.compile("xd\\.messagebus\\.kafka\\.offset(Management|Store\\w+|Update\\w+)");

	private static final Pattern EXAMPLE_MARK = Pattern.compile("#\\s*example\\s*$");

	private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^:}]+)(?::(.*))?}");

	/** The properties classes, by the prefix they are bound to. */
	private static final Map<String, List<Class<?>>> PROPERTIES = new LinkedHashMap<>();

	/** The types of the keys that @Value parameters read. */
	private static final Map<String, Class<?>> VALUE_TYPES = new LinkedHashMap<>();

	/** The defaults those @Value parameters give. */
	private static final Map<String, Object> VALUE_DEFAULTS = new LinkedHashMap<>();

	static {
		for (Class<?> configuration : CONFIGURATIONS) {
			EnableConfigurationProperties enabled = configuration.getAnnotation(EnableConfigurationProperties.class);
			for (Class<?> properties : (enabled != null) ? enabled.value() : new Class<?>[0]) {
				PROPERTIES.computeIfAbsent(prefix(properties), prefix -> new ArrayList<>()).add(properties);
			}
			for (Method method : configuration.getDeclaredMethods()) {
				if (AnnotatedElementUtils.hasAnnotation(method, ConfigurationProperties.class)) {
					PROPERTIES.computeIfAbsent(prefix(method), prefix -> new ArrayList<>()).add(method.getReturnType());
				}
			}
			Stream.of(configuration.getDeclaredMethods(), configuration.getDeclaredConstructors())
				.flatMap(Arrays::stream)
				.map(Executable::getParameters)
				.flatMap(Arrays::stream)
				.forEach(ServersYmlTests::readValueDefault);
		}
	}

	/** application.yml's documents that apply whatever the profile. */
	private static final List<PropertySource<?>> APPLICATION_YML = yaml(new ClassPathResource("application.yml"))
		.stream()
		.filter(document -> !document.containsProperty("spring.config.activate.on-profile"))
		.toList();

	@Test
	void showsTheBuiltInDefaultsAndOnlyKeysXdReads() throws IOException {
		assertThat(problems(Files.readString(SERVERS_YML))).isEmpty();
	}

	@Test
	void namesAKeyWhoseCommentedValueIsNotItsDefault() {
		assertThat(problems("""
				#zk:
				#  sessionTimeout: 60s
				#  connectionTimeout: 30000
				""")).containsExactly("zk.sessionTimeout shows 60s, but its built-in default is PT6S");
	}

	@Test
	void namesAKeyXdDoesNotRead() {
		assertThat(problems("""
				#xd:
				#  transprt: local
				#  admin:
				#    gracePeriod: 2s
				""")).containsExactly("xd.transprt is not a key XD reads", "xd.admin.gracePeriod is not a key XD reads");
	}

	@Test
	void takesAValueThatIsNoDefaultOnlyWhenMarkedAsAnExample() {
		assertThat(problems("""
				#zk:
				#  client:
				#    connect: localhost:2181  # example
				#xd:
				#  container:
				#    attributes:
				#      zone: east  # example
				""")).isEmpty();
		assertThat(problems("""
				#zk:
				#  client:
				#    connect: localhost:2181
				#xd:
				#  container:
				#    attributes:
				#      zone: east
				""")).containsExactly("zk.client.connect shows localhost:2181, but its built-in default is empty",
						"xd.container.attributes.zone shows east, but has no built-in default (an example is marked "
								+ "'# example')");
	}

	@Test
	void comparesValuesAsXdBindsThemAndAcceptsSpringXdKeysThatAreIgnored() {
		assertThat(problems("""
				# prose, not YAML
				#server:
				#  port: 9393
				#---
				#xd:
				#  container:
				#    rateInterval: 5000
				#  messagebus:
				#    local:
				#      queueSize: 10000
				#    kafka:
				#      offsetUpdateTimeWindow: 10000
				#      default:
				#        # a bare number is milliseconds or bytes, as in Spring XD's servers.yml
				#        batchTimeout: 1ms
				#        fetchSize: 2MB
				""")).isEmpty();
	}

	/** What is wrong with the values and keys the commented-out lines of {@code text} show, one line each. */
	private static List<String> problems(String text) {
		String yaml = uncomment(text);
		String[] lines = yaml.split("\n", -1);
		List<PropertySource<?>> shown = yaml(new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)));
		Binder builtIn = binder(List.of());
		Binder configured = binder(shown);
		List<String> problems = new ArrayList<>();
		for (PropertySource<?> document : shown) {
			for (String key : ((EnumerablePropertySource<?>) document).getPropertyNames()) {
				if (IGNORED_SPRING_XD_KEYS.matcher(key).matches()) {
					continue;
				}
				Object raw = document.getProperty(key);
				TextResourceOrigin origin = (TextResourceOrigin) OriginLookup.getOrigin(document, key);
				boolean example = EXAMPLE_MARK.matcher(lines[origin.getLocation().getLine()]).find();
				Values values = Values.of(key, builtIn, configured);
				if (values == null) {
					problems.add(key + " is not a key XD reads");
				}
				else if (!example && values.builtIn() == null) {
					problems.add(key + " shows " + raw + ", but has no built-in default (an example is marked "
							+ "'# example')");
				}
				else if (!example && !Objects.equals(values.builtIn(), values.shown())) {
					problems.add(key + " shows " + raw + ", but its built-in default is "
							+ ("".equals(values.builtIn()) ? "empty" : values.builtIn()));
				}
			}
		}
		return problems;
	}

	/**
	 * The commented-out YAML of {@code text} as YAML, line for line: {@code #key:}, {@code #  key:} and {@code #---}
	 * lose their {@code #}; a comment in prose ({@code # text}) becomes an empty line.
	 */
	private static String uncomment(String text) {
		return text.lines()
			.map(line -> !line.startsWith("#") ? line
					: (line.startsWith("# ") && !line.startsWith("#  ")) || line.equals("#") ? "" : line.substring(1))
			.reduce((a, b) -> a + "\n" + b)
			.orElse("");
	}

	/** A binder over {@code shown}, then application.yml, then the @Value defaults; without the environment. */
	private static Binder binder(List<PropertySource<?>> shown) {
		MutablePropertySources sources = new MutablePropertySources();
		shown.forEach(sources::addLast);
		APPLICATION_YML.forEach(sources::addLast);
		sources.addLast(new MapPropertySource("@Value defaults", VALUE_DEFAULTS));
		return new Binder(ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(sources));
	}

	private static List<PropertySource<?>> yaml(Resource resource) {
		try {
			return new YamlPropertySourceLoader().load("yaml", resource);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String prefix(AnnotatedElement element) {
		return AnnotatedElementUtils.findMergedAnnotation(element, ConfigurationProperties.class).prefix();
	}

	private static void readValueDefault(Parameter parameter) {
		Value value = parameter.getAnnotation(Value.class);
		Matcher placeholder = (value != null) ? PLACEHOLDER.matcher(value.value()) : null;
		if (placeholder != null && placeholder.matches()) {
			VALUE_TYPES.put(placeholder.group(1), parameter.getType());
			if (placeholder.group(2) != null) {
				VALUE_DEFAULTS.put(placeholder.group(1), placeholder.group(2));
			}
		}
	}

	/**
	 * A key's built-in default and the value servers.yml gives it, each as XD binds it; null when there is none.
	 */
	private record Values(Object builtIn, Object shown) {

		/** The values of {@code key}; null when XD reads no such key. */
		static Values of(String key, Binder builtIn, Binder configured) {
			// servers.yml writes keys as XD's classes name them (queueSize); Spring Boot's canonical name is queue-size
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
			Class<?> valueType = VALUE_TYPES.get(key);
			if (valueType != null) {
				return new Values(builtIn.bind(name, Bindable.of(valueType)).orElse(null),
						configured.bind(name, Bindable.of(valueType)).orElse(null));
			}
			String prefix = PROPERTIES.keySet()
				.stream()
				.filter(candidate -> key.startsWith(candidate + "."))
				.reduce((a, b) -> (a.length() >= b.length()) ? a : b)
				.orElse(null);
			if (prefix != null) {
				// several properties classes may share a prefix (xd.modules: the admin's uploads, the host access)
				String path = key.substring(prefix.length() + 1);
				return PROPERTIES.get(prefix)
					.stream()
					.map(type -> of(prefix, Bindable.of(type), path, builtIn, configured))
					.filter(Objects::nonNull)
					.findFirst()
					.orElse(null);
			}
			// a key only application.yml sets, such as server.port
			return builtIn.bind(name, Bindable.of(String.class))
				.map(value -> new Values(value, configured.bind(name, Bindable.of(String.class)).get()))
				.orElse(null);
		}

		/** The values at {@code path} of one properties class bound at {@code prefix}; null when it has no such key. */
		private static Values of(String prefix, Bindable<?> properties, String path, Binder builtIn,
				Binder configured) {
			Object shown;
			try {
				shown = walk(configured.bindOrCreate(prefix, properties), path);
			}
			catch (BeansException ex) {
				return null;
			}
			try {
				return new Values(walk(builtIn.bindOrCreate(prefix, properties), path), shown);
			}
			catch (BeansException ex) {
				// a list index that only servers.yml has
				return new Values(null, shown);
			}
		}

		/**
		 * The value at {@code path} ({@code default.batchSize}, {@code attributes.zone}) of a bound properties object.
		 * @throws BeansException when the object has no such property
		 */
		private static Object walk(Object bound, String path) {
			Object current = bound;
			String rest = path;
			while (current != null && !rest.isEmpty()) {
				int dot = rest.indexOf('.');
				String name = (dot < 0) ? rest : rest.substring(0, dot);
				if (current instanceof Map<?, ?> map) {
					// a map of plain values is keyed by the rest of the key: producerProperties.linger.ms
					if (map.containsKey(rest)) {
						return map.get(rest);
					}
					current = map.get(name);
				}
				else {
					current = new BeanWrapperImpl(current).getPropertyValue(camelCase(name));
				}
				rest = (dot < 0) ? "" : rest.substring(dot + 1);
			}
			return current;
		}

		private static String camelCase(String name) {
			Matcher dash = Pattern.compile("-([a-z])").matcher(name);
			return dash.replaceAll(match -> match.group(1).toUpperCase(Locale.ROOT));
		}
	}
}
