package io.xd.modules.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.springframework.messaging.Message;

import io.xd.modules.ModuleProvider;

/**
 * Builds custom module jars for tests: compiles Java sources with the JDK's compiler against the module SPI and
 * packs the classes with a provider service file. {@link #suffixProcessor()} is a working processor; its variants
 * break it in the ways an upload must refuse.
 */
public final class TestJars {

	/** The provider class of {@link #suffixProcessor()}. */
	public static final String SUFFIX_PROVIDER = "com.example.suffix.SuffixProvider";

	private static final String LIB = """
			package com.example.lib;
			public final class Lib {
				public static String version() {
					return "@VERSION@";
				}
			}
			""";

	private static final String SUFFIX = """
			package com.example.suffix;

			import java.util.List;

			import org.springframework.messaging.Message;
			import org.springframework.messaging.MessageChannel;
			import org.springframework.messaging.support.GenericMessage;

			import io.xd.modules.Module;
			import io.xd.modules.ModuleContext;
			import io.xd.modules.ModuleMetadata;
			import io.xd.modules.ModuleOption;
			import io.xd.modules.ModuleProvider;
			import io.xd.modules.ModuleType;
			import io.xd.modules.Processor;

			public final class SuffixProvider implements ModuleProvider {

				static { @STATIC@ }

				static final ModuleOption<String> SUFFIX = ModuleOption.ofString("suffix")
					.withDefault("-" + com.example.lib.Lib.version())
					.withDescription("appended to each payload");

				static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.@TYPE@, "suffix",
						"Appends a suffix to each payload", List.of(SUFFIX));

				@Override
				public ModuleMetadata metadata() {
					@METADATA@
					return METADATA;
				}

				@Override
				public Module create(ModuleContext context) {
					return new SuffixProcessor(context);
				}

				static final class SuffixProcessor implements Processor {

					private final String suffix;

					private MessageChannel output;

					SuffixProcessor(ModuleContext context) {
						this.suffix = context.options().get(SUFFIX);
					}

					@Override
					public void start(MessageChannel output) {
						this.output = output;
					}

					@Override
					public void handleMessage(Message<?> message) {
						this.output.send(new GenericMessage<>(message.getPayload() + this.suffix, message.getHeaders()));
					}
				}
			}
			""";

	/** The provider class of {@link #secretKeeper()}. */
	public static final String KEEPER_PROVIDER = "com.example.keeper.KeeperProvider";

	/** The provider class of {@link #classProbe()}. */
	public static final String PROBE_PROVIDER = "com.example.probe.ProbeProvider";

	/**
	 * A processor module in package {@code com.example.@NAME@}, provider {@code @PROVIDER@}: its metadata
	 * declarations, then what {@code create} computes before the processor, then the processor's handling, which
	 * sends {@code result}.
	 */
	private static final String PROCESSOR = """
			package com.example.@NAME@;

			import java.util.List;

			import org.springframework.messaging.Message;
			import org.springframework.messaging.MessageChannel;
			import org.springframework.messaging.support.GenericMessage;

			import io.xd.modules.Module;
			import io.xd.modules.ModuleContext;
			import io.xd.modules.ModuleMetadata;
			import io.xd.modules.ModuleOption;
			import io.xd.modules.ModuleProvider;
			import io.xd.modules.ModuleType;
			import io.xd.modules.Processor;

			public final class @PROVIDER@ implements ModuleProvider {

				@DECLARATIONS@

				@Override
				public ModuleMetadata metadata() {
					return METADATA;
				}

				@Override
				public Module create(ModuleContext context) {
					@BEFORE@
					return new Processor() {

						private MessageChannel output;

						@Override
						public void start(MessageChannel output) {
							this.output = output;
						}

						@Override
						public void handleMessage(Message<?> message) {
							String result;
							@HANDLING@
							this.output.send(new GenericMessage<>(result));
						}
					};
				}
			}
			""";

	private final Map<String, String> sources = new LinkedHashMap<>();

	private final Map<String, byte[]> resources = new LinkedHashMap<>();

	private TestJars() {
	}

	/** A processor that appends {@code -1} (its library's version) or its {@code suffix} option to each payload. */
	public static TestJars suffixProcessor() {
		return suffixProcessor("1", "PROCESSOR", "", "");
	}

	/** The suffix processor bundling version {@code version} of its library {@code com.example.lib.Lib}. */
	public static TestJars suffixProcessor(String libraryVersion) {
		return suffixProcessor(libraryVersion, "PROCESSOR", "", "");
	}

	/** The suffix processor declaring itself a {@code type}. */
	public static TestJars declaringType(String type) {
		return suffixProcessor("1", type, "", "");
	}

	/** The suffix processor whose provider class fails to initialize. */
	public static TestJars failingToLoad() {
		return suffixProcessor("1", "PROCESSOR", "if (true) { throw new IllegalStateException(\"no licence key\"); }",
				"");
	}

	/** The suffix processor whose {@code metadata()} throws. */
	public static TestJars failingInMetadata() {
		return suffixProcessor("1", "PROCESSOR", "",
				"if (METADATA != null) { throw new IllegalStateException(\"metadata unavailable\"); }");
	}

	/** The suffix processor whose {@code metadata()} never returns. */
	public static TestJars hangingInMetadata() {
		return suffixProcessor("1", "PROCESSOR", "",
				"while (METADATA != null) { try { Thread.sleep(60_000); } catch (InterruptedException ex) { } }");
	}

	private static TestJars suffixProcessor(String version, String type, String staticInit, String metadata) {
		TestJars jar = new TestJars();
		jar.sources.put("com.example.lib.Lib", LIB.replace("@VERSION@", version));
		jar.sources.put(SUFFIX_PROVIDER, SUFFIX.replace("@TYPE@", type)
			.replace("@STATIC@", staticInit)
			.replace("@METADATA@", metadata));
		jar.resources.put(ModuleJar.SERVICE_FILE, (SUFFIX_PROVIDER + "\n").getBytes(StandardCharsets.UTF_8));
		return jar;
	}

	/**
	 * A processor that tries to load the class each payload names with {@code Class.forName}, from its own code as a
	 * module would, and sends {@code loaded <name>} or the simple name of the exception ({@code ClassNotFoundException}).
	 */
	public static TestJars classProbe() {
		return processor(PROBE_PROVIDER, """
				static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "probe",
						"Loads the class each payload names, as module code would, and says what happened", List.of());
				""", "", """
				try {
					result = "loaded " + Class.forName((String) message.getPayload()).getName();
				}
				catch (ClassNotFoundException | LinkageError ex) {
					result = ex.getClass().getSimpleName();
				}
				""");
	}

	/**
	 * A processor with a secret option, {@code apiKey} (and a plain one, {@code region}), that sends on the length of
	 * the key it was given: the module gets the real value, whatever XD shows.
	 */
	public static TestJars secretKeeper() {
		return processor(KEEPER_PROVIDER, """
				static final ModuleOption<String> API_KEY = ModuleOption.ofString("apiKey").withSecret();

				static final ModuleOption<String> REGION = ModuleOption.ofString("region").withDefault("eu");

				static final ModuleMetadata METADATA = new ModuleMetadata(ModuleType.PROCESSOR, "keeper",
						"Sends on the length of its key", List.of(API_KEY, REGION));
				""", "String key = context.options().get(API_KEY);",
				"result = \"key length \" + ((key == null) ? 0 : key.length());");
	}

	private static TestJars processor(String provider, String declarations, String before, String handling) {
		int dot = provider.lastIndexOf('.');
		TestJars jar = new TestJars();
		jar.sources.put(provider, PROCESSOR.replace("@NAME@", provider.substring("com.example.".length(), dot))
			.replace("@PROVIDER@", provider.substring(dot + 1))
			.replace("@DECLARATIONS@", declarations)
			.replace("@BEFORE@", before)
			.replace("@HANDLING@", handling));
		jar.resources.put(ModuleJar.SERVICE_FILE, (provider + "\n").getBytes(StandardCharsets.UTF_8));
		return jar;
	}

	/** Adds (or replaces) a resource entry. */
	public TestJars withResource(String name, byte[] content) {
		this.resources.put(name, content);
		return this;
	}

	/** Removes a resource entry, such as the service file. */
	public TestJars without(String name) {
		this.resources.remove(name);
		return this;
	}

	/** Compiles the sources and writes the jar. */
	public Path writeTo(Path jar) {
		try {
			Path work = Files.createTempDirectory("test-jar");
			Path src = work.resolve("src");
			Path classes = work.resolve("classes");
			Files.createDirectories(classes);
			List<String> args = new ArrayList<>(List.of("--release", "17", "-proc:none", "-nowarn", "-d",
					classes.toString(), "-classpath", classPath()));
			for (Map.Entry<String, String> source : this.sources.entrySet()) {
				Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
				Files.createDirectories(file.getParent());
				Files.writeString(file, source.getValue());
				args.add(file.toString());
			}
			JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
			if (compiler.run(null, null, System.err, args.toArray(String[]::new)) != 0) {
				throw new IllegalStateException("The test module does not compile");
			}
			try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
					Stream<Path> files = Files.walk(classes)) {
				for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
					zip.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
					zip.write(Files.readAllBytes(file));
					zip.closeEntry();
				}
				for (Map.Entry<String, byte[]> resource : this.resources.entrySet()) {
					zip.putNextEntry(new JarEntry(resource.getKey()));
					zip.write(resource.getValue());
					zip.closeEntry();
				}
			}
			return jar;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The module SPI and Spring Messaging, Spring Core (which Spring Messaging's signatures name). */
	private static String classPath() {
		List<String> entries = new ArrayList<>();
		for (Class<?> type : List.of(ModuleProvider.class, Message.class, org.springframework.util.Assert.class)) {
			try {
				entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
			}
			catch (URISyntaxException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return String.join(java.io.File.pathSeparator, entries);
	}
}
